#include "html_export/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "base/file_create.hpp"
#include "html_export/gzip.hpp"
#include "html_export/report_assets.hpp"
#include "html_export/report_data.hpp"
#include "html_export/report_findings.hpp"
#include "html_export/report_tables.hpp"

namespace legato::html {

namespace {

namespace fs = std::filesystem;

// Appends in as base64.
void append_base64(std::string& out, std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t start = out.size();
  out.resize(start + (in.size() + 2) / 3 * 4, '=');
  const auto* from = reinterpret_cast<const uint8_t*>(in.data());
  char* to = out.data() + start;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3, to += 4) {
    const uint32_t v = uint32_t{from[i]} << 16 | uint32_t{from[i + 1]} << 8 | from[i + 2];
    to[0] = kAlphabet[v >> 18];
    to[1] = kAlphabet[(v >> 12) & 63];
    to[2] = kAlphabet[(v >> 6) & 63];
    to[3] = kAlphabet[v & 63];
  }
  if (i < in.size()) {  // one or two bytes left: '=' pads the rest
    const uint32_t v =
        uint32_t{from[i]} << 16 | (i + 1 < in.size() ? uint32_t{from[i + 1]} << 8 : 0);
    to[0] = kAlphabet[v >> 18];
    to[1] = kAlphabet[(v >> 12) & 63];
    if (i + 1 < in.size()) to[2] = kAlphabet[(v >> 6) & 63];
  }
}

// The page: its template with each marker replaced, in their order, in one
// pass into a string of its final size (a replace per marker moved the data,
// tens of MB, twice more). The data (gz, as base64) holds no '<', so it
// cannot end its script element.
std::string fill_page(const std::string& gz) {
  const std::string_view page = kReportHtml, css = kReportCss, js = kReportJs;
  std::string out;
  out.reserve(page.size() + css.size() + (gz.size() + 2) / 3 * 4 + js.size());
  const std::pair<std::string_view, std::function<void()>> fills[] = {
      {"/*LEGATO_CSS*/", [&] { out.append(css); }},
      {"LEGATO_DATA", [&] { append_base64(out, gz); }},
      {"/*LEGATO_JS*/", [&] { out.append(js); }}};
  size_t from = 0;
  for (const auto& [marker, fill] : fills) {
    const size_t at = page.find(marker, from);
    if (at == std::string_view::npos)
      throw ReportError("the report's page template has no " + std::string(marker));
    out.append(page.substr(from, at - from));
    fill();
    from = at + marker.size();
  }
  out.append(page.substr(from));
  return out;
}

// A detail file: a script handing the page chunk k of a kind ('c': items,
// 'o': operations), compressed and as base64 (no quote, no backslash).
std::string chunk_script(char kind, uint32_t k, const std::string& packed) {
  const std::string gz = gzip(packed);
  std::string out = "legatoChunk(\"";
  out += kind;
  out += "\"," + std::to_string(k) + ",\"";
  append_base64(out, gz);
  out += "\");\n";
  return out;
}

// Every rule with default thresholds; a rule that fails costs the report its
// findings, never the timeline.
nlohmann::json findings_of(const analysis::Profile& p) {
  try {
    return report_findings(p, analysis::find(p));
  } catch (const std::exception& e) {
    return {{"findings", nlohmann::json::array()},
            {"not_checked",
             nlohmann::json::array({nlohmann::json{{"rule", "all rules"}, {"reason", e.what()}}})},
            {"span_ns", p.stop - p.start}};
  }
}

std::string write_error(int err) {
  const char* hint = err == ENOSPC || err == EDQUOT ? " (is the disk full?)"
                     : err == EACCES || err == EROFS || err == EPERM
                         ? " (is the directory writable?)"
                         : "";
  return std::strerror(err) + std::string(hint);
}

// A fresh name for the detail folder, so a report written over an older one
// never mixes their files.
std::string fresh_data_dir() {
  std::random_device random;
  char name[32];
  std::snprintf(name, sizeof name, "data-%08x%08x", random(), random());
  return name;
}

// Whether name is one fresh_data_dir() makes: "data-" and 16 hex digits.
bool is_data_dir_name(const std::string& name) {
  return name.size() == 21 && name.rfind("data-", 0) == 0 &&
         std::all_of(name.begin() + 5, name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Whether every entry of dir is a regular file named as write_chunks names
// them ("c12.js", "o3.js", or such a name's temporary beside it).
bool holds_only_detail_files(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool detail = name.size() > 4 && (name[0] == 'c' || name[0] == 'o') &&
                        std::isdigit(static_cast<unsigned char>(name[1])) &&
                        name.find(".js") != std::string::npos;
    if (!detail || entry.is_symlink(ec) || !entry.is_regular_file(ec)) return false;
  }
  return !ec;
}

// Packs and writes every chunk on `threads` threads; returns the bytes
// written. The first failure stops the others and is thrown. The items'
// chunks come first: they need no tables, so they are packed while another
// thread makes them; the operations' chunks wait for `tables`.
size_t write_chunks(const analysis::Profile& p, std::shared_future<const ReportTables*> tables,
                    const fs::path& data, unsigned threads) {
  const uint32_t items_jobs = item_chunks(p), jobs = items_jobs + op_chunks(p);
  std::atomic<uint32_t> next{0};
  std::atomic<size_t> written{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
  const auto work = [&] {
    try {
      for (uint32_t j = next++; j < jobs && !failed; j = next++) {
        const bool items = j < items_jobs;
        const uint32_t k = items ? j : j - items_jobs;
        const std::string script = items ? chunk_script('c', k, pack_item_chunk(p, k))
                                         : chunk_script('o', k, pack_op_chunk(p, *tables.get(), k));
        const fs::path path = data / ((items ? "c" : "o") + std::to_string(k) + ".js");
        if (const int err = base::write_replacing(path.string(), script); err != 0)
          throw ReportError("cannot write " + path.string() + ": " + write_error(err));
        written += script.size();
      }
    } catch (const std::exception& e) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!failed.exchange(true)) error = e.what();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (failed) throw ReportError(error);
  return written;
}

}  // namespace

ReportInfo write_report(const analysis::Profile& p, const std::string& dir, unsigned threads) {
  std::error_code ec;
  const bool created = fs::create_directories(dir, ec);
  if (ec) {
    throw ReportError("cannot create the report directory " + dir + ": " + ec.message() +
                      " (choose another with -o DIR)");
  }
  ReportInfo info;
  info.path = (fs::path(dir) / "index.html").string();
  const std::string data_name = fresh_data_dir();
  const fs::path data = fs::path(dir) / data_name;
  info.data_dir = data.string();
  // A report that could not be written leaves nothing of its own behind.
  const auto fail = [&](const std::string& why) {
    fs::remove_all(data, ec);
    if (created) fs::remove(dir, ec);
    return ReportError(why);
  };
  // A FIFO at the path would block the write until someone reads it (a run
  // that never ends): what is not a regular file is refused, unopened.
  if (const std::string kind = base::special_file(info.path); !kind.empty())
    throw fail("cannot write " + info.path + ": " + base::not_a_file_reason(kind) +
               "; remove it or choose another directory with -o");
  if (!fs::create_directory(data, ec) || ec)
    throw fail("cannot create " + data.string() + ": " + ec.message());
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::string page;
  try {
    // The tables and the index on this thread while the others pack chunks.
    std::promise<const ReportTables*> tables_made;
    std::exception_ptr chunk_error;
    std::thread chunks([&, tables = tables_made.get_future().share()] {
      try {
        info.total_bytes = write_chunks(p, tables, data, std::max(1u, threads - 1));
      } catch (...) {
        chunk_error = std::current_exception();
      }
    });
    std::string packed;
    std::optional<ReportTables> tables;
    try {
      try {
        tables.emplace(p);
        tables_made.set_value(&*tables);
      } catch (...) {
        tables_made.set_exception(std::current_exception());
        throw;
      }
      packed = pack_index(p, *tables, findings_of(p), data_name);
      info.data_bytes = packed.size();
      page = fill_page(gzip(packed));
    } catch (...) {
      chunks.join();
      throw;
    }
    chunks.join();
    if (chunk_error) std::rethrow_exception(chunk_error);
  } catch (const ReportError& e) {
    throw fail(e.what());
  } catch (const std::exception& e) {  // out of memory, a thread that could not start
    throw fail("cannot write the report in " + dir + ": " + e.what());
  }
  info.files = item_chunks(p) + op_chunks(p);
  // Written under a fresh name beside it, then renamed over it: never
  // through a link planted at either name.
  if (const int err = base::write_replacing(info.path, page); err != 0)
    throw fail("cannot write " + info.path + ": " + write_error(err));
  info.bytes = page.size();
  info.total_bytes += page.size();
  // The detail files of the reports this one replaced: folders named as
  // this writer names them and holding only detail files (a folder of the
  // user's own is never touched).
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != data_name && is_data_dir_name(name) && entry.is_directory(ec) &&
        !entry.is_symlink(ec) && holds_only_detail_files(entry.path()))
      fs::remove_all(entry.path(), ec);
  }
  return info;
}

}  // namespace legato::html

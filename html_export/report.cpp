#include "html_export/report.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>
#include <system_error>
#include <utility>

#include "base/file_create.hpp"
#include "html_export/gzip.hpp"
#include "html_export/report_assets.hpp"
#include "html_export/report_data.hpp"
#include "html_export/report_findings.hpp"

namespace legato::html {

namespace {

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
// tens of MB, twice more: 0.4 s of a 10 M-record run's report). The data
// (gz, as base64) holds no '<', so it cannot end its script element.
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

}  // namespace

std::string render_report(const analysis::Profile& p, size_t* data_bytes) {
  const std::string packed = pack_profile(p, findings_of(p));
  if (data_bytes) *data_bytes = packed.size();
  return fill_page(gzip(packed));
}

ReportInfo write_report(const analysis::Profile& p, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool created = fs::create_directories(dir, ec);
  if (ec) {
    throw ReportError("cannot create the report directory " + dir + ": " + ec.message() +
                      " (choose another with -o DIR)");
  }
  ReportInfo info;
  const std::string page = render_report(p, &info.data_bytes);
  info.path = (fs::path(dir) / "index.html").string();
  // A report that could not be written leaves no empty directory behind.
  const auto fail = [&](const std::string& why) {
    if (created) fs::remove(dir, ec);
    return ReportError("cannot write " + info.path + ": " + why);
  };
  // A FIFO at the path would block the write until someone reads it (a run
  // that never ends): what is not a regular file is refused, unopened.
  if (const std::string kind = base::special_file(info.path); !kind.empty())
    throw fail(base::not_a_file_reason(kind) + "; remove it or choose another directory with -o");
  // Written under a fresh name beside it, then renamed over it: never
  // through a link planted at either name.
  if (const int err = base::write_replacing(info.path, page); err != 0) {
    const char* hint = err == ENOSPC || err == EDQUOT ? " (is the disk full?)"
                       : err == EACCES || err == EROFS || err == EPERM
                           ? " (is the directory writable?)"
                           : "";
    throw fail(std::strerror(err) + std::string(hint));
  }
  info.bytes = page.size();
  return info;
}

}  // namespace legato::html

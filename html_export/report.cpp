#include "html_export/report.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "html_export/gzip.hpp"
#include "html_export/report_assets.hpp"
#include "html_export/report_data.hpp"
#include "html_export/report_findings.hpp"
#include "trace_format/file_create.hpp"

namespace legato::html {

namespace {

std::string base64(const std::string& in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  const auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<uint8_t>(in[k])); };
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  if (i < in.size()) {
    uint32_t v = byte(i) << 16;
    if (i + 1 < in.size()) v |= byte(i + 1) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

void replace(std::string& page, const std::string& marker, const std::string& with) {
  const auto at = page.find(marker);
  if (at != std::string::npos) page.replace(at, marker.size(), with);
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
  std::string page(kReportHtml);
  // Base64 holds no '<', so the data cannot end its script element.
  replace(page, "/*LEGATO_CSS*/", kReportCss);
  replace(page, "LEGATO_DATA", base64(gzip(packed)));
  replace(page, "/*LEGATO_JS*/", kReportJs);
  return page;
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
  // Written under a fresh name beside it, then renamed over it: never
  // through a link planted at either name.
  if (const int err = trace::write_replacing(info.path, page); err != 0) {
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

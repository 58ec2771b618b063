// The view as something to send: a link into the run's report at this
// window, item and search (the report reads it as its own links), and the
// legate_prof view command line that opens the viewer here again.
#include <cctype>
#include <cstdio>
#include <filesystem>

#include "analysis/units.hpp"
#include "base/shell_word.hpp"
#include "viewer/app.hpp"

namespace legato::viewer {

namespace {

// Text as a URL's fragment holds it (URLSearchParams' form: space as +).
std::string url_encoded(const std::string& text) {
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '*') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

}  // namespace

std::string App::view_link() const {
  if (!profile_ || files_.empty()) return "";
  std::error_code ec;
  const std::filesystem::path report = std::filesystem::absolute(
      std::filesystem::path(files_.front()).parent_path() / "legate_prof" / "index.html", ec);
  if (ec || !std::filesystem::is_regular_file(report, ec)) return "";
  const double start = camera_.run_start();
  std::string link = "file://" + report.string() +
                     "#range=" + analysis::typed_time(camera_.t0() - start) + ":" +
                     analysis::typed_time(camera_.t1() - start);
  if (hl_.selected != analysis::kNone) link += "&item=" + std::to_string(hl_.selected);
  if (!search_query_.empty()) link += "&q=" + url_encoded(search_query_);
  return link;
}

std::string App::view_command() const {
  if (!profile_) return "";
  std::string command = "legate_prof view";
  for (const auto& f : files_) command += " " + base::shell_word(f);
  // The same part loaded (item numbers count in it), then this window.
  if (options_.nodes) command += " --nodes " + options_.nodes->text();
  const auto span = [](const std::pair<double, double>& r) {
    return analysis::typed_time(r.first) + ":" + analysis::typed_time(r.second);
  };
  if (options_.range) command += " --range " + span(*options_.range);
  const double start = camera_.run_start();
  command += " --window " + span({camera_.t0() - start, camera_.t1() - start});
  if (hl_.selected != analysis::kNone) command += " --select " + std::to_string(hl_.selected);
  return command;
}

}  // namespace legato::viewer

// The self-contained HTML report: one index.html with inline script and
// style, the profile packed, gzip-compressed and base64-embedded, decoded in
// the browser with standard APIs. Opens from file:// with no network access
// (a Content-Security-Policy forbids any).
#pragma once

#include <stdexcept>
#include <string>

#include "analysis/profile.hpp"

namespace legato::html {

// The report could not be written; what() names the path and the reason.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReportInfo {
  std::string path;       // DIR/index.html
  size_t bytes = 0;       // its size
  size_t data_bytes = 0;  // packed profile before compression
};

// Writes dir/index.html (creating dir). The file appears complete or not at
// all: it is written under a temporary name and renamed.
ReportInfo write_report(const analysis::Profile& p, const std::string& dir);

// The whole page as a string (for tests and benchmarks).
std::string render_report(const analysis::Profile& p, size_t* data_bytes = nullptr);

}  // namespace legato::html

// The offline HTML report: a folder holding index.html (inline script and
// style, the report's index packed, gzip-compressed and base64-embedded)
// and, beside it, a folder of detail files (data-<id>/: each a script that
// hands the page one chunk of items or operations, report_data.hpp) that
// the page loads with <script> elements where the user looks. Opens from
// file:// with no server and no network access (a Content-Security-Policy
// allows scripts inline and from the report's own folder only).
#pragma once

#include <cstddef>
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
  std::string path;        // DIR/index.html
  std::string data_dir;    // DIR/data-<id>, the detail files
  size_t bytes = 0;        // index.html's size
  size_t total_bytes = 0;  // index.html and the detail files
  size_t files = 0;        // detail files
  size_t data_bytes = 0;   // the packed index before compression
};

// Writes dir/index.html and its detail files (creating dir). index.html
// appears complete or not at all, after every file it names: each file is
// written under a temporary name and renamed. The detail files of an
// earlier report in dir are removed once the new index.html is in place.
// threads: how many chunks are packed at once (0: one per core, up to 8).
ReportInfo write_report(const analysis::Profile& p, const std::string& dir, unsigned threads = 0);

}  // namespace legato::html

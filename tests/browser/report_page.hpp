// Opening a report in the browser tests: the page, then what it loads for
// its first screen (its detail chunks), drawn.
#pragma once

#include <string>

#include "browser/chromium.hpp"

namespace legato::testing {

// Opens the report at path; true once it is ready and settled.
inline bool open_report(Chromium& c, const std::string& path, int timeout_ms = 20000) {
  c.open_file(path);
  if (!c.wait_for("['ready', 'error'].includes(document.body.dataset.state)", timeout_ms))
    return false;
  return c.eval("document.body.dataset.state") == "ready" &&
         c.eval("legatoReport.settled()") == true;
}

}  // namespace legato::testing

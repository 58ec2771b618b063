#include "runtime/core/errors.hpp"

#include <cstdio>
#include <cstdlib>

#include "recorder/recorder.hpp"
#include "runtime/config.hpp"
#include "runtime/core/lifecycle.hpp"
#include "runtime/legato.hpp"
#include "runtime/ranks/comm.hpp"

namespace legato::rt {

void fatal_error(trace::ErrorKind kind, const std::string& text, trace::Uid op, uint32_t resource,
                 const std::string& printed_prefix) {
  const bool ends_line = !text.empty() && text.back() == '\n';
  std::fprintf(stderr, "LEGATE ERROR: %s%s%s", printed_prefix.c_str(), text.c_str(),
               ends_line ? "" : "\n");
  std::fflush(stderr);
  rec::fatal_error(kind, text, op, resource);
  std::fflush(nullptr);
  const Config& c = config();
  if (comm::size() == 1) {
    write_run_report(c);
  } else if (c.profile) {
    // The other ranks are still running (the launcher stops them now).
    std::fprintf(stderr,
                 "legate: rank %d of %d failed; the launcher stops the others, whose traces are "
                 "finished as they stop. Write the report with: legate_prof archive %s/%s_*.prof "
                 "-o %s/legate_prof\n",
                 comm::rank(), comm::size(), c.logdir.c_str(), c.profile_name.c_str(),
                 c.logdir.c_str());
  }
  std::_Exit(1);
}

}  // namespace legato::rt

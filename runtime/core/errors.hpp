// How the runtime ends a program after an error: one message on stderr in
// the form Legate users know ("LEGATE ERROR: ..."), the error marker in the
// trace, the trace finished and the report written (or the command to write
// it), exit status 1.
#pragma once

#include <cstdint>
#include <string>

#include "trace_format/records.hpp"

namespace legato::rt {

// Prints "LEGATE ERROR: <printed_prefix><text>" on stderr (with a newline
// unless text ends in one), records the error marker with `text` alone
// (printed_prefix says, e.g., which rank), finishes the trace, writes the
// report (or says how, on several ranks) and exits with 1.
[[noreturn]] void fatal_error(trace::ErrorKind kind, const std::string& text, trace::Uid op,
                              uint32_t resource = trace::kNoResource,
                              const std::string& printed_prefix = "");

}  // namespace legato::rt

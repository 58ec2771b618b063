#include "trace_files.hpp"

#include <iostream>

#include "commands.hpp"
#include "trace_format/byte_source.hpp"
#include "trace_format/writer.hpp"

namespace legato::tools {

TraceFiles check_trace_files(const std::string& command, const std::vector<std::string>& files) {
  TraceFiles out;
  for (const auto& path : files) {
    try {
      trace::open_file_source(path);  // the reader's own open: its reason, with errno's text
      out.readable.push_back(path);
    } catch (const trace::TraceError& e) {
      std::cerr << "legate_prof " << command << ": " << e.what() << "\n";
      out.all_readable = false;
    }
  }
  return out;
}

int exit_status(const TraceFiles& files, const analysis::Profile& p) {
  return files.all_readable && p.incomplete_files.empty() ? kExitOk : kExitIncomplete;
}

}  // namespace legato::tools

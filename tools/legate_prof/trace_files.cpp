#include "trace_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "commands.hpp"
#include "trace_format/byte_source.hpp"
#include "trace_format/writer.hpp"

namespace legato::tools {

namespace {

namespace fs = std::filesystem;

// A name a run's trace or log has: legate_0.prof, prof_3.gz, prof_0.log.
bool trace_name(const std::string& name) {
  const auto ends = [&](std::string_view end) {
    return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  return ends(".prof") || ends(".prof.gz") || name.rfind("prof_", 0) == 0;
}

// Natural order: runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      std::string_view x(a.data() + i, ei - i), y(b.data() + j, ej - j);
      while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
      while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace

std::vector<std::string> trace_files_in(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code type_ec;
    if (trace_name(name) && entry.is_regular_file(type_ec)) names.push_back(name);
  }
  std::sort(names.begin(), names.end(), natural_less);
  std::vector<std::string> paths;
  for (const auto& name : names) paths.push_back((fs::path(dir) / name).string());
  return paths;
}

TraceFiles check_trace_files(const std::string& command, const std::vector<std::string>& files,
                             Directories directories) {
  TraceFiles out;
  const auto check = [&](const std::string& path) {
    try {
      trace::open_file_source(path);  // the reader's own open: its reason, with errno's text
      out.readable.push_back(path);
    } catch (const trace::TraceError& e) {
      std::cerr << "legate_prof " << command << ": " << e.what() << "\n";
      out.all_readable = false;
    }
  };
  for (const auto& path : files) {
    std::error_code ec;
    if (directories == Directories::Expand && fs::is_directory(path, ec)) {
      const std::vector<std::string> inside = trace_files_in(path);
      if (inside.empty()) {
        std::cerr << "legate_prof " << command << ": " << path
                  << ": a directory with no trace files in it (legate_*.prof, prof_*.gz); give "
                     "the log directory of a run (--logdir) or the trace files themselves\n";
        out.all_readable = false;
      }
      for (const auto& file : inside) check(file);
      continue;
    }
    check(path);
  }
  return out;
}

int exit_status(const TraceFiles& files, const analysis::Profile& p) {
  return files.all_readable && p.incomplete_files.empty() ? kExitOk : kExitIncomplete;
}

}  // namespace legato::tools

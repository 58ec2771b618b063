// legate_prof dump FILE: every frame and record as one JSON object per line.
#include <iostream>

#include "commands.hpp"
#include "legion_import/import.hpp"
#include "legion_logs.hpp"
#include "load/readers.hpp"
#include "output_paths.hpp"
#include "trace_files.hpp"
#include "trace_format/reader.hpp"
#include "trace_format/record_json.hpp"
#include "trace_format/writer.hpp"

namespace legato::tools {
namespace {

using namespace legato::trace;

struct DumpOptions {
  std::string path;
  std::vector<std::string> kinds;  // empty: all
  bool resolve = false;
  bool frames = true;
};

void print(const nlohmann::json& j) {
  std::cout << json_text(j) << '\n';
}

int dump(const DumpOptions& o) {
  if (!outputs_apart("dump", {o.path})) return kExitUsage;
  if (!check_trace_files("dump", {o.path}, Directories::Refuse).all_readable)
    return kExitIncomplete;
  if (&load::reader_for(o.path) == &legion::run_reader())
    return legion_dump(o.path, o.kinds, o.resolve);
  std::unique_ptr<TraceReader> reader;
  try {
    reader = TraceReader::open(o.path);
  } catch (const TraceError& e) {
    std::cerr << "legate_prof dump: " << e.what() << "\n";
    return kExitIncomplete;
  }
  const auto wanted = [&](const nlohmann::json& j) {
    if (o.kinds.empty()) return true;
    const std::string k = j["kind"].is_string() ? j["kind"].get<std::string>() : j["kind"].dump();
    return std::find(o.kinds.begin(), o.kinds.end(), k) != o.kinds.end();
  };
  StringTable strings;
  Frame f;
  while (reader->next(f)) {
    if (o.frames) {
      print({{"frame", f.header.sequence},
             {"type", to_string(f.header.type)},
             {"offset", f.offset},
             {"stored_size", f.header.stored_size},
             {"raw_size", f.header.raw_size},
             {"records", f.header.record_count},
             {"t_min", f.header.t_min},
             {"t_max", f.header.t_max}});
    }
    if (f.header.type == FrameType::Metadata) {
      const nlohmann::json j = {{"kind", "metadata"}, {"value", f.metadata}};
      if (wanted(j)) print(j);
      continue;
    }
    if (o.resolve) {
      for (const auto& s : f.records.get<StringRecord>()) strings[s.id] = s.text;
    }
    for_each_record_json(f.records, o.resolve ? &strings : nullptr, [&](const nlohmann::json& j) {
      if (wanted(j)) print(j);
    });
  }
  std::cout.flush();
  for (const Diagnostic& d : reader->diagnostics()) std::cerr << d.format(o.path) << "\n";
  return reader->lost_data() ? kExitIncomplete : kExitOk;
}

}  // namespace

Command add_dump_command(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "dump", "Print every frame and record of a trace as JSON, one object per line");
  sub->footer(help_footer(
      "  legate_prof dump legate_0.prof --kind task --strings | head   tasks with their names\n"
      "  legate_prof dump prof_0.gz --kind task                         a Legion Prof log's "
      "tasks"));
  auto o = std::make_shared<DumpOptions>();
  sub->add_option("file", o->path,
                  "One trace file: a Legato trace or a Legion Prof log (the records it becomes)")
      ->required();
  // One kind per --kind, so that `dump --kind task FILE` reads FILE as the file.
  sub->add_option("--kind", o->kinds,
                  "Only records of this kind (task, meta_task, copy, instance, edge, string, "
                  "metadata, ...); repeat it for several")
      ->allow_extra_args(false)
      ->type_name("KIND");
  sub->add_flag("--strings", o->resolve, "Add the text of string ids (name -> name_text)");
  auto no_frames = std::make_shared<bool>(false);
  sub->add_flag("--no-frames", *no_frames, "Leave out the frame header lines");
  return {sub, [o, no_frames] {
            o->frames = !*no_frames;
            return dump(*o);
          }};
}

}  // namespace legato::tools

// The registry of run readers: every format Legato opens, each a reader
// (analysis/run_reader.hpp) asked in turn, by a file's content, whether it
// reads the file. A new format is one more entry in readers.cpp.
#pragma once

#include <string>
#include <vector>

#include "analysis/run_reader.hpp"

namespace legato::load {

// Every reader, in the order they are asked: Legion Prof logs, then Legato
// traces, the last, which takes any file (its errors say what is wrong with
// a file that is no trace).
const std::vector<const analysis::RunReader*>& run_readers();

// The reader of the file at `path`, told by its first bytes. Never throws.
const analysis::RunReader& reader_for(const std::string& path);

// The file read by its reader (RankTrace::reader names it). A path that
// holds no regular file (a FIFO, a device, a directory) is refused
// unopened, a problem saying what it is. Never throws.
analysis::RankTrace read_file(const std::string& path, const analysis::ReadHints& hints = {});

// Each reader's name_runs over the files it read.
void name_runs(std::vector<analysis::RankTrace>& traces);
// Each reader's finish_run over the files it read, as build_profile's
// FinishRun (analysis/build.hpp).
void finish_run(std::vector<analysis::RankTrace>& files);

// The reader of Legato traces (prof_reader.cpp).
const analysis::RunReader& prof_reader();

}  // namespace legato::load

// The interface every reader of a run's files implements (Legato traces,
// Legion Prof logs; the next format is one more): the model declares it,
// the readers are leaves that implement it, and load/'s registry lists them
// and asks them, in their order, who reads a file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rank_trace.hpp"
#include "base/progress.hpp"

namespace legato::analysis {

// What the loader knows about the machine while a file is read.
struct ReadHints {
  // A core would otherwise idle while this file is read (fewer files than
  // threads): a reader may give it work ahead of the thread reading the
  // file (inflating a compressed file, prefaulting the tables' next pages).
  bool spare_core = false;
  // Where to say how far through the file the reader is (FileProgress:
  // its share is its size on disk); null: nobody is watching.
  base::Progress* progress = nullptr;
  // Whether the run's rank (node) a file holds is wanted; empty: all are. A
  // reader may stop as soon as it knows the rank of a file that is not
  // (RankTrace::left_out).
  std::function<bool(int64_t rank)> rank_wanted;

  static ReadHints with_spare_core(bool spare) {
    ReadHints h;
    h.spare_core = spare;
    return h;
  }
};

class RunReader {
 public:
  virtual ~RunReader() = default;
  // What it reads, as messages name it: "Legato trace", "Legion Prof log".
  virtual std::string_view name() const = 0;
  // Whether the file is of this reader's format, told by the first bytes of
  // its content (`head`: up to kHeadBytes of them), never by its name.
  static constexpr size_t kHeadBytes = 4096;
  virtual bool recognizes(std::string_view head) const = 0;
  // The file as one rank of a run. Never throws: a file that cannot be read
  // comes back with readable = false and the reason in problems; a damaged
  // one with what could be read and a problem naming where.
  virtual RankTrace read(const std::string& path, const ReadHints& hints) const = 0;
  // Once every file given is read, before the run is chosen: the run ids of
  // this reader's files whose format names none (the files of one run get
  // one id). The default leaves them as read.
  virtual void name_runs(const std::vector<RankTrace*>& /*files*/) const {}
  // Once the run's files are chosen, beside the model's first steps (which
  // read no edges): what needs every file of the run (LateEdges). A failure
  // throws, its what() the whole warning the profile shows. The default does
  // nothing.
  virtual void finish_run(const std::vector<RankTrace*>& /*files*/) const {}
};

}  // namespace legato::analysis

// Three ways to record the same stream of interval begin/end events, for
// bench_recorder: Legato's recorder, OTF2 (when built with it) and Chrome
// trace JSON lines through fprintf (what simple tracers do). Each run records
// `intervals` intervals, two clock readings each, and returns its seconds.
#pragma once

#include <cstdint>
#include <string>

namespace legato::bench {

struct Sink {
  virtual ~Sink() = default;
  virtual const char* name() const = 0;
  virtual double run(uint64_t intervals) = 0;
  // Closes the output; returns its size in bytes.
  virtual uint64_t close() = 0;
};

std::unique_ptr<Sink> make_json_sink(const std::string& path);
// nullptr when the benchmark was built without OTF2.
std::unique_ptr<Sink> make_otf2_sink(const std::string& dir);

}  // namespace legato::bench

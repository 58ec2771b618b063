// libFuzzer target: arbitrary bytes as a whole .prof file. Checksums stop
// most mutations at the frame level, which is exactly what a damaged file
// looks like; fuzz_payload reaches past them into the decoders.
#include <cstddef>
#include <cstdint>

#include "trace_format/reader.hpp"
#include "trace_format/record_json.hpp"
#include "trace_format/writer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace legato::trace;
  try {
    auto reader = TraceReader::open(make_memory_source(data, size), "fuzz.prof");
    Frame f;
    while (reader->next(f)) {
      for_each_record_json(f.records, nullptr, [](const nlohmann::json& j) {
        (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      });
    }
    for (const Diagnostic& d : reader->diagnostics()) (void)d.format("fuzz.prof");
  } catch (const TraceError&) {
    // Not a trace: refused with a reason, which is the expected outcome.
  }
  return 0;
}

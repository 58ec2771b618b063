// libFuzzer target: arbitrary bytes as what a frame holds after its checksum
// and decompression passed, i.e. the section decoder, the metadata parser and
// the frame header parser, which checksums otherwise shield from mutations.
#include <cstddef>
#include <cstdint>

#include "trace_format/decoder.hpp"
#include "trace_format/frame.hpp"
#include "trace_format/reader.hpp"
#include "trace_format/record_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace legato::trace;
  RecordBatch batch;
  const DecodeResult res = decode_payload(data, size, batch);
  if (res.ok) {
    for_each_record_json(batch, nullptr, [](const nlohmann::json& j) {
      (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    });
  }
  nlohmann::json meta;
  std::string error;
  if (parse_metadata(data, size, meta, error))
    (void)meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (size >= kFrameHeaderSize) {
    FrameHeader h;
    (void)decode_frame_header(data, h, error);
  }
  (void)decode_file_header(data, size);
  return 0;
}

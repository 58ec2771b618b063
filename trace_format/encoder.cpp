#include "trace_format/encoder.hpp"

namespace legato::trace {

void put_section_header(ByteBuffer& out, uint32_t kind, uint64_t count, const ColumnCodec* codecs,
                        const ByteBuffer* columns, size_t ncols) {
  out.put_varint(kind);
  out.put_varint(count);
  out.put_varint(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    out.put_u8(static_cast<uint8_t>(codecs[c].codec));
    if (codecs[c].has_ref()) out.put_varint(codecs[c].ref);
    out.put_varint(columns[c].size());
  }
}

size_t ChunkEncoder::encoded_bytes() const {
  size_t n = 0;
  std::apply([&](const auto&... s) { ((n += s.encoded_bytes()), ...); }, sections_);
  return n;
}

std::pair<Time, Time> ChunkEncoder::time_range() const {
  Time lo = std::numeric_limits<Time>::max(), hi = std::numeric_limits<Time>::min();
  std::apply(
      [&](const auto&... s) {
        ((s.has_times() ? (lo = std::min(lo, s.t_min()), hi = std::max(hi, s.t_max())) : 0), ...);
      },
      sections_);
  if (lo > hi) return {0, 0};
  return {lo, hi};
}

void ChunkEncoder::finish(ByteBuffer& out) {
  std::apply([&](auto&... s) { (s.finish(out), ...); }, sections_);
  records_ = 0;
}

}  // namespace legato::trace

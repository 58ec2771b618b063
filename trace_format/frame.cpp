#include "trace_format/frame.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstring>

#include "trace_format/varint.hpp"

namespace legato::trace {
namespace {

void store_u16(uint8_t* p, uint16_t v) {
  for (int i = 0; i < 2; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void store_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void store_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// Shows up to n bytes as text when printable, otherwise as hex.
std::string describe_bytes(const uint8_t* p, size_t n) {
  bool printable = true;
  for (size_t i = 0; i < n; ++i) printable = printable && p[i] >= 0x20 && p[i] < 0x7f;
  std::string s;
  if (printable) return "\"" + std::string(reinterpret_cast<const char*>(p), n) + "\"";
  char buf[4];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", p[i]);
    s += (i ? " " : "") + std::string(buf);
  }
  return s;
}

constexpr std::string_view kLegionProfMagic = "FileType: BinaryLegionProf";

}  // namespace

uint32_t crc32_of(const void* data, size_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* p = static_cast<const Bytef*>(data);
  while (size > 0) {
    const uInt n = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    size -= n;
  }
  return static_cast<uint32_t>(crc);
}

std::string_view to_string(FrameType t) {
  switch (t) {
    case FrameType::Metadata:
      return "metadata";
    case FrameType::Events:
      return "events";
    case FrameType::Footer:
      return "footer";
  }
  return "unknown";
}

void encode_file_header(const FileHeader& h, uint8_t out[kFileHeaderSize]) {
  std::memset(out, 0, kFileHeaderSize);
  std::memcpy(out, kFileMagic, 8);
  store_u16(out + 8, h.major);
  store_u16(out + 10, h.minor);
  store_u32(out + 12, h.header_size);
  store_u32(out + 16, h.flags);
  store_u32(out + 28, crc32_of(out, 28));
}

FileHeaderResult decode_file_header(const uint8_t* bytes, size_t size) {
  FileHeaderResult r;
  if (size == 0) {
    r.error = "the file is empty (0 bytes); expected a Legato trace starting with \"LGTOPROF\"";
    return r;
  }
  const size_t lp = std::min(size, kLegionProfMagic.size());
  if (lp == kLegionProfMagic.size() && std::memcmp(bytes, kLegionProfMagic.data(), lp) == 0) {
    r.error =
        "this is a Legion Prof log (\"FileType: BinaryLegionProf\"), not a Legato trace; "
        "Legato traces start with \"LGTOPROF\"";
    return r;
  }
  const size_t m = std::min<size_t>(size, 8);
  if (std::memcmp(bytes, kFileMagic, m) != 0) {
    r.error =
        "not a Legato trace: expected \"LGTOPROF\" at offset 0, found " + describe_bytes(bytes, m);
    return r;
  }
  if (size < kFileHeaderSize) {
    r.error = "the file is " + std::to_string(size) + " bytes, shorter than the " +
              std::to_string(kFileHeaderSize) + "-byte file header (truncated at offset " +
              std::to_string(size) + ")";
    return r;
  }
  const uint32_t want = load_u32le(bytes + 28);
  const uint32_t got = crc32_of(bytes, 28);
  if (want != got) {
    r.error = "file header checksum mismatch at offset 28 (stored " + std::to_string(want) +
              ", computed " + std::to_string(got) + "): the header is corrupt";
    return r;
  }
  FileHeader h;
  h.major = load_u16le(bytes + 8);
  h.minor = load_u16le(bytes + 10);
  h.header_size = load_u32le(bytes + 12);
  h.flags = load_u32le(bytes + 16);
  const std::string version = std::to_string(h.major) + "." + std::to_string(h.minor);
  if (h.major > kFormatMajor) {
    r.error = "written with trace format " + version + ", newer than this reader understands (" +
              std::to_string(kFormatMajor) + ".x); use a newer legate_prof";
    return r;
  }
  if (h.major == 0) {
    r.error = "invalid trace format version " + version + " at offset 8";
    return r;
  }
  if (h.header_size < kFileHeaderSize || h.header_size > 4096) {
    r.error = "invalid file header size " + std::to_string(h.header_size) +
              " at offset 12 (expected 32 to 4096)";
    return r;
  }
  r.header = h;
  return r;
}

void encode_frame_header(const FrameHeader& h, uint8_t out[kFrameHeaderSize]) {
  std::memcpy(out, kFrameMagic, 4);
  out[4] = static_cast<uint8_t>(h.type);
  out[5] = static_cast<uint8_t>(h.compression);
  store_u16(out + 6, h.flags);
  store_u32(out + 8, h.stored_size);
  store_u32(out + 12, h.raw_size);
  store_u32(out + 16, h.record_count);
  store_u32(out + 20, h.sequence);
  store_u64(out + 24, static_cast<uint64_t>(h.t_min));
  store_u64(out + 32, static_cast<uint64_t>(h.t_max));
  store_u32(out + 40, h.payload_crc);
  store_u32(out + 44, crc32_of(out, 44));
}

bool decode_frame_header(const uint8_t in[kFrameHeaderSize], FrameHeader& h, std::string& error) {
  if (std::memcmp(in, kFrameMagic, 4) != 0) {
    error = "expected a frame header (\"LGCK\"), found " + describe_bytes(in, 4);
    return false;
  }
  if (load_u32le(in + 44) != crc32_of(in, 44)) {
    error = "frame header checksum mismatch";
    return false;
  }
  h.type = static_cast<FrameType>(in[4]);
  h.compression = static_cast<Compression>(in[5]);
  h.flags = load_u16le(in + 6);
  h.stored_size = load_u32le(in + 8);
  h.raw_size = load_u32le(in + 12);
  h.record_count = load_u32le(in + 16);
  h.sequence = load_u32le(in + 20);
  h.t_min = static_cast<Time>(load_u64le(in + 24));
  h.t_max = static_cast<Time>(load_u64le(in + 32));
  h.payload_crc = load_u32le(in + 40);
  if (h.raw_size > kMaxRawFrameBytes) {
    error = "frame claims " + std::to_string(h.raw_size) +
            " bytes decompressed, over the limit of " + std::to_string(kMaxRawFrameBytes);
    return false;
  }
  if (h.stored_size > kMaxRawFrameBytes + (kMaxRawFrameBytes >> 7) + 4096) {
    error = "frame claims " + std::to_string(h.stored_size) + " stored bytes, over the limit";
    return false;
  }
  return true;
}

void encode_trailer(uint64_t footer_offset, uint8_t out[kTrailerSize]) {
  store_u64(out, footer_offset);
  std::memcpy(out + 8, kTrailerMagic, 8);
}

std::optional<uint64_t> decode_trailer(const uint8_t in[kTrailerSize]) {
  if (std::memcmp(in + 8, kTrailerMagic, 8) != 0) return std::nullopt;
  return load_u64le(in);
}

}  // namespace legato::trace

// The container: file header, frame headers and trailer (FORMAT.md,
// "Container"). All integers are little-endian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "trace_format/records.hpp"

namespace legato::trace {

inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 0;

inline constexpr char kFileMagic[8] = {'L', 'G', 'T', 'O', 'P', 'R', 'O', 'F'};
inline constexpr size_t kFileHeaderSize = 32;
inline constexpr char kFrameMagic[4] = {'L', 'G', 'C', 'K'};
inline constexpr size_t kFrameHeaderSize = 48;
inline constexpr char kTrailerMagic[8] = {'L', 'G', 'T', 'O', 'E', 'N', 'D', '\n'};
inline constexpr size_t kTrailerSize = 16;

// Limits every reader enforces before trusting a size field.
inline constexpr uint32_t kMaxRawFrameBytes = 16u << 20;
inline constexpr int kMaxMetadataDepth = 64;

enum class FrameType : uint8_t { Metadata = 1, Events = 2, Footer = 3 };
enum class Compression : uint8_t { None = 0, Zstd = 1 };

struct FileHeader {
  uint16_t major = kFormatMajor;
  uint16_t minor = kFormatMinor;
  uint32_t header_size = kFileHeaderSize;
  uint32_t flags = 0;
};

struct FrameHeader {
  FrameType type = FrameType::Events;
  Compression compression = Compression::Zstd;
  uint16_t flags = 0;
  uint32_t stored_size = 0;   // bytes after the header
  uint32_t raw_size = 0;      // bytes after decompression
  uint32_t record_count = 0;  // records in the frame (events, footer)
  uint32_t sequence = 0;      // 0, 1, 2... over all frames of the file
  Time t_min = 0;             // time range of the records (events)
  Time t_max = 0;
  uint32_t payload_crc = 0;  // CRC-32 (zlib) of the stored bytes
};

// Serialisation. encode_* write exactly the fixed size into out.
void encode_file_header(const FileHeader& h, uint8_t out[kFileHeaderSize]);
void encode_frame_header(const FrameHeader& h, uint8_t out[kFrameHeaderSize]);
void encode_trailer(uint64_t footer_offset, uint8_t out[kTrailerSize]);

// Parsing. On failure the string says what was expected; nothing is thrown.
struct FileHeaderResult {
  std::optional<FileHeader> header;
  std::string error;
};
FileHeaderResult decode_file_header(const uint8_t* bytes, size_t size);
// Checks magic, header CRC and field sanity (type, compression, size limits).
bool decode_frame_header(const uint8_t in[kFrameHeaderSize], FrameHeader& out, std::string& error);
std::optional<uint64_t> decode_trailer(const uint8_t in[kTrailerSize]);

uint32_t crc32_of(const void* data, size_t size);
std::string_view to_string(FrameType t);

}  // namespace legato::trace

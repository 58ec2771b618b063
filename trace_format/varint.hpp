// LEB128 varints, zigzag signed mapping and little-endian fixed-width helpers:
// the byte-level vocabulary of the .prof format (FORMAT.md, "Encodings").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace legato::trace {

inline uint64_t zigzag_encode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t zigzag_decode(uint64_t u) {
  return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
}

// The longest LEB128 encoding of a 64-bit value.
inline constexpr size_t kMaxVarintBytes = 10;

// A growable byte buffer with cheap appends; the encoder's output type.
class ByteBuffer {
 public:
  const uint8_t* data() const { return bytes_.data(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (bytes_.size() < n) bytes_.resize(n);
  }

  void put_varint(uint64_t v) {
    ensure(kMaxVarintBytes);
    uint8_t* p = bytes_.data() + size_;
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v) | 0x80;
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    size_ = static_cast<size_t>(p - bytes_.data());
  }
  void put_u8(uint8_t v) { append(&v, 1); }
  void append(const void* src, size_t n) {
    if (n == 0) return;
    ensure(n);
    std::memcpy(bytes_.data() + size_, src, n);
    size_ += n;
  }
  void append(const ByteBuffer& other) { append(other.data(), other.size()); }
  // Makes room for n bytes and returns where they go; commit() records them.
  uint8_t* grow(size_t n) {
    ensure(n);
    return bytes_.data() + size_;
  }
  void commit(size_t n) { size_ += n; }

 private:
  void ensure(size_t n) {
    if (size_ + n > bytes_.size()) bytes_.resize(std::max<size_t>(64, 2 * (size_ + n)));
  }

  std::vector<uint8_t> bytes_;
  size_t size_ = 0;
};

// Reads one varint from [p, end). Returns false on a truncated or over-long
// encoding (more than ten bytes, or bits beyond 64), leaving p unspecified.
inline bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    const uint8_t b = *p++;
    if (shift == 63 && b > 1) return false;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) {
      out = v;
      return true;
    }
  }
  return false;
}

inline uint16_t load_u16le(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
inline uint32_t load_u32le(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
inline uint64_t load_u64le(const uint8_t* p) {
  return static_cast<uint64_t>(load_u32le(p)) | (static_cast<uint64_t>(load_u32le(p + 4)) << 32);
}

}  // namespace legato::trace

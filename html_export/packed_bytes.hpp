// Growing byte buffers of LEB128 varints ("svarint": zigzag-encoded signed
// ones), the encoding of every packed column of the report.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace legato::html {

// A signed value as an unsigned one, small magnitudes small: 0, -1, 1, -2...
inline uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

inline void append_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// A packed column's bytes. A varint costs one check for room, where
// std::string::push_back checks each byte: a 10 M-record run's report packs
// about 80 M of them.
class Bytes {
 public:
  void varint(uint64_t v) {
    if (static_cast<size_t>(cap_ - end_) < 10) grow();
    while (v >= 0x80) {
      *end_++ = static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    *end_++ = static_cast<char>(v);
  }
  void svarint(int64_t v) { varint(zigzag(v)); }
  void byte(char c) {
    if (end_ == cap_) grow();
    *end_++ = c;
  }
  size_t size() const { return static_cast<size_t>(end_ - buf_.get()); }
  const char* data() const { return buf_.get(); }

 private:
  void grow() {
    const size_t used = size();
    const size_t room = std::max<size_t>(4096, 2 * static_cast<size_t>(cap_ - buf_.get()));
    std::unique_ptr<char[]> bigger(new char[room]);
    if (used > 0) std::memcpy(bigger.get(), buf_.get(), used);
    buf_ = std::move(bigger);
    end_ = buf_.get() + used;
    cap_ = buf_.get() + room;
  }
  std::unique_ptr<char[]> buf_;
  char* end_ = nullptr;
  char* cap_ = nullptr;
};

// A packed part of the report: u32 little-endian length of a JSON header,
// the header, the number of columns, each column's byte length, then the
// columns one after the other.
template <size_t N>
std::string pack_part(const std::string& json, const Bytes (&col)[N]) {
  std::string out;
  size_t total = json.size() + 8 + 10 * N;
  for (const auto& c : col) total += c.size();
  out.reserve(total);
  const auto n = static_cast<uint32_t>(json.size());
  for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
  out += json;
  append_varint(out, N);
  for (const auto& c : col) append_varint(out, c.size());
  for (const auto& c : col) {
    if (c.size() > 0) out.append(c.data(), c.size());
  }
  return out;
}

}  // namespace legato::html

#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "trace_format/varint.hpp"

using namespace legato::trace;

TEST_CASE("zigzag maps signed values to small unsigned ones and back", "[varint]") {
  CHECK(zigzag_encode(0) == 0);
  CHECK(zigzag_encode(-1) == 1);
  CHECK(zigzag_encode(1) == 2);
  CHECK(zigzag_encode(std::numeric_limits<int64_t>::max()) ==
        std::numeric_limits<uint64_t>::max() - 1);
  CHECK(zigzag_encode(std::numeric_limits<int64_t>::min()) == std::numeric_limits<uint64_t>::max());
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const auto v = static_cast<int64_t>(rng());
    CHECK(zigzag_decode(zigzag_encode(v)) == v);
  }
}

TEST_CASE("varints round-trip every bit width", "[varint]") {
  ByteBuffer buf;
  std::vector<uint64_t> values = {
      0, 1, 127, 128, 16383, 16384, std::numeric_limits<uint64_t>::max()};
  for (int bits = 0; bits < 64; ++bits) values.push_back((uint64_t{1} << bits) - 1);
  for (uint64_t v : values) buf.put_varint(v);
  const uint8_t* p = buf.data();
  const uint8_t* end = p + buf.size();
  for (uint64_t v : values) {
    uint64_t got = 0;
    REQUIRE(get_varint(p, end, got));
    CHECK(got == v);
  }
  CHECK(p == end);
}

TEST_CASE("varint decoding rejects truncated and over-long encodings", "[varint]") {
  uint64_t v = 0;
  const uint8_t truncated[] = {0x80, 0x80};
  const uint8_t* p = truncated;
  CHECK_FALSE(get_varint(p, truncated + 2, v));

  const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  p = eleven;
  CHECK_FALSE(get_varint(p, eleven + sizeof eleven, v));

  // The tenth byte may only carry bit 63.
  const uint8_t too_big[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  p = too_big;
  CHECK_FALSE(get_varint(p, too_big + sizeof too_big, v));

  const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  p = max;
  REQUIRE(get_varint(p, max + sizeof max, v));
  CHECK(v == std::numeric_limits<uint64_t>::max());

  p = max;
  CHECK_FALSE(get_varint(p, max, v));  // empty input
}

// The report's data compression: gzip streams that an independent inflater
// (zlib) reads back byte for byte, whatever the data.
#include <zlib.h>

#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "html_export/gzip.hpp"

using namespace legato;

namespace {

// zlib's inflate of a whole gzip stream (windowBits 15 + 16); fails the
// test on a stream it cannot read to its end.
std::string gunzip(const std::string& in, size_t size) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 15 + 16) == Z_OK);
  std::string out(size + 1, '\0');  // room for one byte too many
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  out.resize(z.total_out);
  const uLong left = z.avail_in;
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  CHECK(left == 0);  // nothing after the stream
  return out;
}

}  // namespace

TEST_CASE("report data compresses to a gzip stream that inflates to the same bytes",
          "[html][gzip]") {
  std::mt19937_64 rng(11);
  std::string text, noise(3 << 20, '\0');
  while (text.size() < (5u << 20)) text += "BinaryOpTask c" + std::to_string(rng() % 8) + " ";
  for (char& c : noise) c = static_cast<char>(rng());
  for (const std::string* in : {&text, &noise}) {
    const std::string z = html::gzip(*in);
    REQUIRE(z.size() > 18);
    CHECK(static_cast<unsigned char>(z[0]) == 0x1f);  // the gzip magic
    CHECK(static_cast<unsigned char>(z[1]) == 0x8b);
    CHECK(gunzip(z, in->size()) == *in);
    if (in == &text) CHECK(z.size() < in->size() / 10);
    // Random bytes do not compress: the output outgrew its first guess (half).
    if (in == &noise) CHECK(z.size() > in->size() / 2);
  }
  CHECK(gunzip(html::gzip(""), 0).empty());
}

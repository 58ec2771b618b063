// FORMAT.md is the contract for independent readers: its column tables must
// say exactly what the code writes. This test renders each record kind's
// table from the schema and looks for it, verbatim, in FORMAT.md.
// LEGATO_PRINT_SCHEMA=1 prints the tables (to paste after a schema change).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "trace_format/records.hpp"

using namespace legato::trace;

namespace {

template <class M>
std::string type_name() {
  if constexpr (std::is_same_v<M, std::string>)
    return "text";
  else if constexpr (std::is_enum_v<M>)
    return "u" + std::to_string(8 * sizeof(M)) + " enum";
  else if constexpr (std::is_signed_v<M>)
    return "i" + std::to_string(8 * sizeof(M));
  else
    return "u" + std::to_string(8 * sizeof(M));
}

std::string codec_name(ColumnCodec c) {
  switch (c.codec) {
    case Codec::Raw:
      return "raw";
    case Codec::Delta:
      return "delta";
    case Codec::SameRow:
      return "same_row(" + std::to_string(c.ref) + ")";
    case Codec::PrevRow:
      return "prev_row(" + std::to_string(c.ref) + ")";
    case Codec::Bytes:
      return "bytes(" + std::to_string(c.ref) + ")";
  }
  return "?";
}

std::string role_name(Role r) {
  switch (r) {
    case Role::Value:
      return "-";
    case Role::Time:
      return "time (ns)";
    case Role::String:
      return "string id";
    case Role::Item:
      return "item uid";
    case Role::Enum:
      return "enum";
  }
  return "?";
}

template <class R>
std::string table() {
  std::ostringstream out;
  out << "| col | field | type | codec | role |\n|---|---|---|---|---|\n";
  for_each_field<R>([&](const auto& f, auto idx) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    constexpr size_t c = kColumnStart<R>[decltype(idx)::value];
    if constexpr (std::is_same_v<M, std::string>) {
      out << "| " << c << " | " << f.name << " (length) | u64 | raw | - |\n";
      out << "| " << c + 1 << " | " << f.name << " (bytes) | text | "
          << codec_name(kColumnCodecs<R>[c + 1]) << " | - |\n";
    } else {
      out << "| " << c << " | " << f.name << " | " << type_name<M>() << " | "
          << codec_name(kColumnCodecs<R>[c]) << " | " << role_name(f.role) << " |\n";
    }
  });
  return out.str();
}

}  // namespace

TEST_CASE("FORMAT.md documents every record kind as the code lays it out", "[doc]") {
  const char* src = LEGATO_SOURCE_DIR;
  std::ifstream in(std::string(src) + "/trace_format/FORMAT.md");
  REQUIRE(in.good());
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const bool print = std::getenv("LEGATO_PRINT_SCHEMA") != nullptr;
  for_each_record_type([&](auto t) {
    using R = typename decltype(t)::type;
    const std::string heading = "#### " + std::string(R::kName) + " (kind " +
                                std::to_string(static_cast<uint32_t>(R::kKind)) + ")";
    const std::string tbl = table<R>();
    if (print) std::cout << heading << "\n\n" << tbl << "\n";
    INFO(heading << "\n" << tbl);
    CHECK(doc.find(heading) != std::string::npos);
    CHECK(doc.find(tbl) != std::string::npos);
  });
}

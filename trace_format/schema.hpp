// How a record type maps onto the columns of a section (FORMAT.md, "Sections
// and columns"). Every record struct lists its fields once, with the codec of
// each column; the encoder, the decoder, `legate_prof dump` and the tests are
// all driven by that one list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace legato::trace {

// How a column's values are stored. Differences are taken modulo 2^64 and
// written as zigzag varints; Raw values as plain varints.
enum class Codec : uint8_t {
  Raw = 0,      // v
  Delta = 1,    // v - (same column, previous row), 0 before the first row
  SameRow = 2,  // v - (column `ref`, this row); ref must be an earlier column
  PrevRow = 3,  // v - (column `ref`, previous row), 0 before the first row
  Bytes = 4,    // raw bytes; column `ref` (earlier, integer) holds each row's length
};
inline constexpr uint8_t kMaxCodec = 4;
// The most columns a section may have.
inline constexpr size_t kMaxColumns = 255;

struct ColumnCodec {
  Codec codec = Codec::Raw;
  uint8_t ref = 0;
  constexpr bool has_ref() const { return codec >= Codec::SameRow; }
  bool operator==(const ColumnCodec&) const = default;
};
constexpr ColumnCodec raw() {
  return {Codec::Raw, 0};
}
constexpr ColumnCodec delta() {
  return {Codec::Delta, 0};
}
constexpr ColumnCodec same_row(uint8_t ref) {
  return {Codec::SameRow, ref};
}
constexpr ColumnCodec prev_row(uint8_t ref) {
  return {Codec::PrevRow, ref};
}

// What a field means, for tools that interpret values generically.
enum class Role : uint8_t {
  Value,   // a count, size or id with no further meaning
  Time,    // nanoseconds since the run's zero time (signed)
  String,  // a string id (see StringRecord); 0 is the empty string
  Item,    // an item uid (task, copy, instance...); 0 is "none"
  Enum,    // one of the enumerations in records.hpp
};

template <class R, class M>
struct Field {
  using record_type = R;
  using member_type = M;
  std::string_view name;
  M R::*member;
  ColumnCodec codec;
  Role role;
  constexpr Field(std::string_view n, M R::*m, ColumnCodec c = raw(), Role r = Role::Value)
      : name(n), member(m), codec(c), role(r) {}
};

template <class R>
inline constexpr auto kFields = R::fields();
template <class R>
inline constexpr size_t kFieldCount = std::tuple_size_v<std::remove_const_t<decltype(kFields<R>)>>;
template <class R, size_t I>
using FieldMember =
    typename std::tuple_element_t<I, std::remove_const_t<decltype(kFields<R>)>>::member_type;

// A text field takes two columns: its length (Raw) and its bytes (Bytes).
template <class M>
inline constexpr size_t kColumnsOf = std::is_same_v<M, std::string> ? 2 : 1;

namespace detail {
template <class R, size_t... I>
constexpr auto column_starts(std::index_sequence<I...>) {
  constexpr size_t widths[] = {kColumnsOf<FieldMember<R, I>>...};
  std::array<size_t, sizeof...(I) + 1> starts{};
  for (size_t i = 0; i < sizeof...(I); ++i) starts[i + 1] = starts[i] + widths[i];
  return starts;
}
}  // namespace detail

// starts[i] is the first column of field i; starts[kFieldCount] is the total.
template <class R>
inline constexpr auto kColumnStart =
    detail::column_starts<R>(std::make_index_sequence<kFieldCount<R>>{});
template <class R>
inline constexpr size_t kColumnCount = kColumnStart<R>[kFieldCount<R>];

namespace detail {
template <class R, size_t... I>
constexpr auto column_codecs(std::index_sequence<I...>) {
  std::array<ColumnCodec, kColumnCount<R>> codecs{};
  (
      [&] {
        constexpr size_t c = kColumnStart<R>[I];
        if constexpr (std::is_same_v<FieldMember<R, I>, std::string>) {
          codecs[c] = raw();
          codecs[c + 1] = ColumnCodec{Codec::Bytes, static_cast<uint8_t>(c)};
        } else {
          codecs[c] = std::get<I>(kFields<R>).codec;
        }
      }(),
      ...);
  return codecs;
}
}  // namespace detail

template <class R>
inline constexpr auto kColumnCodecs =
    detail::column_codecs<R>(std::make_index_sequence<kFieldCount<R>>{});

// Whether a record's codecs can be decoded row by row (refs point backwards
// for SameRow and Bytes, anywhere for PrevRow).
template <class R>
constexpr bool codecs_are_valid() {
  for (size_t c = 0; c < kColumnCount<R>; ++c) {
    const ColumnCodec k = kColumnCodecs<R>[c];
    if ((k.codec == Codec::SameRow || k.codec == Codec::Bytes) && k.ref >= c) return false;
    if (k.codec == Codec::PrevRow && k.ref >= kColumnCount<R>) return false;
  }
  return true;
}

// Integer <-> column value conversions. Signed values wrap to two's complement.
template <class M>
constexpr uint64_t to_column(const M& v) {
  if constexpr (std::is_enum_v<M>) {
    return static_cast<uint64_t>(static_cast<std::underlying_type_t<M>>(v));
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Returns false (and stores the truncated value) when u does not fit in M.
template <class M>
constexpr bool from_column(uint64_t u, M& out) {
  if constexpr (std::is_enum_v<M>) {
    using U = std::underlying_type_t<M>;
    out = static_cast<M>(static_cast<U>(u));
    return u <= std::numeric_limits<U>::max();
  } else if constexpr (std::is_same_v<M, bool>) {
    out = (u != 0);
    return u <= 1;
  } else if constexpr (std::is_signed_v<M> && sizeof(M) == 8) {
    out = static_cast<M>(u);
    return true;
  } else {
    out = static_cast<M>(u);
    return u <= std::numeric_limits<M>::max();
  }
}

// Calls f(field) for every field of R, in order, with its index as a constant.
template <class R, class F>
constexpr void for_each_field(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) {
    (f(std::get<I>(kFields<R>), std::integral_constant<size_t, I>{}), ...);
  }
  (std::make_index_sequence<kFieldCount<R>>{});
}

}  // namespace legato::trace

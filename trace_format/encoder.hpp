// Records -> the raw (uncompressed) payload of an events frame: one section
// per record kind, each a set of columns (FORMAT.md, "Sections and columns").
// Adding a record encodes it immediately into its columns, so a chunk's cost
// in memory is its encoded size.
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "trace_format/records.hpp"
#include "trace_format/varint.hpp"

namespace legato::trace {

// Writes a section header: kind, count, column count, then per column its
// codec, ref (for codecs that have one) and byte length.
void put_section_header(ByteBuffer& out, uint32_t kind, uint64_t count, const ColumnCodec* codecs,
                        const ByteBuffer* columns, size_t ncols);

template <class R>
class SectionEncoder {
 public:
  static constexpr size_t kCols = kColumnCount<R>;
  static constexpr RecordKind kKind = R::kKind;
  static_assert(codecs_are_valid<R>(), "a column refers to a column it cannot depend on");

  void add(const R& r) {
    uint64_t cur[kCols];
    for_each_field<R>([&](const auto& f, auto idx) {
      constexpr size_t c = kColumnStart<R>[decltype(idx)::value];
      using M = typename std::remove_cvref_t<decltype(f)>::member_type;
      if constexpr (std::is_same_v<M, std::string>) {
        const std::string& s = r.*(f.member);
        cur[c] = s.size();
        cols_[c + 1].append(s.data(), s.size());
      } else {
        cur[c] = to_column(r.*(f.member));
        if (f.role == Role::Time) {
          const Time t = static_cast<Time>(cur[c]);
          t_min_ = std::min(t_min_, t);
          t_max_ = std::max(t_max_, t);
        }
      }
    });
    [&]<size_t... C>(std::index_sequence<C...>) {
      (put_column<C>(cur), ...);
    }
    (std::make_index_sequence<kCols>{});
    std::copy(cur, cur + kCols, prev_);
    ++count_;
  }

  uint64_t count() const { return count_; }
  size_t encoded_bytes() const {
    size_t n = 0;
    for (const auto& c : cols_) n += c.size();
    return n;
  }
  Time t_min() const { return t_min_; }
  Time t_max() const { return t_max_; }
  bool has_times() const { return t_min_ <= t_max_; }

  // Appends the section (if any records) to out and starts a new one.
  void finish(ByteBuffer& out) {
    if (count_ == 0) return;
    put_section_header(out, static_cast<uint32_t>(R::kKind), count_, kColumnCodecs<R>.data(),
                       cols_.data(), kCols);
    for (const auto& c : cols_) out.append(c);
    reset();
  }
  void reset() {
    for (auto& c : cols_) c.clear();
    std::fill(prev_, prev_ + kCols, 0);
    count_ = 0;
    t_min_ = std::numeric_limits<Time>::max();
    t_max_ = std::numeric_limits<Time>::min();
  }

 private:
  template <size_t C>
  void put_column(const uint64_t* cur) {
    constexpr ColumnCodec k = kColumnCodecs<R>[C];
    if constexpr (k.codec == Codec::Raw) {
      cols_[C].put_varint(cur[C]);
    } else if constexpr (k.codec == Codec::Delta) {
      cols_[C].put_varint(zigzag_encode(static_cast<int64_t>(cur[C] - prev_[C])));
    } else if constexpr (k.codec == Codec::SameRow) {
      cols_[C].put_varint(zigzag_encode(static_cast<int64_t>(cur[C] - cur[k.ref])));
    } else if constexpr (k.codec == Codec::PrevRow) {
      cols_[C].put_varint(zigzag_encode(static_cast<int64_t>(cur[C] - prev_[k.ref])));
    }  // Bytes columns were filled with the field.
  }

  std::array<ByteBuffer, kCols> cols_;
  uint64_t prev_[kCols] = {};
  uint64_t count_ = 0;
  Time t_min_ = std::numeric_limits<Time>::max();
  Time t_max_ = std::numeric_limits<Time>::min();
};

template <class Tuple>
struct SectionEncodersOf;
template <class... R>
struct SectionEncodersOf<std::tuple<R...>> {
  using type = std::tuple<SectionEncoder<R>...>;
};

// Collects records of every kind for one events frame.
class ChunkEncoder {
 public:
  template <class R>
  void add(const R& r) {
    std::get<SectionEncoder<R>>(sections_).add(r);
    ++records_;
  }

  uint64_t records() const { return records_; }
  bool empty() const { return records_ == 0; }
  // The payload size so far (sums the columns; call it every few hundred records).
  size_t encoded_bytes() const;
  // The time range of the records added since the last finish (0,0 if none).
  std::pair<Time, Time> time_range() const;

  // Calls f(kind, count) for every kind with records in this chunk.
  template <class F>
  void for_each_count(F&& f) const {
    std::apply(
        [&](const auto&... s) {
          ((s.count() ? f(static_cast<uint32_t>(std::remove_cvref_t<decltype(s)>::kKind), s.count())
                      : void()),
           ...);
        },
        sections_);
  }

  // Appends the payload to out and starts an empty chunk.
  void finish(ByteBuffer& out);

 private:
  SectionEncodersOf<AllRecordTypes>::type sections_;
  uint64_t records_ = 0;
};

}  // namespace legato::trace

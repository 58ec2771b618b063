#include "trace_format/decoder.hpp"

#include <array>
#include <cstring>

#include "trace_format/varint.hpp"

namespace legato::trace {
namespace {

struct Column {
  ColumnCodec codec;
  const uint8_t* p = nullptr;
  const uint8_t* end = nullptr;
};

struct Section {
  uint32_t kind = 0;
  uint64_t count = 0;
  std::vector<Column> cols;
  const uint8_t* end = nullptr;  // first byte after the section
};

struct Failure {
  std::string what;
  const uint8_t* where;
};

// Most values take one or two bytes; longer ones go the general way.
[[gnu::always_inline]] inline bool read_varint(Column& c, uint64_t& v) {
  const uint8_t* p = c.p;
  if (c.end - p >= 2) [[likely]] {
    if (p[0] < 0x80) {
      v = p[0];
      c.p = p + 1;
      return true;
    }
    if (p[1] < 0x80) {
      v = (p[0] & 0x7fu) | (static_cast<uint64_t>(p[1]) << 7);
      c.p = p + 2;
      return true;
    }
  }
  return get_varint(c.p, c.end, v);
}

std::string kind_label(uint32_t kind) {
  std::string_view n = to_string(static_cast<RecordKind>(kind));
  return n == "unknown" ? "kind " + std::to_string(kind) : std::string(n);
}

// Parses a section header and sets up one cursor per column.
bool parse_section(const uint8_t*& p, const uint8_t* end, Section& s, Failure& fail) {
  const uint8_t* start = p;
  uint64_t kind = 0, count = 0, ncols = 0;
  if (!get_varint(p, end, kind) || !get_varint(p, end, count) || !get_varint(p, end, ncols)) {
    fail = {"section header is truncated or holds an invalid varint", start};
    return false;
  }
  if (kind > 0xffffffffu) {
    fail = {"section kind " + std::to_string(kind) + " is out of range", start};
    return false;
  }
  s.kind = static_cast<uint32_t>(kind);
  s.count = count;
  if (ncols == 0 || ncols > kMaxColumns) {
    fail = {"section (" + kind_label(s.kind) + ") has " + std::to_string(ncols) +
                " columns; expected 1 to " + std::to_string(kMaxColumns),
            start};
    return false;
  }
  s.cols.assign(ncols, Column{});
  std::array<uint64_t, kMaxColumns> lens{};
  for (size_t c = 0; c < ncols; ++c) {
    const uint8_t* at = p;
    if (p >= end) {
      fail = {"section header is truncated in column " + std::to_string(c), at};
      return false;
    }
    const uint8_t codec = *p++;
    if (codec > kMaxCodec) {
      fail = {"column " + std::to_string(c) + " has unknown codec " + std::to_string(codec), at};
      return false;
    }
    ColumnCodec k{static_cast<Codec>(codec), 0};
    if (k.has_ref()) {
      uint64_t ref = 0;
      if (!get_varint(p, end, ref)) {
        fail = {"column " + std::to_string(c) + " reference is truncated", at};
        return false;
      }
      const bool backwards_only = k.codec != Codec::PrevRow;
      if ((backwards_only && ref >= c) || ref >= ncols ||
          (k.codec == Codec::Bytes && s.cols[ref].codec.codec == Codec::Bytes)) {
        fail = {"column " + std::to_string(c) + " refers to column " + std::to_string(ref) +
                    ", which it cannot depend on",
                at};
        return false;
      }
      k.ref = static_cast<uint8_t>(ref);
    }
    if (!get_varint(p, end, lens[c])) {
      fail = {"column " + std::to_string(c) + " length is truncated", at};
      return false;
    }
    s.cols[c].codec = k;
  }
  const uint64_t avail = static_cast<uint64_t>(end - p);
  uint64_t total = 0;
  for (size_t c = 0; c < ncols; ++c) {
    if (lens[c] > avail - total) {
      fail = {"section (" + kind_label(s.kind) + ") columns claim more bytes than the " +
                  std::to_string(avail) + " remaining in the frame",
              start};
      return false;
    }
    s.cols[c].p = p + total;
    s.cols[c].end = p + total + lens[c];
    total += lens[c];
  }
  // Column 0 holds one varint (at least one byte) per record.
  if (count > lens[0]) {
    fail = {"section (" + kind_label(s.kind) + ") claims " + std::to_string(count) +
                " records but its first column has only " + std::to_string(lens[0]) + " bytes",
            start};
    return false;
  }
  p += total;
  s.end = p;
  return true;
}

// One row of integer columns under run-time codecs.
inline bool read_row(Section& s, const uint64_t* prev, uint64_t* cur) {
  const size_t n = s.cols.size();
  for (size_t c = 0; c < n; ++c) {
    Column& col = s.cols[c];
    uint64_t v = 0;
    switch (col.codec.codec) {
      case Codec::Raw:
        if (!read_varint(col, v)) return false;
        cur[c] = v;
        break;
      case Codec::Delta:
        if (!read_varint(col, v)) return false;
        cur[c] = prev[c] + static_cast<uint64_t>(zigzag_decode(v));
        break;
      case Codec::SameRow:
        if (!read_varint(col, v)) return false;
        cur[c] = cur[col.codec.ref] + static_cast<uint64_t>(zigzag_decode(v));
        break;
      case Codec::PrevRow:
        if (!read_varint(col, v)) return false;
        cur[c] = prev[col.codec.ref] + static_cast<uint64_t>(zigzag_decode(v));
        break;
      case Codec::Bytes:
        cur[c] = 0;
        break;
    }
  }
  return true;
}

// The same under the codecs compiled in for R (the common case).
template <class R, size_t C>
inline bool read_column(Section& s, const uint64_t* prev, uint64_t* cur) {
  constexpr ColumnCodec k = kColumnCodecs<R>[C];
  if constexpr (k.codec == Codec::Bytes) {
    return true;
  } else {
    uint64_t v = 0;
    if (!read_varint(s.cols[C], v)) return false;
    if constexpr (k.codec == Codec::Raw) {
      cur[C] = v;
    } else if constexpr (k.codec == Codec::Delta) {
      cur[C] = prev[C] + static_cast<uint64_t>(zigzag_decode(v));
    } else if constexpr (k.codec == Codec::SameRow) {
      cur[C] = cur[k.ref] + static_cast<uint64_t>(zigzag_decode(v));
    } else {
      cur[C] = prev[k.ref] + static_cast<uint64_t>(zigzag_decode(v));
    }
    return true;
  }
}

// Stores one row's values into a record; fields whose columns the section
// lacks (an older writer) keep their defaults.
template <class R>
bool assign(R& r, const uint64_t* cur, Section& s, DecodeResult& res) {
  bool ok = true;
  const size_t ncols = s.cols.size();
  for_each_field<R>([&](const auto& f, auto idx) {
    constexpr size_t c = kColumnStart<R>[decltype(idx)::value];
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    if (c >= ncols) return;
    if constexpr (std::is_same_v<M, std::string>) {
      Column& b = s.cols[c + 1];
      if (cur[c] > static_cast<uint64_t>(b.end - b.p)) {
        ok = false;
        return;
      }
      (r.*(f.member)).assign(reinterpret_cast<const char*>(b.p), cur[c]);
      b.p += cur[c];
    } else if (!from_column(cur[c], r.*(f.member))) {
      if (res.out_of_range++ == 0) {
        res.out_of_range_field = std::string(R::kName) + "." + std::string(f.name);
      }
    }
  });
  return ok;
}

// Whether the section's columns can hold R's fields: text fields need a
// length column followed by its Bytes column, other fields integer columns.
template <class R>
bool layout_fits(const Section& s) {
  bool fits = true;
  const size_t ncols = s.cols.size();
  for_each_field<R>([&](const auto& f, auto idx) {
    constexpr size_t c = kColumnStart<R>[decltype(idx)::value];
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    (void)f;
    if (c >= ncols) return;
    if (s.cols[c].codec.codec == Codec::Bytes) fits = false;
    if constexpr (std::is_same_v<M, std::string>) {
      fits = fits && c + 1 < ncols && s.cols[c + 1].codec.codec == Codec::Bytes &&
             s.cols[c + 1].codec.ref == c;
    }
  });
  return fits;
}

template <class R>
bool codecs_match(const Section& s) {
  if (s.cols.size() != kColumnCount<R>) return false;
  for (size_t c = 0; c < kColumnCount<R>; ++c) {
    const ColumnCodec a = s.cols[c].codec, b = kColumnCodecs<R>[c];
    if (a.codec != b.codec || (a.has_ref() && a.ref != b.ref)) return false;
  }
  return true;
}

// Every column must be read to its end (extra Bytes columns of a newer
// writer are not read and not checked).
bool fully_read(const Section& s, size_t known_cols, Failure& fail) {
  for (size_t c = 0; c < s.cols.size(); ++c) {
    const Column& col = s.cols[c];
    if (col.codec.codec == Codec::Bytes && c >= known_cols) continue;
    if (col.p != col.end) {
      fail = {"section (" + kind_label(s.kind) + ") column " + std::to_string(c) + " has " +
                  std::to_string(col.end - col.p) + " bytes left after its " +
                  std::to_string(s.count) + " records",
              col.p};
      return false;
    }
  }
  return true;
}

// Decodes every row; kFast when the section's codecs are the compiled-in ones.
// Returns the index of the row that failed, or s.count.
template <class R, bool kFast>
uint64_t decode_rows(Section& s, std::vector<R>& out, DecodeResult& res) {
  constexpr size_t K = kColumnCount<R>;
  const size_t ncols = kFast ? K : s.cols.size();
  std::array<uint64_t, kFast ? K : kMaxColumns> prev{}, cur{};
  for (uint64_t i = 0; i < s.count; ++i) {
    bool ok;
    if constexpr (kFast) {
      ok = [&]<size_t... C>(std::index_sequence<C...>) {
        return (read_column<R, C>(s, prev.data(), cur.data()) && ...);
      }
      (std::make_index_sequence<K>{});
    } else {
      ok = read_row(s, prev.data(), cur.data());
    }
    if (!ok || !assign(out.emplace_back(), cur.data(), s, res)) return i;
    std::copy(cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(ncols), prev.begin());
  }
  return s.count;
}

template <class R>
bool decode_known(Section& s, std::vector<R>& out, DecodeResult& res, Failure& fail) {
  if (!layout_fits<R>(s)) {
    fail = {"section (" + std::string(R::kName) + ") columns do not match the record's fields",
            s.cols[0].p};
    return false;
  }
  const size_t before = out.size();
  out.reserve(before + s.count);
  const uint64_t stop =
      codecs_match<R>(s) ? decode_rows<R, true>(s, out, res) : decode_rows<R, false>(s, out, res);
  const bool ok = stop == s.count;
  if (!ok) {
    fail = {"section (" + std::string(R::kName) +
                ") data ends early or holds an invalid varint in record " + std::to_string(stop) +
                " of " + std::to_string(s.count),
            s.cols[0].p};
  }
  if (ok && fully_read(s, std::min(s.cols.size(), kColumnCount<R>), fail)) return true;
  out.resize(before);
  return false;
}

bool decode_unknown(Section& s, UnknownSection& out, Failure& fail) {
  const size_t n = s.cols.size();
  out.kind = s.kind;
  out.count = s.count;
  out.columns.assign(n, UnknownSection::Column{});
  std::vector<uint64_t> byte_totals(n, 0);
  std::array<uint64_t, kMaxColumns> prev{}, cur{};
  for (size_t c = 0; c < n; ++c) {
    out.columns[c].codec = s.cols[c].codec;
    if (s.cols[c].codec.codec != Codec::Bytes) out.columns[c].values.reserve(s.count);
  }
  for (uint64_t i = 0; i < s.count; ++i) {
    if (!read_row(s, prev.data(), cur.data())) {
      fail = {"section (" + kind_label(s.kind) + ") data ends early in record " + std::to_string(i),
              s.cols[0].p};
      return false;
    }
    for (size_t c = 0; c < n; ++c) {
      const ColumnCodec k = s.cols[c].codec;
      if (k.codec == Codec::Bytes) {
        const uint64_t avail = static_cast<uint64_t>(s.cols[c].end - s.cols[c].p);
        if (cur[k.ref] > avail - byte_totals[c]) {
          fail = {"section (" + kind_label(s.kind) + ") record " + std::to_string(i) +
                      " claims more bytes than its bytes column holds",
                  s.cols[c].p};
          return false;
        }
        byte_totals[c] += cur[k.ref];
      } else {
        out.columns[c].values.push_back(cur[c]);
      }
    }
    std::copy(cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(n), prev.begin());
  }
  for (size_t c = 0; c < n; ++c) {
    Column& col = s.cols[c];
    if (col.codec.codec != Codec::Bytes) continue;
    if (byte_totals[c] != static_cast<uint64_t>(col.end - col.p)) {
      fail = {"section (" + kind_label(s.kind) + ") bytes column " + std::to_string(c) +
                  " does not match its lengths",
              col.p};
      return false;
    }
    const std::vector<uint64_t>& lens = out.columns[col.codec.ref].values;
    out.columns[c].texts.reserve(lens.size());
    for (uint64_t len : lens) {
      out.columns[c].texts.emplace_back(reinterpret_cast<const char*>(col.p), len);
      col.p += len;
    }
  }
  return fully_read(s, n, fail);
}

}  // namespace

DecodeResult decode_payload(const uint8_t* data, size_t size, RecordBatch& batch, KindSet kinds) {
  DecodeResult res;
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  Section s;
  while (p < end) {
    Failure fail{"", p};
    bool ok = parse_section(p, end, s, fail);
    const bool wanted = s.kind < 64 ? (kinds >> s.kind) & 1 : kinds == kAllKinds;
    if (ok && wanted) {
      bool known = false;
      for_each_record_type([&](auto type) {
        using R = typename decltype(type)::type;
        if (known || s.kind != static_cast<uint32_t>(R::kKind)) return;
        known = true;
        ok = decode_known<R>(s, batch.get<R>(), res, fail);
      });
      if (!known) {
        ++res.unknown_sections;
        batch.unknown.emplace_back();
        ok = decode_unknown(s, batch.unknown.back(), fail);
        if (!ok) batch.unknown.pop_back();
      }
    }
    if (!ok) {
      res.ok = false;
      res.error = fail.what;
      res.error_offset = static_cast<size_t>(fail.where - data);
      return res;
    }
    res.sections_end = static_cast<size_t>(p - data);
  }
  return res;
}

}  // namespace legato::trace

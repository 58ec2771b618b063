// Decoded records of one frame, grouped by kind (in file order within a kind).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "trace_format/records.hpp"

namespace legato::trace {

// A section of a kind this reader does not know (written by a newer minor
// version), kept as plain columns so tools can still show it.
struct UnknownSection {
  struct Column {
    ColumnCodec codec;
    std::vector<uint64_t> values;    // decoded values (integer columns)
    std::vector<std::string> texts;  // each row's bytes (Bytes columns)
    bool operator==(const Column&) const = default;
  };
  uint32_t kind = 0;
  uint64_t count = 0;
  std::vector<Column> columns;
  bool operator==(const UnknownSection&) const = default;
};

template <class Tuple>
struct VectorsOf;
template <class... R>
struct VectorsOf<std::tuple<R...>> {
  using type = std::tuple<std::vector<R>...>;
};

class RecordBatch {
 public:
  template <class R>
  std::vector<R>& get() {
    return std::get<std::vector<R>>(vectors_);
  }
  template <class R>
  const std::vector<R>& get() const {
    return std::get<std::vector<R>>(vectors_);
  }
  // Calls f(const std::vector<R>&) for every known kind, in kind order.
  template <class F>
  void for_each_kind(F&& f) const {
    std::apply([&](const auto&... v) { (f(v), ...); }, vectors_);
  }
  template <class F>
  void for_each_kind(F&& f) {
    std::apply([&](auto&... v) { (f(v), ...); }, vectors_);
  }

  // Records of known kinds plus those of unknown sections.
  size_t size() const {
    size_t n = 0;
    for_each_kind([&](const auto& v) { n += v.size(); });
    for (const auto& u : unknown) n += u.count;
    return n;
  }
  bool operator==(const RecordBatch&) const = default;
  void clear() {
    for_each_kind([](auto& v) { v.clear(); });
    unknown.clear();
  }

  std::vector<UnknownSection> unknown;

 private:
  VectorsOf<AllRecordTypes>::type vectors_;
};

// The smallest and largest time field of the records of known kinds: what
// the header of the events frame holding them says (t_min, t_max). nullopt
// when no record has a time.
inline std::optional<std::pair<Time, Time>> time_range(const RecordBatch& batch) {
  std::optional<std::pair<Time, Time>> range;
  batch.for_each_kind([&](const auto& records) {
    using R = typename std::remove_cvref_t<decltype(records)>::value_type;
    for (const R& r : records) {
      for_each_field<R>([&](const auto& f, auto) {
        using M = typename std::remove_cvref_t<decltype(f)>::member_type;
        if constexpr (std::is_same_v<M, Time>) {
          if (f.role != Role::Time) return;
          const Time t = r.*(f.member);
          range = range ? std::pair{std::min(range->first, t), std::max(range->second, t)}
                        : std::pair{t, t};
        }
      });
    }
  });
  return range;
}

}  // namespace legato::trace

#include "analysis/stats.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <thread>
#include <tuple>

#include "analysis/utilization.hpp"
#include "base/parallel.hpp"

namespace legato::analysis {

namespace {

// name() gives the kind's name: called for its first item only.
template <class Name>
void add_item(const Profile& p, const Item& it, Name&& name, KindStats& s) {
  const Time d = it.duration();
  if (s.count == 0) {
    s.kind = it.kind;
    s.name = name();
    s.min = s.max = d;
  }
  ++s.count;
  s.total = saturating_add(s.total, d);
  s.min = std::min(s.min, d);
  s.max = std::max(s.max, d);
  if (const CopyInfo* copy = p.copy_of(it)) s.bytes += copy->bytes;
  if (const InstanceInfo* info = p.instance_of(it)) s.bytes += info->bytes;
}

}  // namespace

std::vector<KindStats> kind_stats(const Profile& p) {
  // Keyed by item kind and name; instances by the kind of their memory.
  using Key = std::tuple<ItemKind, uint32_t, LaneKind>;
  using Table = std::map<Key, KindStats>;
  // Pieces of a million items or fewer of one lane each, on every core,
  // each worker into its own table; the tables then merged.
  struct Piece {
    const Lane* lane;
    uint32_t begin, end;
  };
  constexpr uint32_t kPiece = 1 << 20;
  std::vector<Piece> pieces;
  for (const Lane& lane : p.lanes) {
    for (uint32_t b = lane.begin; b < lane.end; b += std::min(kPiece, lane.end - b))
      pieces.push_back(Piece{&lane, b, b + std::min(kPiece, lane.end - b)});
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<Table> tables(threads);
  base::parallel_for(pieces.size(), threads, [&](unsigned worker, size_t k) {
    const Piece& piece = pieces[k];
    const Lane& lane = *piece.lane;
    Table& by = tables[worker];
    // The last item's: items come in runs of one kind and name.
    Key last_key{};
    KindStats* last = nullptr;
    for (uint32_t i = piece.begin; i < piece.end; ++i) {
      const Item& it = p.items[i];
      uint32_t name = it.name;
      if (name == 0 && it.op != kNone) name = p.operations[it.op].name;
      const bool instance = it.kind == ItemKind::Instance;
      const Key key{it.kind, instance ? 0 : name, instance ? lane.kind : LaneKind::Cpu};
      if (!last || key != last_key) {
        last = &by[key];
        last_key = key;
      }
      add_item(
          p, it,
          [&] {
            return instance ? "instances in " + std::string(to_string(lane.kind))
                   : name   ? p.str(name)
                            : std::string(to_string(it.kind));
          },
          *last);
    }
  });
  Table by;
  for (Table& t : tables) {
    for (auto& [key, s] : t) {
      KindStats& into = by[key];
      if (into.count == 0) {
        into = std::move(s);
        continue;
      }
      into.count += s.count;
      into.total = saturating_add(into.total, s.total);
      into.min = std::min(into.min, s.min);
      into.max = std::max(into.max, s.max);
      into.bytes += s.bytes;
    }
  }
  std::vector<KindStats> out;
  for (auto& [key, s] : by) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(),
                   [](const KindStats& a, const KindStats& b) { return a.total > b.total; });
  return out;
}

std::vector<UtilizationSummary> utilization_summary(const Profile& p) {
  std::vector<UtilizationSummary> out;
  const auto add = [&](uint32_t rank, LaneKind kind) {
    uint32_t lanes = 0;
    for (const Lane& l : p.lanes) lanes += l.kind == kind && (rank == kAllNodes || l.rank == rank);
    if (lanes > 0) out.push_back(UtilizationSummary{rank, kind, lanes, 0, 0, true});
  };
  for (const Node& n : p.nodes) {
    for (const KindGroup& g : n.kinds) add(n.rank, g.kind);
  }
  if (p.nodes.size() > 1) {
    for (int k = 0; k < kLaneKinds; ++k) add(kAllNodes, static_cast<LaneKind>(k));
  }
  // Each node's kinds binned straight from their items on every core, no
  // curve built; a kind over all nodes is the sum of its nodes' bins.
  constexpr int kSlices = 100;
  std::vector<UtilizationBins> bins(out.size(), UtilizationBins(p.start, p.stop, kSlices));
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  base::parallel_for(out.size(), threads, [&](unsigned, size_t k) {
    if (out[k].rank != kAllNodes)
      bins[k] = utilization_bins(p, out[k].kind, out[k].rank, p.start, p.stop, kSlices);
  });
  for (size_t k = 0; k < out.size(); ++k) {
    if (out[k].rank != kAllNodes) continue;
    for (size_t n = 0; n < out.size(); ++n) {
      if (out[n].rank != kAllNodes && out[n].kind == out[k].kind) bins[k].merge(bins[n]);
    }
  }
  for (size_t k = 0; k < out.size(); ++k) {
    UtilizationSummary& u = out[k];
    u.known = bins[k].capacity > 0;
    u.average = bins[k].average();
    for (const double s : bins[k].slice_averages()) u.peak = std::max(u.peak, s);
  }
  return out;
}

namespace {

bool contains_folded(std::string_view text, std::string_view query) {
  const auto it =
      std::search(text.begin(), text.end(), query.begin(), query.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
      });
  return it != text.end();
}

}  // namespace

std::vector<uint32_t> search(const Profile& p, std::string_view query, size_t limit) {
  std::vector<uint32_t> out;
  if (query.empty()) return out;
  // Match the (few) strings first, then items by their string ids.
  std::vector<bool> hit(p.strings.size(), false);
  for (size_t s = 1; s < p.strings.size(); ++s) hit[s] = contains_folded(p.strings[s], query);
  std::vector<bool> op_hit(p.operations.size(), false);
  for (size_t o = 0; o < p.operations.size(); ++o)
    op_hit[o] = hit[p.operations[o].name] || hit[p.operations[o].provenance];
  for (uint32_t i = 0; i < p.items.size() && out.size() < limit; ++i) {
    const Item& it = p.items[i];
    bool match = hit[it.name] || (it.op != kNone && op_hit[it.op]);
    if (const InstanceInfo* info = p.instance_of(it); !match && info) match = hit[info->provenance];
    if (!match && it.kind == ItemKind::UserRange) {
      const uint32_t prov = p.range_provenance(it);
      match = prov < hit.size() && hit[prov];
    }
    if (match) out.push_back(i);
  }
  return out;
}

}  // namespace legato::analysis

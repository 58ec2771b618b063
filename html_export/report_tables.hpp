// Tables the report's parts share, made in one pass over the model before
// any part is packed: what each chunk's items can be searched for, the
// names and kinds folded items are coloured by, the colours the palette
// holds, and each operation's totals (what an item's popup says of its
// operation).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/profile.hpp"

namespace legato::html {

// Items per detail chunk and operations per operation chunk (powers of two,
// multiples of analysis::kLeadGroup, so a chunk's lead tables are whole).
inline constexpr uint32_t kChunkItems = 1u << 15;
inline constexpr uint32_t kChunkOps = 1u << 15;
// How many of each a profile's report has.
inline uint32_t item_chunks(const analysis::Profile& p) {
  return static_cast<uint32_t>((p.items.size() + kChunkItems - 1) / kChunkItems);
}
inline uint32_t op_chunks(const analysis::Profile& p) {
  return static_cast<uint32_t>((p.operations.size() + kChunkOps - 1) / kChunkOps);
}

struct ReportTables {
  explicit ReportTables(const analysis::Profile& p);

  // What an item is found by (and, for the lead keys, named by): its name,
  // its operation's name and provenance (string ids; 0: none), distinct
  // triples numbered in item order.
  std::vector<std::array<uint32_t, 3>> labels;
  uint32_t label_of(uint32_t item) const;
  // Per detail chunk: (label, items) for each label its items carry, by label.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> chunk_labels;

  // The names and kinds the lead tables point at (analysis::lead_key), with
  // the string that names them (the lead item's label; 0: its kind), and
  // the key of each fold block's and lead group's lead.
  std::vector<std::array<uint32_t, 3>> lead_keys;  // name, kind, label string
  std::vector<uint32_t> block_lead, group_lead;

  // Per name (string id), a bit per item kind its items have: the colours
  // the report's palette holds.
  std::vector<uint8_t> name_kinds;

  // Per operation: its runtime work (meta-tasks' time) and the number of its
  // other items (tasks, copies, fills) that share it.
  std::vector<analysis::Time> op_runtime;
  std::vector<uint32_t> op_items;

 private:
  struct Key {
    uint32_t name, op_name, op_prov;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return (uint64_t{k.name} * 0x9e3779b97f4a7c15ULL) ^ (uint64_t{k.op_name} << 21) ^
             (uint64_t{k.op_prov} * 0xc2b2ae3d27d4eb4fULL);
    }
  };
  Key key_of(uint32_t item) const;
  uint32_t lead_key_index(uint32_t item);
  const analysis::Profile& p_;
  std::unordered_map<Key, uint32_t, KeyHash> label_index_;
  // Per operation, the name of the item last looked up and its label: the
  // items of an operation almost always share one.
  std::vector<std::pair<uint32_t, uint32_t>> op_memo_;
  std::unordered_map<uint64_t, uint32_t> lead_index_;
};

}  // namespace legato::html

#include "html_export/report_tables.hpp"

#include <algorithm>

#include "analysis/fold_summary.hpp"

namespace legato::html {

using analysis::kNone;

ReportTables::Key ReportTables::key_of(uint32_t item) const {
  const analysis::Item& it = p_.items[item];
  if (it.op == kNone) return {it.name, 0, 0};
  const analysis::Operation& o = p_.operations[it.op];
  return {it.name, o.name, o.provenance};
}

uint32_t ReportTables::label_of(uint32_t item) const {
  const analysis::Item& it = p_.items[item];
  if (it.op != kNone && op_memo_[it.op].first == it.name) return op_memo_[it.op].second;
  return label_index_.at(key_of(item));
}

uint32_t ReportTables::lead_key_index(uint32_t item) {
  const analysis::Item& it = p_.items[item];
  const auto [at, added] =
      lead_index_.try_emplace(analysis::lead_key(it), static_cast<uint32_t>(lead_keys.size()));
  if (added) {
    const auto& l = labels[label_of(item)];
    lead_keys.push_back({it.name, static_cast<uint32_t>(it.kind), l[0] != 0 ? l[0] : l[1]});
  }
  return at->second;
}

ReportTables::ReportTables(const analysis::Profile& p) : p_(p) {
  const auto count = static_cast<uint32_t>(p.items.size());
  op_memo_.assign(p.operations.size(), {kNone, 0});
  op_runtime.assign(p.operations.size(), 0);
  op_items.assign(p.operations.size(), 0);
  chunk_labels.resize(item_chunks(p));
  name_kinds.assign(p.strings.size(), 0);
  std::vector<uint32_t> in_chunk;  // per label: its items in the current chunk
  std::vector<uint32_t> seen;      // labels the current chunk has
  for (uint32_t c = 0; c < chunk_labels.size(); ++c) {
    const uint32_t end = std::min(count, (c + 1) * kChunkItems);
    for (uint32_t i = c * kChunkItems; i < end; ++i) {
      const analysis::Item& it = p.items[i];
      uint32_t label = 0;
      if (it.op != kNone && op_memo_[it.op].first == it.name) {
        label = op_memo_[it.op].second;
      } else {
        const auto [at, added] =
            label_index_.try_emplace(key_of(i), static_cast<uint32_t>(labels.size()));
        if (added) {
          const Key k = key_of(i);
          labels.push_back({k.name, k.op_name, k.op_prov});
          in_chunk.push_back(0);
        }
        label = at->second;
        if (it.op != kNone) op_memo_[it.op] = {it.name, label};
      }
      if (in_chunk[label]++ == 0) seen.push_back(label);
      name_kinds[it.name] |= static_cast<uint8_t>(1u << static_cast<unsigned>(it.kind));
      if (it.op != kNone && it.kind != analysis::ItemKind::Instance) {
        if (it.kind == analysis::ItemKind::MetaTask)
          op_runtime[it.op] += it.duration();
        else
          op_items[it.op] += 1;
      }
    }
    std::sort(seen.begin(), seen.end());
    auto& out = chunk_labels[c];
    out.reserve(seen.size());
    for (const uint32_t l : seen) {
      out.emplace_back(l, in_chunk[l]);
      in_chunk[l] = 0;
    }
    seen.clear();
  }
  block_lead.resize(p.lead_blocks.size());
  for (size_t b = 0; b < p.lead_blocks.size(); ++b)
    block_lead[b] =
        lead_key_index(static_cast<uint32_t>(b * analysis::kFoldBlock + p.lead_blocks[b]));
  group_lead.resize(p.lead_groups.size());
  for (size_t g = 0; g < p.lead_groups.size(); ++g)
    group_lead[g] =
        lead_key_index(static_cast<uint32_t>(g * analysis::kLeadGroup + p.lead_groups[g]));
}

}  // namespace legato::html

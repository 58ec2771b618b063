#include "html_export/report_findings.hpp"

#include <algorithm>

namespace legato::html {

using analysis::ItemKind;

nlohmann::json report_findings(const analysis::Profile& p, const analysis::Findings& all) {
  nlohmann::json out = analysis::findings_json(p, all);
  auto& list = out["findings"];
  for (size_t k = 0; k < all.findings.size() && k < list.size(); ++k) {
    const analysis::Finding& f = all.findings[k];
    nlohmann::json kinds = nlohmann::json::array();
    for (ItemKind kind : f.item_kinds) kinds.push_back(static_cast<int>(kind));
    list[k]["item_kinds"] = std::move(kinds);
    list[k]["provenances"] = f.provenances;
    if (std::find(f.item_kinds.begin(), f.item_kinds.end(), ItemKind::Instance) ==
        f.item_kinds.end())
      continue;
    // Only the finding's lanes inside its window can hold them.
    nlohmann::json instances = nlohmann::json::array();
    std::vector<uint32_t> lanes = f.lanes;
    std::sort(lanes.begin(), lanes.end());
    lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
    std::vector<uint32_t> found;
    for (uint32_t l : lanes) {
      if (l >= p.lanes.size()) continue;
      for (uint32_t i = p.lanes[l].begin; i < p.lanes[l].end; ++i)
        if (p.items[i].kind == ItemKind::Instance && analysis::belongs(p, f, i)) found.push_back(i);
    }
    std::sort(found.begin(), found.end());
    for (uint32_t i : found) instances.push_back(i);
    list[k]["instance_items"] = std::move(instances);
  }
  return out;
}

}  // namespace legato::html

#include "html_export/report_findings.hpp"

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
  }
  return out;
}

}  // namespace legato::html

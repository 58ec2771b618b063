// The findings the report opens with: every rule run with default
// thresholds, as findings_json writes them, plus what the page needs to tell
// which items a finding is about (analysis::belongs) without the model.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/findings.hpp"
#include "analysis/profile.hpp"

namespace legato::html {

// findings_json(p, f), each finding with two more fields:
//   item_kinds   the ItemKind numbers of the items it is about
//   provenances  string ids of the lines those items' operations (an
//                instance's: its store's) come from (any line when empty)
nlohmann::json report_findings(const analysis::Profile& p, const analysis::Findings& f);

}  // namespace legato::html

// `legate_prof info` and `dump` on Legion Prof logs: the other commands go
// through the profile model, which reads them like .prof files; these two
// describe a file's own content, so they show what the importer made of it.
#pragma once

#include <string>
#include <vector>

namespace legato::tools {

// Like info_one: 0 when the log was read without damage, 1 otherwise.
int legion_info(const std::string& path);
// Every record the log became, as `dump` prints them (one JSON object per
// line); kinds: only these record kinds (empty: all).
int legion_dump(const std::string& path, const std::vector<std::string>& kinds, bool resolve);

}  // namespace legato::tools

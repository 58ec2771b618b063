#include "analysis/kernel_names.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "analysis/profile.hpp"

namespace legato::analysis {
namespace {

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Calls at_top(i) for each character of s outside <> and (), and for each
// bracket that opens a group there.
template <class F>
void scan_top_level(std::string_view s, F&& at_top) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(') {
      if (depth == 0) at_top(i);
      ++depth;
    } else if (c == '>' || c == ')') {
      depth = std::max(0, depth - 1);
    } else if (depth == 0) {
      at_top(i);
    }
  }
}

}  // namespace

std::string short_kernel_name(std::string_view signature) {
  // A signature ends in its parameter list or names its scope.
  const bool has_parameters = !signature.empty() && signature.back() == ')';
  if (!has_parameters && signature.find("::") == std::string_view::npos)
    return std::string(signature);
  std::string s(signature);
  for (const std::string_view anon : {"(anonymous namespace)::", "`anonymous namespace'::"}) {
    for (size_t at; (at = s.find(anon)) != std::string::npos;) s.erase(at, anon.size());
  }
  // The parameter list: the top-level "(...)" that ends it.
  if (!s.empty() && s.back() == ')') {
    size_t open = std::string::npos;
    scan_top_level(s, [&](size_t i) {
      if (s[i] == '(') open = i;
    });
    if (open != std::string::npos && open > 0) s.erase(open);
  }
  // The return type: everything up to the last top-level space.
  size_t space = std::string::npos;
  scan_top_level(s, [&](size_t i) {
    if (s[i] == ' ') space = i;
  });
  if (space != std::string::npos) s.erase(0, space + 1);
  // Qualifiers, wherever they are: "a::b::c" reads "c".
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "::") == 0) {
      while (!out.empty() && identifier_char(out.back())) out.pop_back();
      ++i;
      continue;
    }
    out.push_back(s[i]);
  }
  return out.empty() ? std::string(signature) : out;
}

void shorten_kernel_names(Profile& p) {
  // The distinct names of kernels, then the short name of each.
  std::unordered_map<uint32_t, uint32_t> renamed;  // name id -> short name id
  for (const Lane& lane : p.lanes) {
    if (lane.kind != LaneKind::GpuDevice) continue;  // where kernels are
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      if (p.items[i].kind == ItemKind::GpuKernel) renamed.emplace(uint32_t{p.items[i].name}, 0u);
    }
  }
  std::map<std::string, std::vector<uint32_t>> by_short;
  for (const auto& [name, unused] : renamed) {
    std::string s = short_kernel_name(p.str(name));
    if (s != p.str(name)) by_short[std::move(s)].push_back(name);
  }
  for (auto& [text, names] : by_short) {
    if (names.size() != 1) continue;                 // overloads: their signatures tell them apart
    if (p.strings.size() + 1 >= kMaxStrings) break;  // the last index is the loader's
    const auto id = static_cast<uint32_t>(p.strings.size());
    p.strings.push_back(text);
    renamed[names.front()] = id;
    p.kernel_signatures.emplace_back(id, names.front());
  }
  std::sort(p.kernel_signatures.begin(), p.kernel_signatures.end());
  if (p.kernel_signatures.empty()) return;
  for (const Lane& lane : p.lanes) {
    if (lane.kind != LaneKind::GpuDevice) continue;
    for (uint32_t i = lane.begin; i < lane.end; ++i) {
      Item& it = p.items[i];
      if (it.kind != ItemKind::GpuKernel) continue;
      const uint32_t id = renamed[it.name];
      if (id != 0) it.name = id;
    }
  }
}

}  // namespace legato::analysis

#include "output_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <iostream>

namespace legato::tools {
namespace {

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

std::string output_is_an_input(const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs) {
  // stat follows links: a link to an input, or an input given as a link,
  // is that input. Inputs that cannot be stat'ed are named later by the
  // readers; an output that does not exist yet is none of them.
  const auto input_named = [&](const struct stat& out) -> const std::string* {
    for (const std::string& in : inputs) {
      struct stat st {};
      if (::stat(in.c_str(), &st) == 0 && S_ISREG(st.st_mode) && same_file(st, out)) return &in;
    }
    return nullptr;
  };
  for (const std::string& out : outputs) {
    struct stat st {};
    if (::stat(out.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (const std::string* in = input_named(st)) {
      return "the output " + out + " is the input " + *in + (out == *in ? "" : " (the same file)") +
             "; writing it would replace the trace: write the output elsewhere";
    }
  }
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
    if (const std::string* in = input_named(st)) {
      return "standard output is the input " + *in +
             " (a redirection into it, which may already have emptied it); redirect the output "
             "to another file";
    }
  }
  return "";
}

bool outputs_apart(const std::string& command, const std::vector<std::string>& inputs,
                   const std::vector<std::string>& outputs) {
  const std::string why = output_is_an_input(inputs, outputs);
  if (!why.empty()) std::cerr << "legate_prof " << command << ": " << why << "\n";
  return why.empty();
}

}  // namespace legato::tools

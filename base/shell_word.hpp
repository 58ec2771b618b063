// A word as a POSIX shell reads it back: as it is when it holds only plain
// characters, else in single quotes (a quote inside as '\''). For command
// lines a program prints for its user to run.
#pragma once

#include <string>

namespace legato::base {

inline std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-./,:=@%+") == std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace legato::base

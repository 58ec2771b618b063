// What legate_prof prints passes through here: names in a trace or a log
// (tasks, hosts, programs, mapper calls) and file names are whatever bytes
// someone put there, and a terminal takes some bytes as commands (an escape
// sequence can retitle the window, move the cursor, rewrite what was printed
// before). So every byte that is not printable UTF-8 is shown escaped, and
// what is written is always valid UTF-8, to a terminal or to a file alike.
#pragma once

#include <cstddef>
#include <streambuf>
#include <string>
#include <string_view>

namespace legato::tools {

// `text` with every byte that is not part of printable, well-formed UTF-8
// escaped: control characters (but newline and tab) as \xNN ("\x1b" for ESC,
// "\x7f" for DEL), bytes that are not UTF-8 as \xNN, and the characters
// that control a terminal or reorder text (C1 controls U+0080..U+009F, the
// bidirectional embeddings, overrides and isolates) as \uNNNN. Printable
// text, tabs and newlines are left as they are.
std::string terminal_text(std::string_view text);

// A stream buffer that writes what it is given to `to` as terminal_text.
// A UTF-8 sequence split between two writes is joined; one left incomplete
// at the end is escaped when the buffer is destroyed.
class TerminalTextBuf : public std::streambuf {
 public:
  explicit TerminalTextBuf(std::streambuf* to) : to_(to) {}
  ~TerminalTextBuf() override;
  TerminalTextBuf(const TerminalTextBuf&) = delete;
  TerminalTextBuf& operator=(const TerminalTextBuf&) = delete;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  std::streambuf* to_;
  std::string pending_;  // the start of a UTF-8 sequence the next write may complete
};

// Puts std::cout and std::cerr through TerminalTextBuf for the rest of the
// process (restored, with anything pending written, at exit).
void make_terminal_output_safe();

}  // namespace legato::tools

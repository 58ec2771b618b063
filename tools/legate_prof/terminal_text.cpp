#include "terminal_text.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace legato::tools {
namespace {

void escape_byte(std::string& out, unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", b);
  out += buf;
}

// Characters that steer a terminal or the order text is shown in.
bool controls_display(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) ||                    // C1 controls (0x9b is a CSI)
         cp == 0x061c || cp == 0x200e || cp == 0x200f ||  // bidi marks
         (cp >= 0x202a && cp <= 0x202e) ||                // bidi embeddings and overrides
         (cp >= 0x2066 && cp <= 0x2069);                  // bidi isolates
}

// The length of the well-formed UTF-8 sequence at s[0] (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF) and its code point;
// 0 when it is not one; -1 when the bytes there are a correct start of one
// that `s` ends before completing.
int utf8_sequence(std::string_view s, uint32_t& cp) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = b(0);
  int n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    n = 2;
    cp = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    n = 3;
    cp = lead & 0x0f;
    if (lead == 0xe0) lo = 0xa0;
    if (lead == 0xed) hi = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    n = 4;
    cp = lead & 0x07;
    if (lead == 0xf0) lo = 0x90;
    if (lead == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  for (int i = 1; i < n; ++i) {
    if (static_cast<size_t>(i) >= s.size()) return -1;
    const unsigned char c = b(static_cast<size_t>(i));
    if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xbf)) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  return n;
}

// Appends the escaped form of `in` to `out`; returns how many bytes of `in`
// it took: all of them when `final`, else all but an incomplete UTF-8
// sequence at the end (kept for the next write to complete).
size_t escape_into(std::string_view in, std::string& out, bool final) {
  size_t i = 0;
  while (i < in.size()) {
    // The common case: a run of printable ASCII, copied as it is.
    size_t j = i;
    while (j < in.size()) {
      const auto c = static_cast<unsigned char>(in[j]);
      if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f) break;
      ++j;
    }
    out.append(in.data() + i, j - i);
    i = j;
    if (i == in.size()) break;
    const auto c = static_cast<unsigned char>(in[i]);
    if (c < 0x80) {  // a control character or DEL
      escape_byte(out, c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const int n = utf8_sequence(in.substr(i), cp);
    if (n < 0 && !final) return i;  // the next write may complete it
    if (n <= 0) {
      escape_byte(out, c);
      ++i;
      continue;
    }
    if (controls_display(cp)) {
      char buf[12];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(in.data() + i, static_cast<size_t>(n));
    }
    i += static_cast<size_t>(n);
  }
  return in.size();
}

}  // namespace

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  escape_into(text, out, /*final=*/true);
  return out;
}

TerminalTextBuf::~TerminalTextBuf() {
  if (!pending_.empty()) {
    const std::string out = terminal_text(pending_);
    to_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
  }
  to_->pubsync();
}

TerminalTextBuf::int_type TerminalTextBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize TerminalTextBuf::xsputn(const char* s, std::streamsize n) {
  std::string out;
  if (!pending_.empty()) {
    pending_.append(s, static_cast<size_t>(n));
    const std::string in = std::move(pending_);
    pending_.clear();
    const size_t took = escape_into(in, out, /*final=*/false);
    pending_.assign(in, took, std::string::npos);
  } else {
    const std::string_view in(s, static_cast<size_t>(n));
    out.reserve(in.size());
    const size_t took = escape_into(in, out, /*final=*/false);
    pending_.assign(in.substr(took));
  }
  const auto size = static_cast<std::streamsize>(out.size());
  return to_->sputn(out.data(), size) == size ? n : 0;
}

int TerminalTextBuf::sync() {
  return to_->pubsync();
}

namespace {

struct SafeStreams {
  std::streambuf* cout_was = std::cout.rdbuf();
  std::streambuf* cerr_was = std::cerr.rdbuf();
  TerminalTextBuf out{cout_was}, err{cerr_was};
  SafeStreams() {
    std::cout.rdbuf(&out);
    std::cerr.rdbuf(&err);
  }
  ~SafeStreams() {
    std::cout.flush();
    std::cerr.flush();
    std::cout.rdbuf(cout_was);
    std::cerr.rdbuf(cerr_was);
  }
};

}  // namespace

void make_terminal_output_safe() {
  // Destroyed at exit, after main returns: anything pending is written then.
  static SafeStreams streams;
}

}  // namespace legato::tools

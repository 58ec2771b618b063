// A shared library opened at run time (dlopen) and its functions looked up
// by name, for the GPU libraries binaries never link (CUPTI, NCCL): they
// start on machines without them and say in words what was missing.
//
//   SharedLibrary lib({"libnccl.so.2", "/opt/nccl/lib/libnccl.so.2"});
//   if (!lib.loaded()) return lib.problem();
//   lib.bind(get_version, "ncclGetVersion").bind(all_reduce, "ncclAllReduce");
//   if (!lib.missing().empty()) return lib.problem();
#pragma once

#include <string>
#include <vector>

namespace legato::rt::gpu {

class SharedLibrary {
 public:
  // Opens the first of `candidates` (names the dynamic loader searches for,
  // or paths) that loads, with RTLD_NOW | RTLD_LOCAL.
  explicit SharedLibrary(std::vector<std::string> candidates);
  // Closes the library, unless keep() was called.
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  // When nothing loaded: dlerror's text for each candidate, in order.
  const std::vector<std::string>& errors() const { return errors_; }
  // The file that loaded: its path when the loader tells it, else the
  // candidate's name ("" when nothing loaded).
  std::string path() const;

  // Sets f, a function pointer, to the library's `symbol`; when the
  // library lacks it, f is null and the symbol is added to missing().
  template <class F>
  SharedLibrary& bind(F& f, const char* symbol) {
    f = reinterpret_cast<F>(find(symbol));
    return *this;
  }
  // The symbols bind did not find, ", "-separated ("" when none).
  const std::string& missing() const { return missing_; }

  // What went wrong, in words naming the library or the symbols and with
  // dlerror's text: "" when the library loaded and has every symbol bound.
  std::string problem() const;

  // Leaves the library loaded for the rest of the process (for libraries
  // whose threads may outlive their last use).
  void keep() { kept_ = true; }

 private:
  void* find(const char* symbol);

  std::vector<std::string> candidates_;
  std::string name_;  // the candidate that loaded
  void* handle_ = nullptr;
  bool kept_ = false;
  std::vector<std::string> errors_;
  std::string missing_;
  std::string symbol_error_;  // dlerror's text for the first missing symbol
};

}  // namespace legato::rt::gpu

#include "runtime/gpu/shared_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace legato::rt::gpu {

SharedLibrary::SharedLibrary(std::vector<std::string> candidates)
    : candidates_(std::move(candidates)) {
  for (const std::string& name : candidates_) {
    handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) {
      name_ = name;
      errors_.clear();
      return;
    }
    const char* e = dlerror();
    errors_.push_back(e != nullptr ? e : name + ": not found");
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_ != nullptr && !kept_) dlclose(handle_);
}

std::string SharedLibrary::path() const {
  link_map* map = nullptr;
  if (handle_ != nullptr && dlinfo(handle_, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr &&
      map->l_name != nullptr && map->l_name[0] != '\0') {
    return map->l_name;
  }
  return name_;
}

void* SharedLibrary::find(const char* symbol) {
  if (handle_ == nullptr) return nullptr;
  dlerror();
  void* p = dlsym(handle_, symbol);
  if (p != nullptr) return p;
  const char* e = dlerror();
  if (symbol_error_.empty()) symbol_error_ = e != nullptr ? e : std::string(symbol) + ": not found";
  missing_ += missing_.empty() ? symbol : std::string(", ") + symbol;
  return nullptr;
}

std::string SharedLibrary::problem() const {
  if (handle_ == nullptr) {
    std::string names, why;
    for (size_t i = 0; i < candidates_.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == candidates_.size() ? " or " : ", ") + candidates_[i];
      why += (i == 0 ? "" : "; ") + errors_[i];
    }
    if (candidates_.empty()) return "no shared library was named to load";
    return names + " could not be loaded: " + why;
  }
  if (!missing_.empty()) return path() + " lacks " + missing_ + ": " + symbol_error_;
  return "";
}

}  // namespace legato::rt::gpu

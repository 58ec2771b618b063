// Stand-in for legion/api/exception.h: just enough of Legion's Error class
// for serializer.cc's "cannot open the log file" path (message, then raise).
// Written for scripts/legion_serializer_check; not Legion code.
#ifndef STUB_LEGION_API_EXCEPTION_H
#define STUB_LEGION_API_EXCEPTION_H

#include <cstdlib>
#include <iostream>
#include <sstream>

namespace Legion {
enum ErrorKind { LEGION_RESOURCE_EXCEPTION = 1 };

class Error {
 public:
  explicit Error(ErrorKind k) : kind(k) {}
  template <typename T>
  Error& operator<<(const T& value) {
    message << value;
    return *this;
  }
  [[noreturn]] void raise() {
    std::cerr << "Legion error " << kind << ": " << message.str() << "\n";
    std::exit(1);
  }

 private:
  ErrorKind kind;
  std::ostringstream message;
};
}  // namespace Legion

#endif

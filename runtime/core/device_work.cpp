#include "runtime/core/device_work.hpp"

#include "runtime/core/errors.hpp"
#include "runtime/core/operation.hpp"

namespace legato::rt {

void device_failure(const Operation& op, const std::string& what, const std::exception& e) {
  fatal_error(trace::ErrorKind::Fatal,
              what + " of " + std::string(op.name) + " [" + op.where->text +
                  "] failed on a GPU: " + e.what(),
              op.uid);
}

}  // namespace legato::rt

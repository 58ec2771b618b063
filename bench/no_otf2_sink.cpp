#include <memory>

#include "event_sinks.hpp"

namespace legato::bench {

std::unique_ptr<Sink> make_otf2_sink(const std::string&) {
  return nullptr;
}

}  // namespace legato::bench

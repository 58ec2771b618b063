#include "python_program.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace legato::driver {
namespace fs = std::filesystem;

bool is_python_program(const std::string& program) {
  return program.size() > 3 && program.compare(program.size() - 3, 3, ".py") == 0;
}

std::string prepare_python() {
#ifndef LEGATO_PYTHON_EXECUTABLE
  throw std::runtime_error(
      "this Legato was built without its Python front end: install python3-dev, pybind11-dev "
      "and python3-numpy (scripts/install-deps.sh) and build again");
#else
  std::error_code ec;
  const fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  // The build tree's package (build/bin/legate -> build/python), then the
  // installed one (<prefix>/bin/legate -> <prefix>/lib/python3.X/dist-packages).
  const fs::path candidates[] = {bin / ".." / "python", bin / ".." / LEGATO_PYTHON_SITE};
  for (const fs::path& dir : candidates) {
    if (!fs::exists(dir / "legato" / "__init__.py", ec)) continue;
    std::string path = fs::weakly_canonical(dir, ec).string();
    if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0')
      path += std::string(":") + old;
    setenv("PYTHONPATH", path.c_str(), 1);
    return LEGATO_PYTHON_EXECUTABLE;
  }
  throw std::runtime_error("the legato Python package is not next to this legate (looked in " +
                           candidates[0].string() + " and " + candidates[1].string() +
                           "); build the legato_python_core target or install Legato");
#endif
}

}  // namespace legato::driver

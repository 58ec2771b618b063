// The loader of the GPU libraries (runtime/gpu/shared_library.hpp) on libm:
// its functions bind, and a library or a function that is not there is
// named in the problem it reports, with dlerror's text.
#include <string>

#include <catch2/catch.hpp>

#include "runtime/gpu/shared_library.hpp"

using legato::rt::gpu::SharedLibrary;

TEST_CASE("a shared library that does not exist is named with dlerror's text", "[gpu]") {
  SharedLibrary lib(
      {"liblegato_no_such_library.so.7", "/nonexistent/liblegato_no_such_library.so"});
  CHECK_FALSE(lib.loaded());
  REQUIRE(lib.errors().size() == 2);
  CHECK_THAT(lib.errors()[0], Catch::Contains("liblegato_no_such_library.so.7"));
  const std::string problem = lib.problem();
  INFO(problem);
  CHECK_THAT(problem, Catch::StartsWith("liblegato_no_such_library.so.7 or "
                                        "/nonexistent/liblegato_no_such_library.so could not be "
                                        "loaded: "));
  CHECK_THAT(problem, Catch::Contains("cannot open shared object file"));
  CHECK(lib.path().empty());
  int (*f)() = nullptr;
  lib.bind(f, "anything");
  CHECK(f == nullptr);
}

TEST_CASE("a shared library's functions bind, and a missing one is named", "[gpu]") {
  SharedLibrary lib({"liblegato_no_such_library.so.7", "libm.so.6"});
  REQUIRE(lib.loaded());
  CHECK(lib.errors().empty());
  CHECK_THAT(lib.path(), Catch::Contains("libm.so.6"));
  double (*cosine)(double) = nullptr;
  double (*floor_of)(double) = nullptr;
  lib.bind(cosine, "cos").bind(floor_of, "floor");
  REQUIRE(cosine != nullptr);
  REQUIRE(floor_of != nullptr);
  CHECK(cosine(0.0) == 1.0);
  CHECK(floor_of(2.5) == 2.0);
  CHECK(lib.missing().empty());
  CHECK(lib.problem().empty());

  void (*absent)() = nullptr;
  void (*also_absent)() = nullptr;
  lib.bind(absent, "legato_no_such_function").bind(also_absent, "legato_nor_this_one");
  CHECK(absent == nullptr);
  CHECK(also_absent == nullptr);
  CHECK(lib.missing() == "legato_no_such_function, legato_nor_this_one");
  const std::string problem = lib.problem();
  INFO(problem);
  CHECK_THAT(problem, Catch::Contains("libm.so.6 lacks legato_no_such_function, "
                                      "legato_nor_this_one: "));
  CHECK_THAT(problem, Catch::Contains("undefined symbol: legato_no_such_function"));
}

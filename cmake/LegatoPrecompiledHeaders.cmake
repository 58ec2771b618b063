# Precompiled headers. Nearly every source includes nlohmann/json (through
# the trace metadata and the profile model) and the same standard headers;
# parsing them took about 1.5 s of each file's compile, a quarter of a clean
# build. Here they are parsed once per kind of code: one precompiled header
# serves every library and program of the project, one (in tests/) every
# test, with Catch added. GCC only takes a precompiled header made with the
# same code model and a like optimization level, so position-independent
# targets (the libraries the Python module links) get one of their own.
# Shared libraries and modules parse the headers as before.
#
# With ccache a compile that uses a precompiled header is cached only under
# the sloppiness below (the launcher sets it in CMakeLists.txt).

# GCC builds use them (LEGATO_PRECOMPILED_HEADERS); other compilers parse
# every header in every source.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(LEGATO_PRECOMPILED_HEADERS ON)
else()
  set(LEGATO_PRECOMPILED_HEADERS OFF)
endif()

# Once std::string comes from a precompiled header, GCC (12 to 14 at least)
# stops treating the copies inside its operator+ on a temporary as system
# header code and reports them as out of bounds, which they are not: those
# checks (array-bounds, stringop-overflow, stringop-overread) are off for C++
# where the headers are precompiled. AddressSanitizer checks every access at
# run time.
if(LEGATO_PRECOMPILED_HEADERS)
  target_compile_options(legato_warnings INTERFACE
    "$<$<COMPILE_LANGUAGE:CXX>:-Wno-array-bounds;-Wno-stringop-overflow;-Wno-stringop-overread>")
endif()

set(LEGATO_PCH_HEADERS
    <algorithm> <atomic> <chrono> <cstdint> <cstdio> <cstring> <functional> <map> <memory>
    <mutex> <optional> <set> <stdexcept> <string> <string_view> <thread> <unordered_map>
    <utility> <vector> <nlohmann/json.hpp>)

# A static library of one empty source whose only product is the precompiled
# header other targets reuse (PRECOMPILE_HEADERS_REUSE_FROM).
function(legato_pch_owner name)
  cmake_parse_arguments(P "" "" "HEADERS;LIBS;OPTIONS" ${ARGN})
  set(source ${CMAKE_CURRENT_BINARY_DIR}/${name}.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "// The precompiled header's own source.\n")
  add_library(${name} STATIC ${source})
  target_link_libraries(${name} PRIVATE nlohmann_json::nlohmann_json legato::warnings ${P_LIBS})
  target_compile_options(${name} PRIVATE ${P_OPTIONS})
  foreach(header IN LISTS P_HEADERS)
    target_precompile_headers(${name} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
  endforeach()
endfunction()

# Every target defined under `dir`, its subdirectories' included.
function(legato_targets_under dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    legato_targets_under(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Gives every library and program that has none yet the project's
# precompiled header (called after all targets are defined).
function(legato_use_precompiled_headers)
  if(NOT LEGATO_PRECOMPILED_HEADERS)
    return()
  endif()
  legato_pch_owner(legato_pch HEADERS ${LEGATO_PCH_HEADERS})
  legato_pch_owner(legato_pch_pic HEADERS ${LEGATO_PCH_HEADERS})
  set_target_properties(legato_pch_pic PROPERTIES POSITION_INDEPENDENT_CODE ON)
  legato_targets_under(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(reuses ${target} PRECOMPILE_HEADERS_REUSE_FROM)
    get_target_property(own ${target} PRECOMPILE_HEADERS)
    if(NOT type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$" OR reuses OR own)
      continue()
    endif()
    get_target_property(pic ${target} POSITION_INDEPENDENT_CODE)
    if(pic)
      target_precompile_headers(${target} REUSE_FROM legato_pch_pic)
    else()
      target_precompile_headers(${target} REUSE_FROM legato_pch)
    endif()
  endforeach()
endfunction()

# Compiler settings shared by every Legato target.

# Project code is warning-free: every target links legato::warnings. Its
# flags, and the sanitizers' below, are for the host compiler (C and C++
# sources): nvcc takes neither. CUDA sources get nvcc's own warnings, and
# the host compiler's on the host code nvcc hands it, all as errors.
set(LEGATO_HOST_LANGUAGES "$<COMPILE_LANGUAGE:C,CXX>")
add_library(legato_warnings INTERFACE)
add_library(legato::warnings ALIAS legato_warnings)
target_compile_options(legato_warnings INTERFACE
  "$<${LEGATO_HOST_LANGUAGES}:-Wall;-Wextra;-Werror>"
  "$<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings;-Xcompiler=-Wall,-Wextra,-Werror>")
# add_compile_options for C and C++ sources only.
function(legato_host_compile_options)
  add_compile_options("$<${LEGATO_HOST_LANGUAGES}:${ARGN}>")
endfunction()

# Sanitizer builds keep line tables only (-g1): all their reports need, and
# much less to compile and link than full debug info. ThreadSanitizer builds
# optimize at -O1, as it advises: its tests run several times slower
# unoptimized. AddressSanitizer + UBSan builds do not optimize: they compile
# in 40% less time than at -O1 (the CI stage's longest step), catch the same
# errors, and their tests take about a minute either way.
if(LEGATO_SANITIZE STREQUAL "thread")
  legato_host_compile_options(-g1 -O1)
elseif(LEGATO_SANITIZE)
  legato_host_compile_options(-g1 -O0)
endif()

if(LEGATO_SANITIZE STREQUAL "thread")
  legato_host_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(LEGATO_SANITIZE)
  legato_host_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                              -fno-sanitize-recover=undefined)
  # GCC's flow analysis sees through the sanitizers' instrumentation poorly and
  # reports maybe-uninitialized inside libstdc++ headers (std::regex, std::function).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(legato_warnings INTERFACE
                           "$<${LEGATO_HOST_LANGUAGES}:-Wno-maybe-uninitialized>")
  endif()
  add_link_options(-fsanitize=address,undefined)
endif()

if(LEGATO_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "LEGATO_FUZZ=ON needs clang (configure with CC=clang-14 CXX=clang++-14)")
  endif()
  # Every object carries coverage so the fuzzer sees inside the libraries too.
  legato_host_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

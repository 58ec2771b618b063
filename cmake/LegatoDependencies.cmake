# Every dependency comes from a Debian package (see scripts/install-deps.sh);
# nothing is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(zstd REQUIRED)
find_package(ZLIB REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
# Ranks of a run talk over MPI (OpenMPI from Debian).
find_package(MPI REQUIRED COMPONENTS CXX)
if(LEGATO_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()

if(TARGET zstd::libzstd_shared)
  set(LEGATO_ZSTD zstd::libzstd_shared)
else()
  set(LEGATO_ZSTD zstd::libzstd_static)
endif()

# CUDA (nvcc, cudart, CUPTI, NCCL) is optional. AUTO uses it when the toolkit
# is found; ON insists; OFF never looks.
set(LEGATO_HAVE_CUDA OFF)
if(NOT LEGATO_CUDA STREQUAL "OFF")
  if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(LEGATO_HAVE_CUDA ON)
    message(STATUS "CUDA toolkit ${CUDAToolkit_VERSION} found in ${CUDAToolkit_BIN_DIR}")
  elseif(LEGATO_CUDA STREQUAL "ON")
    message(FATAL_ERROR "LEGATO_CUDA=ON but no CUDA toolkit was found; install it under "
                        "/usr/local/cuda or pass -DCUDAToolkit_ROOT=<dir>, or use -DLEGATO_CUDA=OFF")
  endif()
endif()

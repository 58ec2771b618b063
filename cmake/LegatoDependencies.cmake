# Every dependency comes from a Debian package (see scripts/install-deps.sh);
# nothing is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(zstd REQUIRED)
find_package(ZLIB REQUIRED)
# ISA-L's igzip inflates gzip Legion Prof logs, about twice as fast as zlib.
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)
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

# The GPU variants of the array kernels (arrays/kernels/*_cuda.cu) are compiled
# by the toolkit's nvcc, with the C++ compiler for their host code, for the
# A100 (sm_80) and the H100 (sm_90, with PTX for newer GPUs) unless
# -DCMAKE_CUDA_ARCHITECTURES says otherwise.
if(LEGATO_HAVE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    set(CMAKE_CUDA_COMPILER ${CUDAToolkit_BIN_DIR}/nvcc)
  endif()
  if(NOT CMAKE_CUDA_HOST_COMPILER AND NOT DEFINED ENV{CUDAHOSTCXX})
    set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER})
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90" CACHE STRING "GPU architectures nvcc compiles for")
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's flag for C++20 (nvcc 12 and later have it).
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  # The targets with CUDA code link the CUDA runtime themselves
  # (CUDA::cudart_static, see runtime/): CMake adds no second copy.
  set(CMAKE_CUDA_RUNTIME_LIBRARY None)
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
endif()

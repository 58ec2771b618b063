// The harness of the GPU kernel tests (test_gpu_kernels.cpp,
// test_gpu_index_kernels.cpp): random inputs of every kind, store arguments
// between guard bytes, running a task's CPU and GPU variants on the same
// inputs (host memory, device memory) and comparing what they leave.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrays/kernels/cpu_support.hpp"
#include "arrays/kernels/variants.hpp"
#include "runtime/core/api_access.hpp"

namespace legato::rt::kernels::gpu_test {

using Body = void (*)(TaskContext&);

inline void cuda_check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "FATAL: %s: %s: %s\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
  std::exit(1);
}

// --- random inputs ---

struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  int64_t between(int64_t lo, int64_t hi) {                                   // [lo, hi]
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
};

// What an input holds. General: anything the operation takes without
// undefined behaviour (floats with zeros of both signs, infinities, NaNs and
// subnormals; int64 up to 1e9 in magnitude); Finite: floats without those;
// Small: magnitudes up to 1000; NonNegative and NonZero as named; Ones: 1;
// Mask: 0 or 1.
enum class Values { General, Finite, Small, NonNegative, NonZero, Ones, Mask };

template <class T>
T random_value(Rng& rng, Values v) {
  if (v == Values::Ones) return T(1);
  if constexpr (std::is_same_v<T, uint8_t>) {
    return v == Values::NonZero ? T(1) : static_cast<T>(rng.next() % 5 < 2);
  } else {
    if (v == Values::Mask) return static_cast<T>(rng.next() % 5 < 2);
    if constexpr (std::is_floating_point_v<T>) {
      if (v == Values::General) {
        constexpr T inf = std::numeric_limits<T>::infinity();
        const T special[] = {T(0),
                             -T(0),
                             inf,
                             -inf,
                             std::numeric_limits<T>::quiet_NaN(),
                             std::numeric_limits<T>::denorm_min(),
                             -std::numeric_limits<T>::denorm_min() * T(3),
                             std::numeric_limits<T>::min() / T(2)};
        const uint64_t pick = rng.next() % 100;
        if (pick < std::size(special)) return special[pick];
        const double magnitude = std::pow(10.0, static_cast<double>(rng.between(-3, 3)));
        return static_cast<T>((rng.uniform() * 2 - 1) * magnitude);
      }
      const double scale = v == Values::Small ? 1000.0 : 1e6;
      double x = v == Values::NonNegative ? rng.uniform() * scale : (rng.uniform() * 2 - 1) * scale;
      if (v == Values::NonZero && x == 0) x = 1;
      return static_cast<T>(x);
    } else {
      switch (v) {
        case Values::Small:
          return rng.between(-1000, 1000);
        case Values::NonNegative:
          return rng.between(0, 1'000'000'000);
        case Values::NonZero: {
          const int64_t x = rng.between(-1'000'000'000, 1'000'000'000);
          return x == 0 ? 1 : x;
        }
        default:
          return rng.next() % 20 == 0 ? 0 : rng.between(-1'000'000'000, 1'000'000'000);
      }
    }
  }
}

// --- cases ---

// Bytes before and after every buffer, random, which no variant may touch.
constexpr size_t kGuard = 256;

// A store argument: `elements` elements of `type` (row starts `stride`
// apart in row mode), between guards.
struct Buffer {
  DType type = DType::F64;
  int64_t elements = 0, stride = 1;
  std::vector<std::byte> bytes;
  const std::byte* data() const { return bytes.data() + kGuard; }
};

inline Buffer make_buffer(DType type, int64_t elements, int64_t stride, Values v, Rng& rng) {
  Buffer b{type, elements, stride, {}};
  b.bytes.resize(2 * kGuard + static_cast<size_t>(elements) * dtype_size(type));
  for (std::byte& x : b.bytes) x = static_cast<std::byte>(rng.next());
  with_type(type, [&](auto t) {
    using T = decltype(t);
    for (int64_t i = 0; i < elements; ++i) {
      const T x = random_value<T>(rng, v);
      std::memcpy(b.bytes.data() + kGuard + static_cast<size_t>(i) * sizeof(T), &x, sizeof x);
    }
  });
  return b;
}

// Element mode (one row of `domain` elements) or row mode (`domain` rows of
// `width`, argument i's rows width + pad * (1 + i % 3) apart).
struct Geometry {
  bool row_mode = false;
  int64_t domain = 0, width = 0, pad = 0;
  bool big = false;  // fewer operand combinations
  int64_t rows() const { return row_mode ? domain : 1; }
  int64_t cols() const { return row_mode ? width : domain; }
  std::string name() const {
    if (!row_mode) return "elements " + std::to_string(domain);
    return "rows " + std::to_string(domain) + "x" + std::to_string(width) + " pad " +
           std::to_string(pad);
  }
};

struct Case {
  Case(std::string n, const Geometry& g) : name(std::move(n)), geometry(g) {}
  std::string name;
  Geometry geometry;
  std::vector<Buffer> args;
  std::vector<Scalar> scalars;  // the task's own struct, packed (after the geometry's)
  std::vector<Scalar> futures;
  double result_tolerance = 0;  // |gpu - cpu| allowed for a float result
  int approx_arg = -1;          // an argument compared with per-element tolerances
  std::vector<double> approx;
};

// Adds an argument shaped as the geometry's arrays.
inline void add_shaped(Case& c, DType type, Values v, Rng& rng) {
  const Geometry& g = c.geometry;
  const int64_t i = static_cast<int64_t>(c.args.size());
  const int64_t stride = g.row_mode ? g.width + g.pad * (1 + i % 3) : 1;
  const int64_t rows = g.rows(), cols = g.cols();
  const int64_t elements = rows == 0 ? 0 : (rows - 1) * (g.row_mode ? stride : 0) + cols;
  c.args.push_back(make_buffer(type, elements, stride, v, rng));
}

// f(element index) over the elements of argument `arg` the point covers.
template <class F>
void for_elements(const Case& c, size_t arg, F f) {
  const Geometry& g = c.geometry;
  for (int64_t r = 0; r < g.rows(); ++r) {
    for (int64_t col = 0; col < g.cols(); ++col) f(r * c.args[arg].stride + col);
  }
}

inline double element(const Buffer& b, int64_t i) {
  return with_type(b.type, [&](auto t) {
    using T = decltype(t);
    T x;
    std::memcpy(&x, b.data() + i * static_cast<int64_t>(sizeof(T)), sizeof x);
    return static_cast<double>(x);
  });
}

// --- running both variants ---

struct Outcome {
  std::vector<std::vector<std::byte>> buffers;
  bool has_result = false;
  Scalar result;
  std::string error;
};

struct Device {
  GpuResources res;
  cudaStream_t stream = nullptr;
};

inline Outcome run(const Case& c, Body body, const Device* gpu) {
  const Geometry& g = c.geometry;
  std::vector<Scalar> scalars;
  pack(GeometryArgs{g.row_mode, g.width}, scalars);
  for (const Buffer& b : c.args) scalars.push_back(to_scalar(b.stride));
  scalars.insert(scalars.end(), c.scalars.begin(), c.scalars.end());

  Outcome out;
  std::vector<std::byte*> device(c.args.size(), nullptr);
  std::vector<std::byte*> data;
  std::vector<Range> ranges;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const std::vector<std::byte>& bytes = c.args[i].bytes;
    out.buffers.push_back(bytes);
    if (gpu != nullptr) {
      cuda_check(cudaMalloc(reinterpret_cast<void**>(&device[i]), bytes.size()), "cudaMalloc");
      cuda_check(cudaMemcpy(device[i], bytes.data(), bytes.size(), cudaMemcpyHostToDevice),
                 "cudaMemcpy to the device");
      data.push_back(device[i] + kGuard);
    } else {
      data.push_back(out.buffers.back().data() + kGuard);
    }
    ranges.push_back({0, c.args[i].elements});
  }
  if (gpu != nullptr) cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  TaskContext ctx = ApiAccess::context(0, 1, {0, g.domain}, ranges, data, &scalars, c.futures);
  if (gpu != nullptr) ApiAccess::set_gpu(ctx, &gpu->res);
  try {
    body(ctx);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  if (gpu != nullptr) {
    const cudaError_t e = cudaStreamSynchronize(gpu->stream);
    if (e != cudaSuccess && out.error.empty())
      out.error = std::string("after the body: ") + cudaGetErrorName(e);
    for (size_t i = 0; i < c.args.size(); ++i) {
      cuda_check(cudaMemcpy(out.buffers[i].data(), device[i], out.buffers[i].size(),
                            cudaMemcpyDeviceToHost),
                 "cudaMemcpy to the host");
      cuda_check(cudaFree(device[i]), "cudaFree");
    }
  }
  const Scalar* result = ApiAccess::result(ctx);
  out.has_result = result != nullptr;
  if (result != nullptr) out.result = *result;
  return out;
}

struct Totals {
  int cases = 0, failures = 0;
};
inline Totals totals;

inline void fail(const Case& c, const std::string& why) {
  ++totals.failures;
  if (totals.failures <= 40) std::printf("FAIL: %s: %s\n", c.name.c_str(), why.c_str());
}

template <class T>
bool same(T cpu, T gpu, double tolerance) {
  if (std::memcmp(&cpu, &gpu, sizeof(T)) == 0) return true;
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(cpu) && std::isnan(gpu)) return true;
    return std::fabs(static_cast<double>(cpu) - static_cast<double>(gpu)) <= tolerance;
  }
  return false;
}

inline std::string show(const Scalar& s) {
  return s.type == DType::I64 ? std::to_string(s.i) + " (int64)" : std::to_string(s.f);
}

inline void compare(const Case& c, Body cpu, Body gpu, const Device& device) {
  ++totals.cases;
  const Outcome want = run(c, cpu, nullptr);
  const Outcome got = run(c, gpu, &device);
  if (!want.error.empty()) return fail(c, "the CPU variant failed: " + want.error);
  if (!got.error.empty()) return fail(c, "the GPU variant failed: " + got.error);
  for (size_t a = 0; a < c.args.size(); ++a) {
    const Buffer& b = c.args[a];
    with_type(b.type, [&](auto t) {
      using T = decltype(t);
      const size_t n = want.buffers[a].size() / sizeof(T);
      for (size_t k = 0; k < n; ++k) {
        T x, y;
        std::memcpy(&x, want.buffers[a].data() + k * sizeof(T), sizeof x);
        std::memcpy(&y, got.buffers[a].data() + k * sizeof(T), sizeof y);
        const int64_t i = static_cast<int64_t>(k) - static_cast<int64_t>(kGuard / sizeof(T));
        const bool inside = i >= 0 && i < b.elements;
        const double tolerance =
            inside && static_cast<int>(a) == c.approx_arg ? c.approx[static_cast<size_t>(i)] : 0;
        if (!same(x, y, tolerance)) {
          fail(c, "argument " + std::to_string(a) + (inside ? " element " : " guard/gap at ") +
                      std::to_string(i) + ": CPU " + std::to_string(static_cast<double>(x)) +
                      ", GPU " + std::to_string(static_cast<double>(y)));
          return;
        }
      }
    });
  }
  if (want.has_result != got.has_result) return fail(c, "one variant gave a result, one not");
  if (!want.has_result) return;
  const Scalar &x = want.result, &y = got.result;
  const bool ok =
      x.type == y.type && (x.type == DType::I64 ? x.i == y.i : same(x.f, y.f, c.result_tolerance));
  if (!ok) fail(c, "result: CPU " + show(x) + ", GPU " + show(y));
}

// --- what the cases range over ---

inline const DType kTypes[] = {DType::F32, DType::F64, DType::I64, DType::Bool};
inline bool is_float(DType t) {
  return t == DType::F32 || t == DType::F64;
}
inline std::string type_name(DType t) {
  return dtype_name(t);
}

inline std::vector<Geometry> geometries() {
  return {
      {false, 0, 0, 0, false},    {false, 1, 0, 0, false},      {false, 7, 0, 0, false},
      {false, 1000, 0, 0, false}, {false, 1000003, 0, 0, true}, {true, 0, 5, 3, false},
      {true, 1, 10, 4, false},    {true, 3, 5, 3, false},       {true, 1000, 37, 3, false},
      {true, 2000, 1, 1, false},  {true, 513, 100, 0, false},   {true, 64, 3000, 7, false},
      {true, 3, 0, 2, false},     {true, 1001, 999, 1, true},
  };
}

// The cases of test_gpu_index_kernels.cpp: NonzeroTask, and gathers and
// scatters (gpu::indirect_copy).
void test_nonzero(const Device& d, Rng& rng);
void test_indirect(const Device& d, Rng& rng);

}  // namespace legato::rt::kernels::gpu_test

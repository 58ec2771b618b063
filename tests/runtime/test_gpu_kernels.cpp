// The GPU variants of the array kernels (runtime/kernels_gpu_*.cu) against their
// CPU variants: each task runs on the same random inputs in host memory and
// in device memory, with TaskContexts made here as the runtime makes them,
// over every element type, array/constant/future operands, element mode and
// row mode (strided rows, contiguous rows, empty and odd sizes). Elementwise
// results must be the same bits (NaNs of any payload count as equal),
// reductions, dot and matvec the same up to the order of the additions, and
// every buffer around and between the rows untouched. NonzeroTask must
// give the CPU's positions in the CPU's order; gathers and scatters
// (gpu::indirect_copy, which copy items in a framebuffer run) the host
// loop's result, and the first index out of bounds when there is one.
//
// Needs a GPU: without a usable one it prints "SKIPPED: <CUDA error>" and
// exits with 77 (ctest's SKIP_RETURN_CODE). With one it also prints the
// bandwidth of an elementwise add and a sum next to a device copy's.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/gpu/device.hpp"
#include "runtime/kernels_gpu.hpp"
#include "runtime/kernels_impl.hpp"

using namespace legato::rt;
using namespace legato::rt::kernels;

namespace {

using Body = void (*)(TaskContext&);

void cuda_check(cudaError_t e, const char* what) {
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

Buffer make_buffer(DType type, int64_t elements, int64_t stride, Values v, Rng& rng) {
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
  std::vector<Scalar> scalars;  // the task's own, after the geometry's
  std::vector<Scalar> futures;
  double result_tolerance = 0;  // |gpu - cpu| allowed for a float result
  int approx_arg = -1;          // an argument compared with per-element tolerances
  std::vector<double> approx;
};

// Adds an argument shaped as the geometry's arrays.
void add_shaped(Case& c, DType type, Values v, Rng& rng) {
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

double element(const Buffer& b, int64_t i) {
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

Outcome run(const Case& c, Body body, const Device* gpu) {
  const Geometry& g = c.geometry;
  std::vector<Scalar> scalars{Scalar(int64_t{g.row_mode ? 1 : 0}), Scalar(g.width)};
  for (const Buffer& b : c.args) scalars.emplace_back(b.stride);
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
  TaskContext ctx(0, 1, {0, g.domain}, ranges, data, &scalars, c.futures);
  if (gpu != nullptr) ctx.set_gpu(&gpu->res);
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
  out.has_result = ctx.has_result();
  out.result = ctx.result_value();
  return out;
}

struct Totals {
  int cases = 0, failures = 0;
} totals;

void fail(const Case& c, const std::string& why) {
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

std::string show(const Scalar& s) {
  return s.type == DType::I64 ? std::to_string(s.i) + " (int64)" : std::to_string(s.f);
}

void compare(const Case& c, Body cpu, Body gpu, const Device& device) {
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

// --- the tasks ---

const DType kTypes[] = {DType::F32, DType::F64, DType::I64, DType::Bool};
bool is_float(DType t) {
  return t == DType::F32 || t == DType::F64;
}
std::string type_name(DType t) {
  return dtype_name(t);
}

std::vector<Geometry> geometries() {
  return {
      {false, 0, 0, 0, false},    {false, 1, 0, 0, false},      {false, 7, 0, 0, false},
      {false, 1000, 0, 0, false}, {false, 1000003, 0, 0, true}, {true, 0, 5, 3, false},
      {true, 1, 10, 4, false},    {true, 3, 5, 3, false},       {true, 1000, 37, 3, false},
      {true, 2000, 1, 1, false},  {true, 513, 100, 0, false},   {true, 64, 3000, 7, false},
      {true, 3, 0, 2, false},     {true, 1001, 999, 1, true},
  };
}

// The constants and futures operands take, per type (non-zero where they divide).
double constant_for(DType t, bool divisor) {
  if (is_float(t)) return divisor ? -0.75 : 2.5;
  if (t == DType::I64) return divisor ? -3.0 : 7.0;
  return 1.0;
}
Scalar future_for(DType t, bool as_int) {
  if (t == DType::Bool) return Scalar(int64_t{1});
  return as_int ? Scalar(int64_t{-4}) : Scalar(is_float(t) ? 1.25 : -2.7);
}

struct Combo {
  Source left, right;
  const char* name;
};
const Combo kCombos[] = {{Source::Array, Source::Array, "array/array"},
                         {Source::Array, Source::Constant, "array/constant"},
                         {Source::Constant, Source::Array, "constant/array"},
                         {Source::Array, Source::Future, "array/future"},
                         {Source::Future, Source::Array, "future/array"},
                         {Source::Constant, Source::Constant, "constant/constant"},
                         {Source::Future, Source::Constant, "future/constant"}};

// Adds one operand: an array argument, or a constant scalar or a future.
double add_operand(Case& c, Source s, DType t, Values v, bool divisor, bool int_future, Rng& rng) {
  if (s == Source::Array) add_shaped(c, t, v, rng);
  if (s == Source::Future) c.futures.push_back(future_for(t, int_future));
  return s == Source::Constant ? constant_for(t, divisor) : 0.0;
}

void test_binary(const Device& d, Rng& rng) {
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Lt,  Op::Le,
                    Op::Gt,  Op::Ge,  Op::Eq,  Op::Ne,  Op::And, Op::Or};
  const char* names[] = {"Add", "Sub", "Mul", "Div", "Lt",  "Le",
                         "Gt",  "Ge",  "Eq",  "Ne",  "And", "Or"};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (size_t k = 0; k < std::size(ops); ++k) {
        for (size_t m = 0; m < 5; ++m) {  // BinaryOpTask has at least one array
          const Combo& combo = kCombos[m];
          if (g.big && m > 1) continue;
          Case c{"BinaryOpTask " + std::string(names[k]) + " " + type_name(t) + " " + combo.name +
                     " " + g.name(),
                 g};
          // Bools divide as integers: only by 1. int64 division is true division.
          const bool by_one = ops[k] == Op::Div && t == DType::Bool;
          const double lc = add_operand(c, combo.left, t, Values::General, false, false, rng);
          const double rc = add_operand(c, combo.right, t, by_one ? Values::Ones : Values::General,
                                        true, true, rng);
          const DType out = is_comparison(ops[k]) || is_logical(ops[k]) ? DType::Bool
                            : t == DType::I64 && ops[k] == Op::Div      ? DType::F64
                                                                        : t;
          add_shaped(c, out, Values::General, rng);
          c.scalars = {Scalar(static_cast<int64_t>(ops[k])),
                       Scalar(static_cast<int64_t>(t)),
                       Scalar(static_cast<int64_t>(combo.left)),
                       Scalar(static_cast<int64_t>(combo.right)),
                       Scalar(lc),
                       Scalar(rc)};
          compare(c, binary_op_task, binary_op_gpu, d);
        }
      }
    }
  }
}

void test_unary(const Device& d, Rng& rng) {
  const Op ops[] = {Op::Neg, Op::Sqrt, Op::Abs, Op::Not, Op::Identity};
  const char* names[] = {"Neg", "Sqrt", "Abs", "Not", "Identity"};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (size_t k = 0; k < std::size(ops); ++k) {
        Case c{"UnaryOpTask " + std::string(names[k]) + " " + type_name(t) + " " + g.name(), g};
        // The square root of a negative integer is NaN, which int64 does not hold.
        const bool sqrt_int = ops[k] == Op::Sqrt && t == DType::I64;
        add_shaped(c, t, sqrt_int ? Values::NonNegative : Values::General, rng);
        add_shaped(c, t, Values::General, rng);
        c.scalars = {Scalar(static_cast<int64_t>(ops[k])), Scalar(static_cast<int64_t>(t))};
        compare(c, unary_op_task, unary_op_gpu, d);
      }
    }
  }
}

void test_convert(const Device& d, Rng& rng) {
  for (const Geometry& g : geometries()) {
    for (DType from : kTypes) {
      for (DType to : kTypes) {
        Case c{"ConvertTask " + type_name(from) + " to " + type_name(to) + " " + g.name(), g};
        // Floats convert to int64 only when they fit.
        add_shaped(c, from, to == DType::I64 ? Values::Finite : Values::General, rng);
        add_shaped(c, to, Values::General, rng);
        c.scalars = {Scalar(static_cast<int64_t>(from)), Scalar(static_cast<int64_t>(to))};
        compare(c, convert_task, convert_gpu, d);
      }
    }
  }
}

void test_where(const Device& d, Rng& rng) {
  const size_t combos[] = {0, 1, 2, 3, 5, 6};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (size_t m : combos) {
        const Combo& combo = kCombos[m];
        if (g.big && m > 1) continue;
        Case c{"WhereTask " + type_name(t) + " " + combo.name + " " + g.name(), g};
        add_shaped(c, DType::Bool, Values::Mask, rng);
        const double xv = add_operand(c, combo.left, t, Values::General, false, false, rng);
        const double yv = add_operand(c, combo.right, t, Values::General, true, true, rng);
        add_shaped(c, t, Values::General, rng);
        c.scalars = {Scalar(static_cast<int64_t>(t)), Scalar(static_cast<int64_t>(combo.left)),
                     Scalar(static_cast<int64_t>(combo.right)), Scalar(xv), Scalar(yv)};
        compare(c, where_task, where_gpu, d);
      }
    }
  }
}

void test_putmask(const Device& d, Rng& rng) {
  const Op ops[] = {Op::Identity, Op::Add, Op::Sub, Op::Mul, Op::Div};
  const char* names[] = {"Identity", "Add", "Sub", "Mul", "Div"};
  const Source sources[] = {Source::Array, Source::Constant, Source::Future};
  const char* source_names[] = {"array", "constant", "future"};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (size_t k = 0; k < std::size(ops); ++k) {
        for (size_t m = 0; m < std::size(sources); ++m) {
          if (g.big && m == 2) continue;
          Case c{"PutmaskTask " + std::string(names[k]) + " " + type_name(t) + " " +
                     source_names[m] + " " + g.name(),
                 g};
          add_shaped(c, t, Values::General, rng);
          add_shaped(c, DType::Bool, Values::Mask, rng);
          // Integers and bools divide as integers: never by zero.
          const bool int_div = ops[k] == Op::Div && !is_float(t);
          const double v = add_operand(
              c, sources[m], t, int_div ? Values::NonZero : Values::General, true, true, rng);
          c.scalars = {Scalar(static_cast<int64_t>(t)), Scalar(static_cast<int64_t>(ops[k])),
                       Scalar(static_cast<int64_t>(sources[m])), Scalar(v)};
          compare(c, putmask_task, putmask_gpu, d);
        }
      }
    }
  }
}

void test_fill(const Device& d, Rng& rng) {
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (int m = 0; m < 3; ++m) {  // a constant, a double future, an int64 future
        Case c{"FillTask " + type_name(t) + " " + std::to_string(m) + " " + g.name(), g};
        add_shaped(c, t, Values::General, rng);
        const Source s = m == 0 ? Source::Constant : Source::Future;
        // (a negative value would not convert to bool)
        if (m == 1) c.futures.push_back(Scalar(t == DType::Bool ? 1.0 : -3.25));
        if (m == 2) c.futures.push_back(Scalar(int64_t{42}));
        c.scalars = {Scalar(static_cast<int64_t>(t)), Scalar(static_cast<int64_t>(s)),
                     Scalar(is_float(t) ? 1.5e-3 : 2.0)};
        compare(c, fill_task, fill_gpu, d);
      }
    }
  }
}

// The sum of the magnitudes of the terms (the scale of a float sum's error).
double magnitude(const Case& c, bool products) {
  double m = 0;
  const Buffer& a = c.args[0];
  const Buffer* b = products ? &c.args[1] : nullptr;
  const Geometry& g = c.geometry;
  for (int64_t r = 0; r < g.rows(); ++r) {
    for (int64_t col = 0; col < g.cols(); ++col) {
      const double x = element(a, r * a.stride + col);
      m += std::fabs(b != nullptr ? x * element(*b, r * b->stride + col) : x);
    }
  }
  return m;
}

void test_reduce(const Device& d, Rng& rng) {
  const Reduction reds[] = {Reduction::Sum, Reduction::Min, Reduction::Max,
                            Reduction::CountNonzero};
  const char* names[] = {"Sum", "Min", "Max", "CountNonzero"};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (size_t k = 0; k < std::size(reds); ++k) {
        for (Values v : {Values::General, Values::Finite}) {
          Case c{"ScalarUnaryRedTask " + std::string(names[k]) + " " + type_name(t) +
                     (v == Values::General ? " with specials " : " ") + g.name(),
                 g};
          add_shaped(c, t, v, rng);
          c.scalars = {Scalar(static_cast<int64_t>(reds[k])), Scalar(static_cast<int64_t>(t))};
          if (reds[k] == Reduction::Sum) c.result_tolerance = 1e-12 * magnitude(c, false);
          compare(c, reduce_task, reduce_gpu, d);
        }
      }
    }
  }
}

void test_dot(const Device& d, Rng& rng) {
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      Case c{"DotTask " + type_name(t) + " " + g.name(), g};
      const Values v = is_float(t) ? Values::Finite : Values::Small;
      add_shaped(c, t, v, rng);
      add_shaped(c, t, v, rng);
      c.scalars = {Scalar(static_cast<int64_t>(t))};
      c.result_tolerance = 1e-12 * magnitude(c, true);
      compare(c, dot_task, dot_gpu, d);
    }
  }
}

void test_matvec(const Device& d, Rng& rng) {
  struct Shape {
    int64_t rows, cols, pad;
  };
  const Shape shapes[] = {{0, 5, 1},     {7, 0, 2},       {1, 1, 0},       {5, 3, 2},
                          {1000, 37, 3}, {20000, 7, 0},   {3, 100000, 0},  {1, 1000003, 0},
                          {2, 4096, 5},  {4100, 2500, 5}, {70000, 2048, 1}};
  for (const Shape& s : shapes) {
    for (DType t : kTypes) {
      if (s.rows * s.cols > 20'000'000 && t != DType::Bool) continue;  // rows > 65535: bools
      const Geometry g{true, s.rows, s.cols, s.pad, false};
      Case c{"MatVecMulTask " + type_name(t) + " " + std::to_string(s.rows) + "x" +
                 std::to_string(s.cols) + " pad " + std::to_string(s.pad),
             g};
      const Values v = is_float(t) ? Values::Finite : Values::Small;
      c.args.push_back(make_buffer(t, s.rows == 0 ? 0 : (s.rows - 1) * (s.cols + s.pad) + s.cols,
                                   s.cols + s.pad, v, rng));
      c.args.push_back(make_buffer(t, s.cols, 1, v, rng));
      c.args.push_back(make_buffer(t, s.rows, 1, Values::General, rng));
      c.scalars = {Scalar(static_cast<int64_t>(t))};
      if (is_float(t)) {  // the row's error scale, and an ulp of T on the rounded sum
        c.approx_arg = 2;
        const double ulp = t == DType::F32 ? 0x1.0p-23 : 0x1.0p-52;
        for (int64_t r = 0; r < s.rows; ++r) {
          double m = 0;
          for (int64_t col = 0; col < s.cols; ++col)
            m +=
                std::fabs(element(c.args[0], r * (s.cols + s.pad) + col) * element(c.args[1], col));
          c.approx.push_back(1e-12 * m + 2 * ulp * m);
        }
      }
      compare(c, matvec_task, matvec_gpu, d);
    }
  }
}

// The non-zeros of argument 0 over the point's elements.
int64_t nonzeros(const Case& c) {
  int64_t n = 0;
  with_type(c.args[0].type, [&](auto t) {
    using T = decltype(t);
    for_elements(c, 0, [&](int64_t i) {
      T x;
      std::memcpy(&x, c.args[0].data() + i * static_cast<int64_t>(sizeof(T)), sizeof x);
      n += x != T(0) ? 1 : 0;
    });
  });
  return n;
}

void test_nonzero(const Device& d, Rng& rng) {
  const std::pair<Values, const char*> kinds[] = {
      {Values::Mask, "mask"}, {Values::General, "general"}, {Values::Ones, "all"}};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (const auto& [v, what] : kinds) {
        Case c{"NonzeroTask " + type_name(t) + " " + what + " " + g.name(), g};
        add_shaped(c, t, v, rng);
        c.args.push_back(make_buffer(DType::I64, nonzeros(c), 1, Values::General, rng));
        c.scalars = {Scalar(static_cast<int64_t>(t))};
        compare(c, nonzero_task, nonzero_gpu, d);
      }
    }
  }
}

// --- gathers and scatters (the kernels of copy items in a framebuffer) ---

std::byte* to_device(const Buffer& b) {
  std::byte* p = nullptr;
  cuda_check(cudaMalloc(reinterpret_cast<void**>(&p), b.bytes.size()), "cudaMalloc");
  cuda_check(cudaMemcpy(p, b.bytes.data(), b.bytes.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  return p;
}

std::vector<std::byte> from_device(std::byte* p, size_t bytes) {
  std::vector<std::byte> out(bytes);
  cuda_check(cudaMemcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cuda_check(cudaFree(p), "cudaFree");
  return out;
}

struct IndirectCase {
  std::string name;
  bool gather = true;
  int64_t extent = 0;
  Buffer src, index, dst;
};

// Runs the copy on the device; returns dst's bytes (guards included), and
// false with the index the check reported when it refused one.
std::vector<std::byte> indirect_on_gpu(const IndirectCase& c, const Device& d, bool& in_bounds,
                                       int64_t& bad) {
  std::byte* src = to_device(c.src);
  std::byte* index = to_device(c.index);
  std::byte* dst = to_device(c.dst);
  const gpu::IndirectCopy copy{c.gather,
                               dst + kGuard,
                               src + kGuard,
                               reinterpret_cast<const int64_t*>(index + kGuard),
                               c.index.elements,
                               c.extent,
                               dtype_size(c.dst.type)};
  in_bounds = true;
  try {
    in_bounds = gpu::indirect_copy(copy, d.res.scratch, d.res.host_scratch, &bad, d.stream);
  } catch (const std::exception& e) {
    fail(Case{c.name, {}}, std::string("indirect_copy threw: ") + e.what());
  }
  from_device(src, c.src.bytes.size());
  from_device(index, c.index.bytes.size());
  return from_device(dst, c.dst.bytes.size());
}

// dst as the host copy leaves it (every index in bounds).
std::vector<std::byte> indirect_on_host(const IndirectCase& c) {
  std::vector<std::byte> out = c.dst.bytes;
  const size_t elem = dtype_size(c.dst.type);
  for (int64_t i = 0; i < c.index.elements; ++i) {
    int64_t j;
    std::memcpy(&j, c.index.data() + i * 8, 8);
    const int64_t from = c.gather ? j : i, to = c.gather ? i : j;
    std::memcpy(out.data() + kGuard + static_cast<size_t>(to) * elem,
                c.src.data() + static_cast<size_t>(from) * elem, elem);
  }
  return out;
}

IndirectCase indirect_case(bool gather, DType t, int64_t extent, int64_t count, Rng& rng) {
  IndirectCase c;
  c.name = std::string(gather ? "gather " : "scatter ") + type_name(t) + " " +
           std::to_string(count) + " of " + std::to_string(extent);
  c.gather = gather;
  c.extent = extent;
  c.src = make_buffer(t, gather ? extent : count, 1, Values::General, rng);
  c.dst = make_buffer(t, gather ? count : extent, 1, Values::General, rng);
  c.index = make_buffer(DType::I64, count, 1, Values::General, rng);
  // Scatters get distinct targets (a random part of a permutation).
  std::vector<int64_t> targets(static_cast<size_t>(gather ? 0 : extent));
  std::iota(targets.begin(), targets.end(), int64_t{0});
  for (int64_t i = 0; i < count; ++i) {
    int64_t j = 0;
    if (gather) {
      j = rng.between(0, extent - 1);
    } else {
      std::swap(targets[static_cast<size_t>(i)],
                targets[static_cast<size_t>(rng.between(i, extent - 1))]);
      j = targets[static_cast<size_t>(i)];
    }
    std::memcpy(c.index.bytes.data() + kGuard + static_cast<size_t>(i) * 8, &j, 8);
  }
  return c;
}

void test_indirect(const Device& d, Rng& rng) {
  const std::pair<int64_t, int64_t> sizes[] = {
      {1, 0}, {1, 1}, {7, 5}, {1000, 1000}, {1000003, 250000}, {10, 100000}};  // (extent, count)
  for (const auto& [extent, count] : sizes) {
    for (DType t : kTypes) {
      for (bool gather : {true, false}) {
        if (!gather && count > extent) continue;  // distinct targets only
        const IndirectCase c = indirect_case(gather, t, extent, count, rng);
        ++totals.cases;
        bool in_bounds = false;
        int64_t bad = 0;
        const std::vector<std::byte> got = indirect_on_gpu(c, d, in_bounds, bad);
        if (!in_bounds) {
          fail(Case{c.name, {}}, "refused index " + std::to_string(bad));
        } else if (got != indirect_on_host(c)) {
          fail(Case{c.name, {}}, "the destination differs from the host copy's");
        }
      }
    }
  }
  // Repeated targets: each gets one of the values aimed at it.
  {
    IndirectCase c = indirect_case(false, DType::I64, 1000, 1000, rng);
    c.name = "scatter with repeated indices";
    for (int64_t i = 0; i < 1000; ++i) {
      const int64_t j = i % 10, v = i;
      std::memcpy(c.index.bytes.data() + kGuard + static_cast<size_t>(i) * 8, &j, 8);
      std::memcpy(c.src.bytes.data() + kGuard + static_cast<size_t>(i) * 8, &v, 8);
    }
    ++totals.cases;
    bool in_bounds = false;
    int64_t bad = 0;
    const std::vector<std::byte> got = indirect_on_gpu(c, d, in_bounds, bad);
    for (int64_t j = 0; j < 1000; ++j) {
      int64_t v, before;
      std::memcpy(&v, got.data() + kGuard + static_cast<size_t>(j) * 8, 8);
      std::memcpy(&before, c.dst.data() + j * 8, 8);
      const bool ok = j < 10 ? v >= 0 && v < 1000 && v % 10 == j : v == before;
      if (!ok || !in_bounds) {
        fail(Case{c.name, {}}, "element " + std::to_string(j) + " holds " + std::to_string(v));
        break;
      }
    }
  }
  // Indices out of bounds: the first in position order is reported.
  for (bool gather : {true, false}) {
    IndirectCase c = indirect_case(gather, DType::F64, 100, 50, rng);
    c.name += " with indices out of bounds";
    const int64_t bad_values[][2] = {{7, -1}, {3, 100}, {40, 1 << 30}};  // (position, index)
    for (const auto& pv : bad_values)
      std::memcpy(c.index.bytes.data() + kGuard + static_cast<size_t>(pv[0]) * 8, &pv[1], 8);
    ++totals.cases;
    bool in_bounds = true;
    int64_t bad = 0;
    indirect_on_gpu(c, d, in_bounds, bad);
    if (in_bounds || bad != 100)
      fail(Case{c.name, {}}, "wanted index 100 refused, got " +
                                 (in_bounds ? std::string("none") : std::to_string(bad)));
  }
}

// A GPU variant on a CPU processor's context says so instead of crashing.
void test_without_gpu() {
  ++totals.cases;
  std::vector<Scalar> scalars{Scalar(int64_t{0}),
                              Scalar(int64_t{0}),
                              Scalar(int64_t{1}),
                              Scalar(static_cast<int64_t>(DType::F64)),
                              Scalar(static_cast<int64_t>(Source::Constant)),
                              Scalar(1.0)};
  double x = 0;
  TaskContext ctx(0, 1, {0, 1}, std::vector<Range>{Range{0, 1}},
                  std::vector<std::byte*>{reinterpret_cast<std::byte*>(&x)}, &scalars, {});
  try {
    fill_gpu(ctx);
  } catch (const std::logic_error& e) {
    if (std::string(e.what()).find("FillTask") != std::string::npos) return;
  }
  ++totals.failures;
  std::printf("FAIL: fill_gpu without a GPU did not throw a logic_error naming FillTask\n");
}

// --- bandwidth ---

void bandwidth(const Device& d) {
  const int64_t n = int64_t{1} << 26;  // 512 MiB per float64 array
  const size_t bytes = static_cast<size_t>(n) * sizeof(double);
  std::byte *a = nullptr, *b = nullptr, *out = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&a), bytes) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void**>(&b), bytes) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void**>(&out), bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    std::printf("INFO: not enough GPU memory for the bandwidth check\n");
    cudaFree(a);
    cudaFree(b);
    return;
  }
  cuda_check(cudaMemsetAsync(a, 0, bytes, d.stream), "cudaMemset");
  cuda_check(cudaMemsetAsync(b, 0, bytes, d.stream), "cudaMemset");
  std::vector<Scalar> scalars{Scalar(int64_t{0}),
                              Scalar(int64_t{0}),
                              Scalar(int64_t{1}),
                              Scalar(int64_t{1}),
                              Scalar(int64_t{1}),
                              Scalar(static_cast<int64_t>(Op::Add)),
                              Scalar(static_cast<int64_t>(DType::F64)),
                              Scalar(static_cast<int64_t>(Source::Array)),
                              Scalar(static_cast<int64_t>(Source::Array)),
                              Scalar(0.0),
                              Scalar(0.0)};
  TaskContext add(0, 1, {0, n}, {{0, n}, {0, n}, {0, n}}, {a, b, out}, &scalars, {});
  add.set_gpu(&d.res);
  std::vector<Scalar> sum_scalars{Scalar(int64_t{0}), Scalar(int64_t{0}), Scalar(int64_t{1}),
                                  Scalar(static_cast<int64_t>(Reduction::Sum)),
                                  Scalar(static_cast<int64_t>(DType::F64))};
  TaskContext sum(0, 1, {0, n}, {{0, n}}, {a}, &sum_scalars, {});
  sum.set_gpu(&d.res);
  cudaEvent_t start, stop;
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  const auto seconds = [&](auto body) {
    body();  // warm-up
    cuda_check(cudaEventRecord(start, d.stream), "cudaEventRecord");
    for (int i = 0; i < 10; ++i) body();
    cuda_check(cudaEventRecord(stop, d.stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    return ms / 1e3 / 10;
  };
  const double copy =
      2.0 * static_cast<double>(bytes) / seconds([&] {
        cuda_check(cudaMemcpyAsync(out, a, bytes, cudaMemcpyDeviceToDevice, d.stream),
                   "cudaMemcpy");
      });
  const double added = 3.0 * static_cast<double>(bytes) / seconds([&] { binary_op_gpu(add); });
  const double summed = static_cast<double>(bytes) / seconds([&] { reduce_gpu(sum); });
  std::printf(
      "INFO: device copy %.0f GB/s; float64 add %.0f GB/s (%.0f%% of copy); "
      "float64 sum %.0f GB/s (%.0f%%)\n",
      copy / 1e9, added / 1e9, 100 * added / copy, summed / 1e9, 100 * summed / copy);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
}

}  // namespace

int main() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf("SKIPPED: %s\n",
                e != cudaSuccess
                    ? (std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e)).c_str()
                    : "CUDA finds no GPU");
    return 77;
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("GPU 0: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  cuda_check(cudaSetDevice(0), "cudaSetDevice");

  // What the runtime gives a GPU variant: a stream and 64 KiB of scratch.
  Device d;
  cuda_check(cudaStreamCreate(&d.stream), "cudaStreamCreate");
  d.res.device = 0;
  d.res.stream = d.stream;
  d.res.scratch_bytes = 64 << 10;
  cuda_check(cudaMalloc(reinterpret_cast<void**>(&d.res.scratch), d.res.scratch_bytes),
             "cudaMalloc");
  cuda_check(cudaMallocHost(reinterpret_cast<void**>(&d.res.host_scratch), d.res.scratch_bytes),
             "cudaMallocHost");

  Rng rng{20240611};
  test_binary(d, rng);
  test_unary(d, rng);
  test_convert(d, rng);
  test_where(d, rng);
  test_putmask(d, rng);
  test_fill(d, rng);
  test_reduce(d, rng);
  test_dot(d, rng);
  test_matvec(d, rng);
  test_nonzero(d, rng);
  test_indirect(d, rng);
  test_without_gpu();
  bandwidth(d);

  cudaFreeHost(d.res.host_scratch);
  cudaFree(d.res.scratch);
  cudaStreamDestroy(d.stream);
  std::printf("%s: %d of %d cases agree\n", totals.failures == 0 ? "PASSED" : "FAILED",
              totals.cases - totals.failures, totals.cases);
  return totals.failures == 0 ? 0 : 1;
}

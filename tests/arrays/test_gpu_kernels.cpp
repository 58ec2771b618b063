// The GPU variants of the array kernels (arrays/kernels/*_cuda.cu) against their
// CPU variants: each task runs on the same random inputs in host memory and
// in device memory, with TaskContexts made here as the runtime makes them,
// over every element type, array/constant/future operands, element mode and
// row mode (strided rows, contiguous rows, empty and odd sizes). Elementwise
// results must be the same bits (NaNs of any payload count as equal),
// reductions, dot and matvec the same up to the order of the additions, and
// every buffer around and between the rows untouched. The indexing variants
// (nonzero, gathers, scatters) are in test_gpu_index_kernels.cpp; the
// harness is gpu_kernel_cases.hpp.
//
// Needs a GPU: without a usable one it prints "SKIPPED: <CUDA error>" and
// exits with 77 (ctest's SKIP_RETURN_CODE). With one it also prints the
// bandwidth of an elementwise add and a sum next to a device copy's.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "arrays/gpu_kernel_cases.hpp"
#include "arrays/kernels/variants.hpp"

using namespace legato::rt;
using namespace legato::rt::kernels;
using namespace legato::rt::kernels::gpu_test;

namespace {

// --- the elementwise and reduction tasks ---

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
          pack(BinaryOpArgs{ops[k], t, combo.left, combo.right, Scalar(lc), Scalar(rc)}, c.scalars);
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
        pack(UnaryOpArgs{ops[k], t}, c.scalars);
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
        pack(ConvertArgs{from, to}, c.scalars);
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
        pack(WhereArgs{t, combo.left, combo.right, Scalar(xv), Scalar(yv)}, c.scalars);
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
          pack(PutmaskArgs{t, ops[k], sources[m], Scalar(v)}, c.scalars);
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
        pack(FillArgs{t, s, Scalar(is_float(t) ? 1.5e-3 : 2.0)}, c.scalars);
        compare(c, fill_task, fill_gpu, d);
      }
    }
  }
}

// ArangeTask and RandTask (element mode only, as the library launches them):
// the same bits, with values whose products round (a fused multiply-add
// would differ) and seeds and draws far from 0.
void test_create(const Device& d, Rng& rng) {
  for (const Geometry& g : geometries()) {
    if (g.row_mode) continue;
    for (DType t : kTypes) {
      if (t != DType::Bool) {  // a bool arange past 1 does not convert
        Case c{"ArangeTask " + type_name(t) + " " + g.name(), g};
        add_shaped(c, t, Values::General, rng);
        const bool fl = is_float(t);
        pack(ArangeArgs{t, fl ? 0.1 : -5.0, fl ? 0.37 : 3.0}, c.scalars);
        compare(c, arange_task, arange_gpu, d);
      }
      for (const int64_t seed : {int64_t{0}, int64_t{12345}, int64_t{-7}}) {
        Case c{"RandTask " + type_name(t) + " seed " + std::to_string(seed) + " " + g.name(), g};
        add_shaped(c, t, Values::General, rng);
        pack(RandomArgs{t, static_cast<uint64_t>(seed), rng.next() % 1000}, c.scalars);
        compare(c, random_task, random_gpu, d);
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
          pack(ReduceArgs{reds[k], t}, c.scalars);
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
      pack(DotArgs{t}, c.scalars);
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
      pack(MatVecArgs{t}, c.scalars);
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

// A GPU variant on a CPU processor's context says so instead of crashing.
void test_without_gpu() {
  ++totals.cases;
  std::vector<Scalar> scalars;
  pack(GeometryArgs{false, 0}, scalars);
  scalars.push_back(to_scalar(int64_t{1}));  // the row stride of the one store
  pack(FillArgs{DType::F64, Source::Constant, Scalar(1.0)}, scalars);
  double x = 0;
  TaskContext ctx =
      ApiAccess::context(0, 1, {0, 1}, std::vector<Range>{Range{0, 1}},
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
  std::vector<Scalar> scalars;
  pack(GeometryArgs{false, 0}, scalars);
  scalars.insert(scalars.end(), 3, to_scalar(int64_t{1}));  // the three stores' row strides
  pack(BinaryOpArgs{Op::Add, DType::F64, Source::Array, Source::Array, Scalar(0.0), Scalar(0.0)},
       scalars);
  TaskContext add =
      ApiAccess::context(0, 1, {0, n}, {{0, n}, {0, n}, {0, n}}, {a, b, out}, &scalars, {});
  ApiAccess::set_gpu(add, &d.res);
  std::vector<Scalar> sum_scalars;
  pack(GeometryArgs{false, 0}, sum_scalars);
  sum_scalars.push_back(to_scalar(int64_t{1}));
  pack(ReduceArgs{Reduction::Sum, DType::F64}, sum_scalars);
  TaskContext sum = ApiAccess::context(0, 1, {0, n}, {{0, n}}, {a}, &sum_scalars, {});
  ApiAccess::set_gpu(sum, &d.res);
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
  test_create(d, rng);
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

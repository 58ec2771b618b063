// The GPU variants that index: NonzeroTask against its CPU variant (the
// same positions in the same order), and the gathers and scatters copy
// items run in a framebuffer (gpu::indirect_copy) against the host loop,
// with the first index out of bounds reported when there is one.
#include <numeric>

#include "arrays/gpu_kernel_cases.hpp"
#include "arrays/kernels/variants.hpp"
#include "runtime/gpu/device.hpp"

namespace legato::rt::kernels::gpu_test {
namespace {

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

}  // namespace

void test_nonzero(const Device& d, Rng& rng) {
  const std::pair<Values, const char*> kinds[] = {
      {Values::Mask, "mask"}, {Values::General, "general"}, {Values::Ones, "all"}};
  for (const Geometry& g : geometries()) {
    for (DType t : kTypes) {
      for (const auto& [v, what] : kinds) {
        Case c{"NonzeroTask " + type_name(t) + " " + what + " " + g.name(), g};
        add_shaped(c, t, v, rng);
        c.args.push_back(make_buffer(DType::I64, nonzeros(c), 1, Values::General, rng));
        pack(NonzeroArgs{t}, c.scalars);
        compare(c, nonzero_task, nonzero_gpu, d);
      }
    }
  }
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

}  // namespace legato::rt::kernels::gpu_test

// Helpers for the array tests: sizes around the chunk size, reference data
// read back from arrays, and element-by-element comparison.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "arrays/array.hpp"
#include "runtime/runtime_test_util.hpp"

namespace legato::rt::testing {

// The runtime every array test uses: three CPUs, chunks of 256 elements, so
// sizes above 256 split into several point tasks and the rest stay whole.
inline const char* kArrayConfig = "--cpus 3 --min-cpu-chunk 256";

inline std::vector<int64_t> sizes() {
  return {0, 1, 7, 255, 256, 257, 1000, 5000};
}

inline std::vector<DType> numeric_types() {
  return {DType::F32, DType::F64, DType::I64};
}

// Random inputs of a type: floats in [0, 1) scaled to [-8, 8), int64 in
// [-1000, 1000), drawn with the array library itself.
inline Array random_input(Generator& g, int64_t n, DType type) {
  if (type == DType::I64) return (g.random(n, DType::F64) * 2000.0 - 1000.0).astype(DType::I64);
  Array a = g.random(n, DType::F64) * 16.0 - 8.0;
  return type == DType::F64 ? a : a.astype(type);
}

// Rounds a double the way an element of `type` stores it.
inline double as_type(double v, DType type) {
  switch (type) {
    case DType::F32:
      return static_cast<double>(static_cast<float>(v));
    case DType::I64:
      return static_cast<double>(static_cast<int64_t>(v));
    case DType::Bool:
      return v != 0 ? 1.0 : 0.0;
    default:
      return v;
  }
}

inline void check_equal(const std::vector<double>& got, const std::vector<double>& want,
                        double rel = 0) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      CHECK(std::isnan(got[i]));
    } else if (rel == 0) {
      INFO("element " << i);
      CHECK(got[i] == want[i]);
    } else {
      INFO("element " << i);
      CHECK(got[i] == Approx(want[i]).epsilon(rel).margin(rel));
    }
  }
}

}  // namespace legato::rt::testing

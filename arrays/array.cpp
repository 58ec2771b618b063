// Arrays, views, creation, and the launch helper every operation uses.
#include "arrays/array.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "arrays/array_launch.hpp"
#include "arrays/kernels/cpu_support.hpp"

namespace legato::rt {

using detail::ArrayLauncher;
using detail::who;

void Array::stencil_hint(const std::vector<int64_t>& low, const std::vector<int64_t>& high,
                         std::source_location where) const {
  const auto n = static_cast<size_t>(ndim_);
  if (low.size() != n || high.size() != n)
    throw std::invalid_argument(who("stencil_hint", where) + "needs " + std::to_string(n) +
                                " offsets on each side for a " + std::to_string(n) +
                                "-D array, got " + std::to_string(low.size()) + " and " +
                                std::to_string(high.size()));
  for (size_t d = 0; d < n; ++d)
    if (low[d] < 0 || high[d] < 0)
      throw std::invalid_argument(who("stencil_hint", where) + "offsets must not be negative");
  // In the store's elements: a row of a 2-D array is row_stride elements.
  const auto elements = [&](const std::vector<int64_t>& o) {
    int64_t e = o[0];
    if (n == 2 &&
        (__builtin_mul_overflow(o[0], stride_, &e) || __builtin_add_overflow(e, o[1], &e)))
      throw std::invalid_argument(who("stencil_hint", where) + "offsets too large");
    return e;
  };
  store_.stencil_hint(elements(low), elements(high));
}

// --- the launch helper ---

namespace detail {

Array unaliased(const Array& in, const Array& out, const std::source_location& where) {
  if (!(in.store() == out.store())) return in;
  const bool same_elements = in.offset() == out.offset() && in.rows() == out.rows() &&
                             in.cols() == out.cols() &&
                             (in.rows() <= 1 || in.row_stride() == out.row_stride());
  if (same_elements) return in;  // each point reads what it writes
  // The elements each spans in the store: [offset, last + 1).
  const auto end = [](const Array& a) {
    return a.offset() + (a.rows() - 1) * (a.rows() > 1 ? a.row_stride() : 0) + a.cols();
  };
  if (end(in) <= out.offset() || end(out) <= in.offset()) return in;
  return in.copy(where);
}

std::string who(const char* name, const std::source_location& where) {
  return std::string(name) + " at " + call_site_text(where) + ": ";
}

void check_same_shape(const Array& a, const Array& b, const char* name,
                      const std::source_location& where) {
  if (a.shape() != b.shape()) {
    throw std::invalid_argument(who(name, where) +
                                "operands could not be broadcast together with shapes " +
                                a.shape_text() + " " + b.shape_text());
  }
}

void check_shape(int64_t rows, int64_t cols, DType type, const char* name,
                 const std::source_location& where) {
  if (rows < 0 || cols < 0)
    throw std::invalid_argument(who(name, where) + "negative dimensions are not allowed");
  int64_t elements = 0, bytes = 0;
  if (__builtin_mul_overflow(rows, cols, &elements) ||
      __builtin_mul_overflow(elements, static_cast<int64_t>(dtype_size(type)), &bytes)) {
    throw std::invalid_argument(who(name, where) + "array is too big: " + std::to_string(rows) +
                                " x " + std::to_string(cols) + " elements of " + dtype_name(type) +
                                " are more than the maximum possible size (2^63 - 1 bytes)");
  }
}

Array new_array(int ndim, int64_t rows, int64_t cols, DType type,
                const std::source_location& where) {
  Store s = create_store(rows * cols, type, "", where);
  return Array::make(std::move(s), type, ndim, rows, cols, 0, cols);
}

Layout layout_of(std::initializer_list<const Array*> arrays) {
  const Array& first = **arrays.begin();
  bool rows = false;
  for (const Array* a : arrays) rows = rows || !a->contiguous();
  if (rows) return {true, first.rows(), first.cols()};
  return {false, first.size(), 1};
}

ArrayLauncher::ArrayLauncher(TaskId task, const Layout& layout, std::source_location where)
    : task_(task), layout_(layout), where_(where) {}

ArrayLauncher& ArrayLauncher::arg(const Array& a, Privilege p) {
  if (layout_.rows)
    return rows(a.store(), a.offset(), a.ndim() == 2 ? a.row_stride() : a.cols(), a.cols(), p);
  stores_.push_back({a.store(), 0, a.offset(), 1, 1, {}, p});
  return *this;
}

ArrayLauncher& ArrayLauncher::per_index(const Store& s, int64_t offset, Privilege p) {
  stores_.push_back({s, 0, offset, 1, 1, {}, p});
  return *this;
}

ArrayLauncher& ArrayLauncher::rows(const Store& s, int64_t offset, int64_t stride, int64_t width,
                                   Privilege p) {
  stores_.push_back({s, 1, offset, stride, width, {}, p});
  return *this;
}

ArrayLauncher& ArrayLauncher::whole(const Store& s, Range r, Privilege p) {
  stores_.push_back({s, 2, 0, 0, 0, r, p});
  return *this;
}

kernels::Source source_of(const Value& v) {
  return v.is_constant() ? kernels::Source::Constant : kernels::Source::Future;
}

kernels::Source source_of(const Term& t) {
  return t.is_array ? kernels::Source::Array : source_of(t.value);
}

Scalar constant_of(const Value& v) {
  return v.is_constant() ? v.constant_scalar() : Scalar(0.0);
}

Scalar constant_of(const Term& t) {
  return t.is_array ? Scalar(0.0) : constant_of(t.value);
}

ArrayLauncher& ArrayLauncher::future(const Future& f) {
  futures_.push_back(f);
  return *this;
}

ArrayLauncher& ArrayLauncher::future_of(const Value& v) {
  if (!v.is_constant()) future(v.future());
  return *this;
}

ArrayLauncher& ArrayLauncher::dependent_partitioning() {
  dep_part_ = true;
  return *this;
}

ArrayLauncher& ArrayLauncher::replicated() {
  replicated_ = true;
  return *this;
}

Future ArrayLauncher::execute(std::optional<std::pair<ReduceOp, DType>> result) {
  TaskLauncher l(task_, layout_.domain, where_);
  std::vector<Scalar> scalars;
  kernels::pack(kernels::GeometryArgs{layout_.rows, layout_.width}, scalars);
  for (const StoreSpec& s : stores_)
    scalars.push_back(kernels::to_scalar(s.kind == 1 ? s.stride : int64_t{1}));
  scalars.insert(scalars.end(), scalars_.begin(), scalars_.end());
  for (const Scalar& v : scalars) {
    if (v.type == DType::I64) {
      l.add_scalar(v.i);
    } else {
      l.add_scalar(v.f);
    }
  }
  for (const StoreSpec& s : stores_) {
    switch (s.kind) {
      case 0:
        l.add_aligned(s.store, s.offset, s.privilege);
        break;
      case 1:
        l.add_rows(s.store, s.offset, s.stride, s.width, s.privilege);
        break;
      default:
        l.add_whole(s.store, s.range, s.privilege);
        break;
    }
  }
  for (const Future& f : futures_) l.add_future(f);
  if (layout_.rows) l.set_elements_per_index(layout_.width);
  if (dep_part_) l.on_dependent_partitioning();
  if (replicated_) l.replicate();
  if (result) l.reduce_result(result->first, result->second);
  return l.execute();
}

}  // namespace detail

// --- arrays and views ---

Array Array::make(Store store, DType type, int ndim, int64_t rows, int64_t cols, int64_t offset,
                  int64_t stride) {
  Array a;
  a.store_ = std::move(store);
  a.dtype_ = type;
  a.ndim_ = ndim;
  a.rows_ = rows;
  a.cols_ = cols;
  a.offset_ = offset;
  a.stride_ = stride;
  return a;
}

std::vector<int64_t> Array::shape() const {
  return ndim_ == 1 ? std::vector<int64_t>{cols_} : std::vector<int64_t>{rows_, cols_};
}

std::string Array::shape_text() const {
  return ndim_ == 1 ? "(" + std::to_string(cols_) + ",)"
                    : "(" + std::to_string(rows_) + ", " + std::to_string(cols_) + ")";
}

Array Array::slice(int64_t lo, int64_t hi) const {
  const int64_t n = ndim_ == 1 ? cols_ : rows_;
  if (lo < 0) lo += n;
  if (hi < 0) hi += n;
  if (lo < 0 || hi > n || lo > hi) {
    throw std::out_of_range("slice [" + std::to_string(lo) + ", " + std::to_string(hi) +
                            ") is outside an axis of size " + std::to_string(n));
  }
  if (ndim_ == 1) return make(store_, dtype_, 1, 1, hi - lo, offset_ + lo, stride_);
  return make(store_, dtype_, 2, hi - lo, cols_, offset_ + lo * stride_, stride_);
}

Array Array::view(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const {
  if (ndim_ != 2)
    throw std::invalid_argument("view(r0, r1, c0, c1) needs a 2-D array, not " + shape_text());
  if (r0 < 0 || r1 > rows_ || r0 > r1 || c0 < 0 || c1 > cols_ || c0 > c1) {
    throw std::out_of_range("view rows [" + std::to_string(r0) + ", " + std::to_string(r1) +
                            ") columns [" + std::to_string(c0) + ", " + std::to_string(c1) +
                            ") is outside shape " + shape_text());
  }
  return make(store_, dtype_, 2, r1 - r0, c1 - c0, offset_ + r0 * stride_ + c0, stride_);
}

Array Array::reshape(int64_t rows, int64_t cols) const {
  int64_t n = 0;
  if (rows < 0 || cols < 0 || __builtin_mul_overflow(rows, cols, &n) || n != size()) {
    throw std::invalid_argument(
        "cannot reshape an array of size " + std::to_string(size()) + " into shape (" +
        std::to_string(rows) + ", " + std::to_string(cols) + ")" +
        (rows < 0 || cols < 0 ? ": negative dimensions are not allowed" : ""));
  }
  if (!contiguous())
    throw std::invalid_argument("reshape needs a contiguous array; copy() the view first");
  return make(store_, dtype_, 2, rows, cols, offset_, cols);
}

Array Array::flatten(std::source_location where) const {
  const Array c = contiguous() ? *this : copy(where);
  return make(c.store_, c.dtype_, 1, 1, c.size(), c.offset_, c.size());
}

// --- creation ---

Array empty(int64_t n, DType type, std::source_location where) {
  detail::check_shape(1, n, type, "empty", where);
  return detail::new_array(1, 1, n, type, where);
}

Array empty(int64_t rows, int64_t cols, DType type, std::source_location where) {
  detail::check_shape(rows, cols, type, "empty", where);
  return detail::new_array(2, rows, cols, type, where);
}

Array full(int64_t n, const Value& v, DType type, std::source_location where) {
  Array a = empty(n, type, where);
  a.assign(v, where);
  return a;
}

Array full(int64_t rows, int64_t cols, const Value& v, DType type, std::source_location where) {
  Array a = empty(rows, cols, type, where);
  a.assign(v, where);
  return a;
}

Array zeros(int64_t n, DType type, std::source_location where) {
  return full(n, 0.0, type, where);
}
Array zeros(int64_t rows, int64_t cols, DType type, std::source_location where) {
  return full(rows, cols, 0.0, type, where);
}
Array ones(int64_t n, DType type, std::source_location where) {
  return full(n, 1.0, type, where);
}
Array ones(int64_t rows, int64_t cols, DType type, std::source_location where) {
  return full(rows, cols, 1.0, type, where);
}

Array empty_like(const Array& a, std::source_location where) {
  return a.ndim() == 1 ? empty(a.cols(), a.dtype(), where)
                       : empty(a.rows(), a.cols(), a.dtype(), where);
}

Array arange(int64_t n, DType type, std::source_location where) {
  Array a = empty(std::max<int64_t>(n, 0), type, where);
  if (n > 0) {
    ArrayLauncher(kernels::tasks().arange, detail::layout_of({&a}), where)
        .arg(a, Privilege::Write)
        .args(kernels::ArangeArgs{type, 0.0, 1.0})
        .execute();
  }
  return a;
}

Array eye(int64_t n, DType type, std::source_location where) {
  Array a = empty(n, n, type, where);
  if (n > 0) {
    ArrayLauncher(kernels::tasks().eye, {true, n, n}, where)
        .arg(a, Privilege::Write)
        .args(kernels::EyeArgs{type})
        .execute();
  }
  return a;
}

Array diag(const Array& a, int64_t k, std::source_location where) {
  // Diagonals past the corner: an empty one of a matrix, a matrix too big
  // for a vector (as in NumPy); bounded here so -k and n + |k| fit int64.
  const int64_t far = std::max(a.rows(), a.cols()) + 1;
  if (a.ndim() == 2) k = std::clamp(k, -far, far);
  if (a.ndim() == 1 && (k <= -std::numeric_limits<int64_t>::max() + a.size() ||
                        k >= std::numeric_limits<int64_t>::max() - a.size())) {
    throw std::invalid_argument(who("diag", where) + "array is too big: diagonal " +
                                std::to_string(k) + " of a vector of " + std::to_string(a.size()) +
                                " elements");
  }
  const int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
  if (a.ndim() == 1) {
    const int64_t n = a.size(), m = n + (k < 0 ? -k : k);
    Array out = zeros(m, m, a.dtype(), where);
    if (n > 0) {
      ArrayLauncher(kernels::tasks().diag_set, {true, n, m}, where)
          .rows(out.store(), out.offset() + r0 * m, m, m, Privilege::ReadWrite)
          .per_index(a.store(), a.offset(), Privilege::Read)
          .args(kernels::DiagArgs{a.dtype(), c0})
          .execute();
    }
    return out;
  }
  const int64_t n = std::max<int64_t>(0, std::min(a.rows() - r0, a.cols() - c0));
  Array out = empty(n, a.dtype(), where);
  if (n > 0) {
    ArrayLauncher(kernels::tasks().diag_get, {true, n, a.cols()}, where)
        .rows(a.store(), a.offset() + r0 * a.row_stride(), a.row_stride(), a.cols(),
              Privilege::Read)
        .per_index(out.store(), out.offset(), Privilege::Write)
        .args(kernels::DiagArgs{a.dtype(), c0})
        .execute();
  }
  return out;
}

Array Generator::random(int64_t n, DType type, std::source_location where) {
  Array a = empty(n, type, where);
  if (n > 0) {
    ArrayLauncher(kernels::tasks().random, detail::layout_of({&a}), where)
        .arg(a, Privilege::Write)
        .args(kernels::RandomArgs{type, seed_, drawn_})
        .execute();
  }
  ++drawn_;
  return a;
}

Array Generator::random(int64_t rows, int64_t cols, DType type, std::source_location where) {
  detail::check_shape(rows, cols, type, "random", where);
  Array flat = random(rows * cols, type, where);
  return flat.reshape(rows, cols);
}

}  // namespace legato::rt

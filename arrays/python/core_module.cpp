// legato._core: the array library for Python. Primitive operations on
// arrays and deferred scalars; legato.numpy builds NumPy's surface on them.
// Every call records the user's Python line (user_site.hpp) and blocking
// calls release the GIL, so the runtime's threads never wait for Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "arrays/array.hpp"
#include "arrays/python/user_site.hpp"

namespace py = pybind11;
using legato::rt::Array;
using legato::rt::DType;
using legato::rt::Value;

namespace {

// Opens a CallSite at the user's line for the rest of the enclosing scope.
#define LEGATO_USER_SITE                                                   \
  const legato::python::UserSite user_site_ = legato::python::user_site(); \
  const legato::rt::CallSite call_site_(user_site_.file, user_site_.line)

DType dtype_of(int code) {
  if (code < 0 || code > static_cast<int>(DType::Bool))
    throw std::invalid_argument("unknown dtype code " + std::to_string(code));
  return static_cast<DType>(code);
}

[[noreturn]] void unknown(const char* what, const std::string& op) {
  throw std::invalid_argument(std::string("unknown ") + what + " '" + op + "'");
}

// a OP b for arrays and deferred scalars, in any combination but two scalars.
template <class A, class B>
Array binary(const std::string& op, const A& a, const B& b) {
  using namespace legato::rt;
  if (op == "add") return a + b;
  if (op == "subtract") return a - b;
  if (op == "multiply") return a * b;
  if (op == "divide") return a / b;
  if (op == "less") return a < b;
  if (op == "less_equal") return a <= b;
  if (op == "greater") return a > b;
  if (op == "greater_equal") return a >= b;
  if (op == "equal") return a == b;
  if (op == "not_equal") return a != b;
  if (op == "logical_and") return a & b;
  if (op == "logical_or") return a | b;
  unknown("operation", op);
}

Value scalar_binary(const std::string& op, const Value& a, const Value& b) {
  if (op == "add") return a + b;
  if (op == "subtract") return a - b;
  if (op == "multiply") return a * b;
  if (op == "divide") return a / b;
  unknown("scalar operation", op);
}

// target OP= v for an array or an indexed part of one (a[mask] += v: one
// masked task).
template <class T, class V>
void in_place(T&& target, const std::string& op, const V& v) {
  if (op == "add") {
    target += v;
  } else if (op == "subtract") {
    target -= v;
  } else if (op == "multiply") {
    target *= v;
  } else if (op == "divide") {
    target /= v;
  } else {
    unknown("in-place operation", op);
  }
}

py::tuple shape_of(const Array& a) {
  const std::vector<int64_t> dims = a.shape();
  py::tuple t(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) t[d] = dims[d];
  return t;
}

const char* numpy_name(DType t) {
  static const char* const names[] = {"float32", "float64", "int64", "bool"};
  return names[static_cast<int>(t)];
}

// The array's elements as a NumPy array of its type and shape, each exactly
// (waits).
py::array to_numpy(const Array& a) {
  const std::vector<int64_t> dims = a.shape();
  py::array out(py::dtype(numpy_name(a.dtype())),
                std::vector<py::ssize_t>(dims.begin(), dims.end()));
  void* data = out.mutable_data();
  LEGATO_USER_SITE;
  py::gil_scoped_release release;
  a.read(data);
  return out;
}

// A shape of one or two dimensions (legato.numpy checked them) as (rows,
// cols), cols < 0 for one dimension.
std::pair<int64_t, int64_t> dims_of(const std::vector<int64_t>& shape) {
  if (shape.size() == 1) return {shape[0], -1};
  if (shape.size() == 2) return {shape[0], shape[1]};
  throw std::invalid_argument("arrays have 1 or 2 dimensions, not " + std::to_string(shape.size()));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Legato's array library (legato.numpy is the module to use)";
  m.def("set_package_dir", &legato::python::set_package_dir);
  m.def("start", [] { legato::rt::start(); });
  m.def("finish", [] {
    py::gil_scoped_release release;
    legato::rt::finish();
  });
  m.def("running", &legato::rt::running);

  // Value(int) is int64 (exact), Value(float) float64.
  py::class_<Value>(m, "Value")
      .def(py::init<int64_t>())
      .def(py::init<double>())
      .def("item",
           [](const Value& v) -> py::object {
             LEGATO_USER_SITE;
             if (v.dtype() == DType::I64) {
               int64_t i = 0;
               {
                 py::gil_scoped_release release;
                 i = v.item_int();
               }
               return py::int_(i);
             }
             double d = 0;
             {
               py::gil_scoped_release release;
               d = v.item();
             }
             return py::float_(d);
           })
      .def_property_readonly("is_constant", &Value::is_constant)
      .def_property_readonly("dtype", [](const Value& v) { return static_cast<int>(v.dtype()); });
  m.def("scalar_binary", [](const std::string& op, const Value& a, const Value& b) {
    LEGATO_USER_SITE;
    return scalar_binary(op, a, b);
  });
  m.def("scalar_sqrt", [](const Value& v) {
    LEGATO_USER_SITE;
    return legato::rt::sqrt(v);
  });

  py::class_<Array>(m, "Array")
      .def_property_readonly("shape", &shape_of)
      .def_property_readonly("dtype", [](const Array& a) { return static_cast<int>(a.dtype()); })
      .def_property_readonly("ndim", &Array::ndim)
      .def_property_readonly("size", &Array::size)
      .def("slice", &Array::slice)
      .def("view", &Array::view)
      .def("reshape", &Array::reshape)
      .def("flatten",
           [](const Array& a) {
             LEGATO_USER_SITE;
             return a.flatten();
           })
      .def("astype",
           [](const Array& a, int code) {
             LEGATO_USER_SITE;
             return a.astype(dtype_of(code));
           })
      .def("copy",
           [](const Array& a) {
             LEGATO_USER_SITE;
             return a.copy();
           })
      .def("assign",
           [](Array& a, const Array& src) {
             LEGATO_USER_SITE;
             a.assign(src);
           })
      .def("assign",
           [](Array& a, const Value& v) {
             LEGATO_USER_SITE;
             a.assign(v);
           })
      .def("in_place",
           [](Array& a, const std::string& op, const Array& v) {
             LEGATO_USER_SITE;
             in_place(a, op, v);
           })
      .def("in_place",
           [](Array& a, const std::string& op, const Value& v) {
             LEGATO_USER_SITE;
             in_place(a, op, v);
           })
      .def("sum",
           [](const Array& a) {
             LEGATO_USER_SITE;
             return a.sum();
           })
      .def("min",
           [](const Array& a) {
             LEGATO_USER_SITE;
             return a.min();
           })
      .def("max",
           [](const Array& a) {
             LEGATO_USER_SITE;
             return a.max();
           })
      .def("dot",
           [](const Array& a, const Array& b) {
             LEGATO_USER_SITE;
             return a.dot(b);
           })
      .def("to_numpy", &to_numpy)
      .def("stencil_hint",
           [](const Array& a, const std::vector<int64_t>& low, const std::vector<int64_t>& high) {
             LEGATO_USER_SITE;
             a.stencil_hint(low, high);
           })
      .def("get_index",
           [](Array& a, const Array& index) {
             LEGATO_USER_SITE;
             return Array(a[index]);
           })
      .def("set_index",
           [](Array& a, const Array& index, const Array& values) {
             LEGATO_USER_SITE;
             a[index] = values;
           })
      .def("set_index",
           [](Array& a, const Array& index, const Value& v) {
             LEGATO_USER_SITE;
             a[index] = v;
           })
      .def("update_index",
           [](Array& a, const Array& index, const std::string& op, const Array& v) {
             LEGATO_USER_SITE;
             in_place(a[index], op, v);
           })
      .def("update_index", [](Array& a, const Array& index, const std::string& op, const Value& v) {
        LEGATO_USER_SITE;
        in_place(a[index], op, v);
      });

  m.def("binary", [](const std::string& op, const Array& a, const Array& b) {
    LEGATO_USER_SITE;
    return binary(op, a, b);
  });
  m.def("binary", [](const std::string& op, const Array& a, const Value& b) {
    LEGATO_USER_SITE;
    return binary(op, a, b);
  });
  m.def("binary", [](const std::string& op, const Value& a, const Array& b) {
    LEGATO_USER_SITE;
    return binary(op, a, b);
  });
  m.def("unary", [](const std::string& op, const Array& a) {
    LEGATO_USER_SITE;
    if (op == "negative") return -a;
    if (op == "invert") return ~a;
    if (op == "sqrt") return legato::rt::sqrt(a);
    if (op == "absolute") return legato::rt::abs(a);
    unknown("operation", op);
  });
  m.def("into", [](const std::string& op, const Array& x, const Array& y, Array& out) {
    LEGATO_USER_SITE;
    if (op == "add") return legato::rt::add(x, y, out);
    if (op == "subtract") return legato::rt::subtract(x, y, out);
    if (op == "multiply") return legato::rt::multiply(x, y, out);
    if (op == "divide") return legato::rt::divide(x, y, out);
    unknown("operation", op);
  });
  m.def("where", [](const Array& c, const Array& x, const Array& y) {
    LEGATO_USER_SITE;
    return legato::rt::where(c, x, y);
  });
  m.def("where", [](const Array& c, const Value& x, const Value& y) {
    LEGATO_USER_SITE;
    return legato::rt::where(c, x, y);
  });
  m.def("putmask", [](Array& a, const Array& mask, const Array& values) {
    LEGATO_USER_SITE;
    legato::rt::putmask(a, mask, values);
  });
  m.def("putmask", [](Array& a, const Array& mask, const Value& v) {
    LEGATO_USER_SITE;
    legato::rt::putmask(a, mask, v);
  });
  m.def("nonzero", [](const Array& a) {
    LEGATO_USER_SITE;
    py::gil_scoped_release release;  // the size of the result waits for the data
    return legato::rt::nonzero(a);
  });
  m.def("matvec", [](const Array& a, const Array& x) {
    LEGATO_USER_SITE;
    return legato::rt::matvec(a, x);
  });
  m.def("create", [](const std::string& how, const std::vector<int64_t>& shape, int code) {
    LEGATO_USER_SITE;
    const DType t = dtype_of(code);
    const auto [rows, cols] = dims_of(shape);
    const bool two = shape.size() == 2;
    if (how == "empty") return two ? legato::rt::empty(rows, cols, t) : legato::rt::empty(rows, t);
    if (how == "zeros") return two ? legato::rt::zeros(rows, cols, t) : legato::rt::zeros(rows, t);
    if (how == "ones") return two ? legato::rt::ones(rows, cols, t) : legato::rt::ones(rows, t);
    if (how == "arange" && !two) return legato::rt::arange(rows, t);
    if (how == "eye" && !two) return legato::rt::eye(rows, t);
    unknown("constructor", how);
  });
  m.def("full", [](const std::vector<int64_t>& shape, const Value& v, int code) {
    LEGATO_USER_SITE;
    const DType t = dtype_of(code);
    const auto [rows, cols] = dims_of(shape);
    return shape.size() == 2 ? legato::rt::full(rows, cols, v, t) : legato::rt::full(rows, v, t);
  });
  // A NumPy array already of the dtype `code` names, C-contiguous, copied
  // in exactly.
  m.def("from_host", [](const py::array& host, int code) {
    LEGATO_USER_SITE;
    const DType t = dtype_of(code);
    if (py::str(host.dtype()).cast<std::string>() != numpy_name(t) ||
        (host.flags() & py::array::c_style) == 0) {
      throw std::invalid_argument(std::string("from_host needs a C-contiguous ") + numpy_name(t) +
                                  " array");
    }
    const std::vector<int64_t> shape(host.shape(), host.shape() + host.ndim());
    py::gil_scoped_release release;  // waits for the copy
    return legato::rt::from_buffer(host.data(), shape, t);
  });
  m.def("empty_like", [](const Array& a) {
    LEGATO_USER_SITE;
    return legato::rt::empty_like(a);
  });
  m.def("diag", [](const Array& a, int64_t k) {
    LEGATO_USER_SITE;
    return legato::rt::diag(a, k);
  });

  py::class_<legato::rt::Generator>(m, "Generator")
      .def(py::init<uint64_t>())
      .def("random", [](legato::rt::Generator& g, const std::vector<int64_t>& shape, int code) {
        LEGATO_USER_SITE;
        const auto [rows, cols] = dims_of(shape);
        return shape.size() == 2 ? g.random(rows, cols, dtype_of(code))
                                 : g.random(rows, dtype_of(code));
      });
}

"""legato.numpy: NumPy's interface on Legato arrays, for the programs of
cuPyNumeric users (`import legato.numpy as np`). What is not supported raises
NotImplementedError naming it, never a wrong answer."""
import builtins as _builtins
import operator as _operator

import numpy as _numpy

from .. import _core
from . import _shapes, random
from ._dtypes import bool_, float32, float64, int64
from ._ndarray import element_value as _element_value
from ._ndarray import ndarray
from ._scalar import INT64_MAX as _INT64_MAX
from ._scalar import INT64_MIN as _INT64_MIN
from ._scalar import Scalar, _value_of

bool8 = bool_
newaxis = None
pi = _numpy.pi
e = _numpy.e


def _unsupported(what):
    return NotImplementedError(f"legato.numpy does not support {what}")


def _code(dtype, what):
    from ._dtypes import code_of

    return code_of(dtype, what)


def _create(how, shape, dtype):
    dims = _shapes.shape_of(shape, how)
    return ndarray(_core.create(how, list(dims), _code(dtype, how)))


def empty(shape, dtype=float64):
    return _create("empty", shape, dtype)


def zeros(shape, dtype=float64):
    return _create("zeros", shape, dtype)


def ones(shape, dtype=float64):
    return _create("ones", shape, dtype)


def full(shape, fill_value, dtype=None):
    if _value_of(fill_value, as_float=True) is None:
        raise TypeError(f"full: fill_value must be a number, not {type(fill_value).__name__}")
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, Scalar) else _numpy.array(fill_value).dtype
    code = _code(dtype, "full")
    value = _value_of(fill_value, as_float=_numpy.dtype(dtype).kind in "fb")
    dims = _shapes.shape_of(shape, "full")
    return ndarray(_core.full(list(dims), value, code))


def empty_like(a, dtype=None):
    if dtype is not None and _numpy.dtype(dtype) != a.dtype:
        return empty(a.shape, dtype)
    return ndarray(_core.empty_like(_array(a, "empty_like")._core))


def zeros_like(a, dtype=None):
    return zeros(a.shape, a.dtype if dtype is None else dtype)


def ones_like(a, dtype=None):
    return ones(a.shape, a.dtype if dtype is None else dtype)


def arange(stop, dtype=int64):
    if not isinstance(stop, (int, _numpy.integer)) or isinstance(stop, bool):
        raise _unsupported("arange with start, step or a non-integer stop")
    n = max(int(stop), 0)  # none for a stop <= 0, as NumPy's
    if n > _INT64_MAX:
        raise ValueError(f"arange: maximum allowed size exceeded ({n})")
    return ndarray(_core.create("arange", [n], _code(dtype, "arange")))


def eye(n, dtype=float64):
    return ndarray(_core.create("eye", [_shapes.dim(n, "eye")], _code(dtype, "eye")))


def diag(a, k=0):
    try:
        k = _operator.index(k)
    except TypeError:
        raise TypeError(f"diag: k must be an integer, not {type(k).__name__}") from None
    # Past int64 a diagonal is as far out as int64's ends (too far either way).
    k = min(max(k, _INT64_MIN + 1), _INT64_MAX)
    return ndarray(_core.diag(_array(a, "diag")._core, k))


def asarray(a, dtype=None):
    """A legato array as itself (or converted to dtype); host data (lists,
    NumPy arrays, numbers) copied into a new one of NumPy's dtype for it."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype, copy=False)
    host = _numpy.asarray(a) if dtype is None else _numpy.asarray(a, dtype=dtype)
    if host.ndim not in (1, 2):
        raise _unsupported(f"arrays of {host.ndim} dimensions")
    code = _code(host.dtype, "array")
    # Copied in as they are (int64 exactly), in the array's own layout.
    host = _numpy.ascontiguousarray(host, dtype=_numpy.dtype(host.dtype.name))
    return ndarray(_core.from_host(host, code))


def array(obj, dtype=None, copy=True):
    """A new legato array of obj's values (a legato array is copied)."""
    if isinstance(obj, ndarray):
        return obj.astype(obj.dtype if dtype is None else dtype, copy=True) if copy else obj
    return asarray(obj, dtype)


def _array(a, what):
    if not isinstance(a, ndarray):
        raise TypeError(f"{what}: expected a legato array, not {type(a).__name__}")
    return a


_UFUNC_OPS = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide"}


def _ufunc(op):
    def apply(x, y, out=None):
        if out is None:
            if isinstance(x, ndarray):
                r = x._binary(op, y)
            elif isinstance(y, ndarray):
                r = y._binary(op, x, reflected=True)
            else:
                r = NotImplemented
            if r is NotImplemented:
                raise TypeError(f"{op}: expected legato arrays or numbers")
            return r
        out = _array(out, op)
        if out._origin is not None and not out._origin[2]:
            raise _unsupported(f"{op} into out= a column of a 2-D array (reading a column "
                               "copies it, so the array would not change); assign the "
                               "result instead: a[:, j] = x + y")
        if x is out:
            out._in_place(op, y)  # np.add(b, 2, out=b): in place, no temporary
        elif isinstance(x, ndarray) and isinstance(y, ndarray):
            _core.into(op, x._core, y._core, out._core)
        elif isinstance(x, ndarray):
            out._core.assign(x._core)
            out._in_place(op, y)
        else:
            raise _unsupported(f"{op} of a number and an array into out=")
        return out

    apply.__name__ = op
    return apply


add = _ufunc("add")
subtract = _ufunc("subtract")
multiply = _ufunc("multiply")
divide = _ufunc("divide")
true_divide = divide


def less(x, y):
    return _array(x, "less") < y


def greater(x, y):
    return _array(x, "greater") > y


def logical_and(x, y):
    return _array(x, "logical_and") & y


def logical_or(x, y):
    return _array(x, "logical_or") | y


def logical_not(x):
    return ~_array(x, "logical_not")


def negative(x):
    return -_array(x, "negative")


def sqrt(x):
    if isinstance(x, Scalar):
        return Scalar(_core.scalar_sqrt(x._value))
    if isinstance(x, ndarray):
        return ndarray(_core.unary("sqrt", x._core))
    return _numpy.sqrt(x)


def absolute(x):
    return _builtins.abs(x)


abs = absolute  # noqa: A001 (numpy's name)


def where(condition, x=None, y=None):
    if x is None and y is None:
        return nonzero(condition)
    condition = _array(condition, "where")
    if isinstance(x, ndarray) and isinstance(y, ndarray):
        return ndarray(_core.where(condition._core, x._core, y._core))
    floats = isinstance(x, (float, _numpy.floating)) or isinstance(y, (float, _numpy.floating))
    xv, yv = _value_of(x, as_float=floats), _value_of(y, as_float=floats)
    if xv is not None and yv is not None:
        # int64 when both are integers, else float64 (as NumPy's)
        return ndarray(_core.where(condition._core, xv, yv))
    raise _unsupported("where with one array and one scalar (make both arrays)")


def putmask(a, mask, values):
    a, mask = _array(a, "putmask"), _array(mask, "putmask")
    if isinstance(values, ndarray):
        _core.putmask(a._core, mask._core, values._core)
    else:
        if _value_of(values, as_float=True) is None:
            raise TypeError("putmask: values must be a legato array or a number")
        _core.putmask(a._core, mask._core, _element_value(values, a.dtype, "putmask"))


def nonzero(a):
    """The positions of the true (non-zero) elements, as a tuple of one int64
    array (1-D arrays)."""
    a = _array(a, "nonzero")
    if a.ndim != 1:
        raise _unsupported("nonzero of a 2-D array")
    return (ndarray(_core.nonzero(a._core)),)


def sum(a, axis=None):  # noqa: A001 (numpy's name)
    return _array(a, "sum").sum(axis)


def dot(a, b):
    a, b = _array(a, "dot"), _array(b, "dot")
    if a.ndim == 1 and b.ndim == 1:
        return Scalar(a._core.dot(b._core))
    if a.ndim == 2 and b.ndim == 1:
        return ndarray(_core.matvec(a._core, b._core))
    raise _unsupported(f"dot of {a.ndim}-D and {b.ndim}-D arrays")


def matmul(a, b):
    a, b = _array(a, "matmul"), _array(b, "matmul")
    if a.ndim == 2 and b.ndim == 1:
        return ndarray(_core.matvec(a._core, b._core))
    raise _unsupported(f"matmul of {a.ndim}-D and {b.ndim}-D arrays")


def _inexact(x, what):
    """An operand of isclose as NumPy takes it: a float legato array (an
    integer or bool one converted to float64, host data copied in) or a
    Python float."""
    if isinstance(x, ndarray):
        return x if x.dtype.kind == "f" else x.astype(float64)
    if isinstance(x, Scalar):
        return float(x)
    if isinstance(x, (bool, int, float, _numpy.generic)):
        return float(x)
    try:
        return _inexact(asarray(x), what)
    except (TypeError, ValueError, NotImplementedError):
        raise TypeError(f"{what}: expected legato arrays or numbers, not "
                        f"{type(x).__name__}") from None


def _isnan(x):
    return x != x


def _isfinite(x):
    return absolute(x) < _numpy.inf  # False for NaN and infinities


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Where |a - b| <= atol + rtol * |b| for finite elements; infinities are
    close only to themselves, and NaN to nothing (to NaN with equal_nan), as
    in NumPy. A bool array (a NumPy bool for two numbers)."""
    a, b = _inexact(a, "isclose"), _inexact(b, "isclose")
    if not isinstance(a, ndarray) and not isinstance(b, ndarray):
        return _numpy.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if isinstance(a, ndarray) and isinstance(b, ndarray) and a.dtype != b.dtype:
        a, b = a.astype(float64), b.astype(float64)
    rtol, atol = float(rtol), float(atol)
    finite = _isfinite(a) & _isfinite(b) if isinstance(a, ndarray) else _isfinite(b) & _isfinite(a)
    close = (absolute(a - b) <= atol + rtol * absolute(b)) & finite
    close = close | (a == b)  # infinities of one sign
    if equal_nan:
        close = close | (_isnan(a) & _isnan(b) if isinstance(a, ndarray) else
                         _isnan(b) & _isnan(a))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether isclose(a, b) everywhere (waits for the result): a NaN is close
    to nothing, unless equal_nan and both are NaN."""
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not isinstance(close, ndarray):
        return bool(_numpy.all(close))
    return int((~close).sum()) == 0


def copy(a):
    return _array(a, "copy").copy()


def __getattr__(name):
    raise AttributeError(f"legato.numpy does not support {name} (module 'legato.numpy' has no "
                         f"attribute {name!r})")

"""legato.numpy: NumPy's interface on Legato arrays, for the programs of
cuPyNumeric users (`import legato.numpy as np`). What is not supported raises
NotImplementedError naming it, never a wrong answer."""
import builtins as _builtins

import numpy as _numpy

from .. import _core
from . import random
from ._dtypes import bool_, float32, float64, int64
from ._ndarray import ndarray
from ._scalar import Scalar, _value_of

bool8 = bool_
newaxis = None
pi = _numpy.pi
e = _numpy.e


def _unsupported(what):
    return NotImplementedError(f"legato.numpy does not support {what}")


def _shape(shape, what):
    if isinstance(shape, (int, _numpy.integer)):
        return int(shape), -1
    shape = tuple(shape)
    if len(shape) == 1:
        return int(shape[0]), -1
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    raise _unsupported(f"{what} of {len(shape)} dimensions")


def _code(dtype, what):
    from ._dtypes import code_of

    return code_of(dtype, what)


def _create(how, shape, dtype):
    rows, cols = _shape(shape, how)
    return ndarray(_core.create(how, rows, cols, _code(dtype, how)))


def empty(shape, dtype=float64):
    return _create("empty", shape, dtype)


def zeros(shape, dtype=float64):
    return _create("zeros", shape, dtype)


def ones(shape, dtype=float64):
    return _create("ones", shape, dtype)


def full(shape, fill_value, dtype=None):
    value = _value_of(fill_value)
    if value is None:
        raise TypeError(f"full: fill_value must be a number, not {type(fill_value).__name__}")
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, Scalar) else _numpy.array(fill_value).dtype
    rows, cols = _shape(shape, "full")
    return ndarray(_core.full(rows, cols, value, _code(dtype, "full")))


def empty_like(a, dtype=None):
    if dtype is not None and _numpy.dtype(dtype) != a.dtype:
        return empty(a.shape, dtype)
    return ndarray(_core.empty_like(_array(a, "empty_like")._core))


def zeros_like(a, dtype=None):
    return zeros(a.shape, a.dtype if dtype is None else dtype)


def ones_like(a, dtype=None):
    return ones(a.shape, a.dtype if dtype is None else dtype)


def arange(stop, dtype=int64):
    if not isinstance(stop, (int, _numpy.integer)):
        raise _unsupported("arange with start, step or a non-integer stop")
    return ndarray(_core.create("arange", int(stop), -1, _code(dtype, "arange")))


def eye(n, dtype=float64):
    return ndarray(_core.create("eye", int(n), -1, _code(dtype, "eye")))


def diag(a, k=0):
    return ndarray(_core.diag(_array(a, "diag")._core, int(k)))


def asarray(a, dtype=None):
    """A legato array as itself (or converted to dtype); host data (lists,
    NumPy arrays, numbers) copied into a new one of NumPy's dtype for it."""
    if isinstance(a, ndarray):
        return a if dtype is None else a.astype(dtype, copy=False)
    host = _numpy.asarray(a) if dtype is None else _numpy.asarray(a, dtype=dtype)
    if host.ndim not in (1, 2):
        raise _unsupported(f"arrays of {host.ndim} dimensions")
    code = _code(host.dtype, "array")
    if host.dtype.kind == "i" and host.size and int(_numpy.abs(host).max()) > 2**53:
        raise _unsupported("int64 values beyond 2**53 from host data")
    return ndarray(_core.from_values(host.astype(_numpy.float64), code))


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
    xv, yv = _value_of(x), _value_of(y)
    if xv is not None and yv is not None:
        return ndarray(_core.where(condition._core, xv, yv))
    raise _unsupported("where with one array and one scalar (make both arrays)")


def putmask(a, mask, values):
    a, mask = _array(a, "putmask"), _array(mask, "putmask")
    if isinstance(values, ndarray):
        _core.putmask(a._core, mask._core, values._core)
    else:
        v = _value_of(values)
        if v is None:
            raise TypeError(f"putmask: values must be a legato array or a number")
        _core.putmask(a._core, mask._core, v)


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


def allclose(a, b, rtol=1e-05, atol=1e-08):
    """Whether |a - b| <= atol + rtol * |b| everywhere (waits for the result)."""
    a, b = _array(a, "allclose"), _array(b, "allclose")
    excess = absolute(a - b) - (absolute(b) * rtol + atol)
    return bool(excess.max().item() <= 0)


def copy(a):
    return _array(a, "copy").copy()


def __getattr__(name):
    raise AttributeError(f"legato.numpy does not support {name} (module 'legato.numpy' has no "
                         f"attribute {name!r})")

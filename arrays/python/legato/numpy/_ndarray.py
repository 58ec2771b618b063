"""legato.numpy.ndarray: a deferred 1-D or 2-D array with NumPy's semantics for
the operations it supports. Operations become runtime tasks and return at
once; reading values back (printing, item(), numpy.asarray) waits for them."""
import numpy as _numpy

from .. import _core
from . import _dtypes, _shapes
from ._scalar import INT64_MAX, INT64_MIN, Scalar, _value_of, is_float_value, is_integer

_COMPARISONS = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")
_ARITHMETIC = ("add", "subtract", "multiply", "divide")


def _unsupported(what):
    return NotImplementedError(f"legato.numpy does not support {what}")


class ndarray:
    """Create arrays with legato.numpy's functions (zeros, ones, random.random,
    ...), not with this constructor."""

    __slots__ = ("_c", "_origin")
    __array_priority__ = 100  # a NumPy array on the left defers to us

    def __init__(self, core):
        self._c = core
        # (array, key, view) when this is a[key]: view when it shares a's
        # storage, else a copy of its values (a column, which is strided).
        self._origin = None

    @property
    def _core(self):
        return self._c

    # --- what it is ---

    @property
    def shape(self):
        return tuple(self._core.shape)

    @property
    def ndim(self):
        return self._core.ndim

    @property
    def size(self):
        return self._core.size

    @property
    def dtype(self):
        return _numpy.dtype(_dtypes.dtype_of(self._core.dtype))

    def __len__(self):
        return self.shape[0]

    # --- conversions (these wait for the data) ---

    def __array__(self, dtype=None):
        a = self._core.to_numpy()
        return a if dtype is None else a.astype(dtype)

    def tolist(self):
        return self.__array__().tolist()

    def item(self, *index):
        if index:
            return self[index if len(index) > 1 else index[0]].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.__array__().reshape(-1)[0].item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. "
                "Use a.any() or a.all()")
        return bool(self.item())

    def __repr__(self):
        return repr(self.__array__())

    def __str__(self):
        return str(self.__array__())

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # --- new arrays from this one ---

    def astype(self, dtype, copy=True):
        code = _dtypes.code_of(dtype, "astype")
        if code == self._core.dtype and not copy:
            return self
        return ndarray(self._core.astype(code))

    def copy(self):
        return ndarray(self._core.copy())

    def reshape(self, *shape):
        if len(shape) == 1 and not is_integer(shape[0]):
            shape = shape[0]  # reshape((2, 3)) as reshape(2, 3)
        dims = _shapes.new_shape(shape, self.size)
        if len(dims) == 1:
            return ndarray(self._core.flatten())
        return ndarray(self._core.reshape(*dims))

    def flatten(self):
        return ndarray(self._core.flatten())

    ravel = flatten

    # --- reductions: deferred scalars ---

    def sum(self, axis=None):
        if axis is not None:
            raise _unsupported("sum along an axis")
        return Scalar(self._core.sum())

    def min(self, axis=None):
        if axis is not None:
            raise _unsupported("min along an axis")
        return Scalar(self._core.min())

    def max(self, axis=None):
        if axis is not None:
            raise _unsupported("max along an axis")
        return Scalar(self._core.max())

    def mean(self, axis=None):
        if axis is not None:
            raise _unsupported("mean along an axis")
        return self.sum() / self.size

    def dot(self, other):
        from . import dot

        return dot(self, other)

    # --- arithmetic ---

    def _binary(self, op, other, reflected=False):
        if isinstance(other, ndarray):
            a, b = (other._core, self._core) if reflected else (self._core, other._core)
            return ndarray(_core.binary(op, a, b))
        kind = self.dtype.kind
        if kind in "ib" and op in _COMPARISONS and _beyond_int64(other):
            return _compare_with_beyond(self, op, int(other))
        value = _value_of(other, as_float=kind == "f")
        if value is None:
            if isinstance(other, _numpy.ndarray):
                raise TypeError(
                    f"{op} of a legato array and a NumPy array: both must be legato arrays")
            return NotImplemented
        me = self
        bool_scalar = isinstance(other, (bool, _numpy.bool_))
        if kind in "ib" and is_float_value(value):
            # An integer or bool array with a float: NumPy computes in float64.
            me = self.astype(_numpy.float64)
        elif kind == "b" and not bool_scalar and op in _COMPARISONS + _ARITHMETIC:
            me = self.astype(_numpy.int64)  # bool with an integer: in int64
        if reflected:
            return ndarray(_core.binary(op, value, me._core))
        return ndarray(_core.binary(op, me._core, value))

    def _in_place(self, op, other):
        if isinstance(other, ndarray):
            _check_in_place(op, self.dtype, other.dtype)
            self._core.in_place(op, other._core)
            return self
        value = _value_of(other, as_float=self.dtype.kind == "f")
        if value is None:
            return NotImplemented
        _check_in_place(op, self.dtype, _numpy.dtype(_dtypes.dtype_of(value.dtype)))
        self._core.in_place(op, value)
        return self

    def __add__(self, o):
        return self._binary("add", o)

    def __radd__(self, o):
        return self._binary("add", o, True)

    def __sub__(self, o):
        return self._binary("subtract", o)

    def __rsub__(self, o):
        return self._binary("subtract", o, True)

    def __mul__(self, o):
        return self._binary("multiply", o)

    def __rmul__(self, o):
        return self._binary("multiply", o, True)

    def __truediv__(self, o):
        return self._binary("divide", o)

    def __rtruediv__(self, o):
        return self._binary("divide", o, True)

    def __lt__(self, o):
        return self._binary("less", o)

    def __le__(self, o):
        return self._binary("less_equal", o)

    def __gt__(self, o):
        return self._binary("greater", o)

    def __ge__(self, o):
        return self._binary("greater_equal", o)

    def __eq__(self, o):
        return self._binary("equal", o)

    def __ne__(self, o):
        return self._binary("not_equal", o)

    __hash__ = None

    def __and__(self, o):
        return self._binary("logical_and", o)

    __rand__ = __and__

    def __or__(self, o):
        return self._binary("logical_or", o)

    __ror__ = __or__

    def __invert__(self):
        return ndarray(_core.unary("invert", self._core))

    def __neg__(self):
        return ndarray(_core.unary("negative", self._core))

    def __pos__(self):
        return self

    def __abs__(self):
        return ndarray(_core.unary("absolute", self._core))

    def __matmul__(self, o):
        from . import matmul

        return matmul(self, o)

    def __iadd__(self, o):
        return self._in_place("add", o)

    def __isub__(self, o):
        return self._in_place("subtract", o)

    def __imul__(self, o):
        return self._in_place("multiply", o)

    def __itruediv__(self, o):
        return self._in_place("divide", o)

    # --- indexing ---

    def __getitem__(self, key):
        index = _index_array(key)
        if index is not None:
            return _Indexed(self, index)
        v = _view(self, key)
        if isinstance(v, ndarray):
            v._origin = (self, key, _is_view(self, key))
        return v

    def __setitem__(self, key, value):
        index = _index_array(key)
        if index is not None:
            if isinstance(value, _Indexed) and value._applied_to(self, index):
                return  # a[i] += v updated a in place already
            if isinstance(value, ndarray):
                self._core.set_index(index._core, value._core)
            else:
                self._core.set_index(index._core, element_value(value, self.dtype, "assignment"))
            return
        if isinstance(value, ndarray) and value._origin is not None and (
                value._origin[0] is self and value._origin[1] == key and value._origin[2]):
            return  # a[s] -= v updated the view a[s] in place already
        # a[:, j] -= v updated a copy of the column: written back below.
        target = _view(self, key, for_writing=True)
        if isinstance(value, ndarray):
            if target.ndim == 2 and value.ndim == 1 and value.size == target.size:
                value = ndarray(value._core.reshape(*target.shape))  # a[i, :] = row
            target._core.assign(value._core)
        else:
            target._core.assign(element_value(value, self.dtype, "assignment"))

    def stencil_hint(self, low_offsets, high_offsets):
        """cuPyNumeric's hint: the operations to come touch up to low_offsets[d]
        elements before and high_offsets[d] after what they work on, so the
        array's first instance is made that much larger."""
        self._core.stencil_hint(list(low_offsets), list(high_offsets))


class _Indexed(ndarray):
    """a[index] for an index array or a boolean mask: read as an array (a
    gather, done when first used), or updated in place (a[mask] += v is one
    masked task, no gather or scatter)."""

    __slots__ = ("_target", "_index", "_done")

    def __init__(self, target, index):
        super().__init__(None)
        self._target = target
        self._index = index
        self._done = False

    @property
    def _core(self):
        if self._c is None:
            self._c = self._target._core.get_index(self._index._core)
        return self._c

    def _applied_to(self, target, index):
        return self._done and self._target is target and self._index is index

    def _update(self, op, other):
        target = self._target.dtype
        if isinstance(other, ndarray):
            _check_in_place(op, target, other.dtype)
            operand = other._core
        else:
            operand = _scalar_value(other, op, as_float=target.kind == "f")
            _check_in_place(op, target, _numpy.dtype(_dtypes.dtype_of(operand.dtype)))
        self._target._core.update_index(self._index._core, op, operand)
        self._c = None  # what a later read sees is the updated array
        self._done = True
        return self

    def __iadd__(self, o):
        return self._update("add", o)

    def __isub__(self, o):
        return self._update("subtract", o)

    def __imul__(self, o):
        return self._update("multiply", o)

    def __itruediv__(self, o):
        return self._update("divide", o)


def _scalar_value(value, what, as_float=False):
    v = _value_of(value, as_float)
    if v is None:
        raise TypeError(f"{what}: expected a legato array or a number, not {type(value).__name__}")
    return v


def element_value(value, dtype, what):
    """A number as an element of dtype, as NumPy's assignment converts it: a
    float into an int64 array is truncated, and NaN, infinities and numbers
    out of int64's range are errors there (never a wrong element)."""
    if dtype.kind == "i" and isinstance(value, (float, _numpy.floating)):
        f = float(value)
        if f != f:
            raise ValueError(f"{what}: cannot convert float NaN to integer")
        if f in (float("inf"), float("-inf")):
            raise OverflowError(f"{what}: cannot convert float infinity to integer")
        value = int(f)
        if not INT64_MIN <= value <= INT64_MAX:
            raise OverflowError(f"{what}: Python int too large to convert to int64")
    return _scalar_value(value, what, as_float=dtype.kind in "fb")


def _check_in_place(op, target, operand):
    """NumPy's same-kind rule for a OP= b: an int64 array cannot take a float
    result (a float operand, or true division)."""
    if target.kind == "i" and (operand.kind == "f" or op == "divide"):
        raise TypeError(f"Cannot cast ufunc '{op}' output from dtype('float64') to "
                        f"dtype('{target}') with casting rule 'same_kind'")


def _beyond_int64(x):
    return is_integer(x) and not INT64_MIN <= int(x) <= INT64_MAX


def _compare_with_beyond(a, op, big):
    """a OP big for an integer array and an integer out of int64's range: the
    same for every element (as NumPy 2 answers it)."""
    bigger = big > 0  # than every element
    truth = {"less": bigger, "less_equal": bigger, "greater": not bigger,
             "greater_equal": not bigger, "equal": False, "not_equal": True}[op]
    return ndarray(_core.full(list(a.shape), _core.Value(int(truth)),
                              _dtypes.code_of(_numpy.bool_, op)))


def _index_array(key):
    """The index array or boolean mask of a[key] (a tuple from nonzero holds
    one), or None for slices and integers."""
    if isinstance(key, tuple) and len(key) == 1 and isinstance(key[0], ndarray):
        key = key[0]
    if isinstance(key, ndarray):
        if key.dtype.kind not in "bi":
            raise IndexError("arrays used as indices must be of integer or boolean type")
        return key
    if isinstance(key, (list, _numpy.ndarray)):
        raise _unsupported("indexing with a list or a NumPy array (use a legato array)")
    return None


def _bounds(s, n, what):
    if isinstance(s, slice):
        if s.step not in (None, 1):
            raise _unsupported(f"slices with a step ({what})")
        lo, hi, _ = s.indices(n)
        return lo, max(lo, hi), False
    if isinstance(s, (int, _numpy.integer)) and not isinstance(s, bool):
        i = int(s)
        if i < -n or i >= n:
            raise IndexError(f"index {i} is out of bounds for axis {what} with size {n}")
        i %= n
        return i, i + 1, True
    raise _unsupported(f"indexing with {type(s).__name__}")


def _is_view(a, key):
    """Whether a[key] (integers and slices) shares a's storage: all but a
    column of a 2-D array, whose strided values a read copies."""
    if a.ndim != 2 or not isinstance(key, tuple) or len(key) != 2:
        return True
    rows, col = key
    return not (isinstance(col, (int, _numpy.integer)) and not isinstance(rows, (int, _numpy.integer)))


def _view(a, key, for_writing=False):
    """a[key] for integers and slices: a view sharing a's storage (an integer
    in every axis reads the element)."""
    if not isinstance(key, tuple):
        key = (key,)
    if len(key) > a.ndim:
        raise IndexError(
            f"too many indices for array: array is {a.ndim}-dimensional, but {len(key)} were indexed")
    if a.ndim == 1:
        lo, hi, single = _bounds(key[0], a.shape[0], 0)
        v = ndarray(a._core.slice(lo, hi))
        if single and not for_writing:
            return v.__array__()[0]
        return v
    key = key + (slice(None),) * (2 - len(key))
    r0, r1, row = _bounds(key[0], a.shape[0], 0)
    c0, c1, col = _bounds(key[1], a.shape[1], 1)
    v = ndarray(a._core.view(r0, r1, c0, c1))
    if for_writing:
        return v  # __setitem__ shapes the values to the view
    if row and col:
        return v.__array__()[0, 0]
    if row:
        return ndarray(v._core.flatten())  # a row is contiguous: still a view
    if col:
        return ndarray(v._core.copy().flatten())  # a column is strided: its values
    return v

"""A deferred scalar: the result of a reduction (sum, dot, ...), known once the
tasks producing it have run. Arithmetic with other scalars stays deferred;
reading it (float(), item(), printing, comparing) waits for it."""
import numpy as _numpy

from .. import _core
from . import _dtypes


class Scalar:
    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value

    @property
    def dtype(self):
        return _dtypes.dtype_of(self._value.dtype)

    def item(self):
        v = self._value.item()  # an int for int64 values: exact
        kind = self.dtype.kind
        return bool(v) if kind == "b" else int(v) if kind == "i" else float(v)

    def __float__(self):
        return float(self._value.item())

    def __int__(self):
        return int(self._value.item())

    def __bool__(self):
        return bool(self._value.item())

    def __index__(self):
        if self.dtype.kind not in "ib":
            raise TypeError(f"a {self.dtype} scalar cannot be an index")
        return int(self._value.item())

    def __repr__(self):
        return repr(self.dtype.type(self.item()))

    __str__ = __repr__

    def _binary(self, op, other, reflected):
        from ._ndarray import ndarray

        if isinstance(other, ndarray):
            return NotImplemented
        value = _value_of(other, as_float=self.dtype.kind == "f")
        if value is None:
            return NotImplemented
        a, b = (value, self._value) if reflected else (self._value, value)
        return Scalar(_core.scalar_binary(op, a, b))

    def __add__(self, o):
        return self._binary("add", o, False)

    def __radd__(self, o):
        return self._binary("add", o, True)

    def __sub__(self, o):
        return self._binary("subtract", o, False)

    def __rsub__(self, o):
        return self._binary("subtract", o, True)

    def __mul__(self, o):
        return self._binary("multiply", o, False)

    def __rmul__(self, o):
        return self._binary("multiply", o, True)

    def __truediv__(self, o):
        return self._binary("divide", o, False)

    def __rtruediv__(self, o):
        return self._binary("divide", o, True)

    def __neg__(self):
        return Scalar(_core.scalar_binary("multiply", self._value, _core.Value(-1)))

    def __lt__(self, o):
        return self.item() < _plain(o)

    def __le__(self, o):
        return self.item() <= _plain(o)

    def __gt__(self, o):
        return self.item() > _plain(o)

    def __ge__(self, o):
        return self.item() >= _plain(o)

    def __eq__(self, o):
        return self.item() == _plain(o)

    def __ne__(self, o):
        return self.item() != _plain(o)

    __hash__ = None


def _plain(x):
    return x.item() if isinstance(x, Scalar) else x


FLOAT64 = _dtypes.code_of(_numpy.float64, "")
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def is_integer(x):
    """Whether x is a Python or NumPy integer (bools included)."""
    return isinstance(x, (int, _numpy.integer, _numpy.bool_))


def _value_of(x, as_float=False):
    """A runtime Value for a Python or NumPy number or a Scalar; None otherwise.
    Integers and bools are int64 values, exactly; floats are float64. An
    integer out of int64's range raises OverflowError, unless as_float (it
    meets a float, as NumPy converts it then)."""
    if isinstance(x, Scalar):
        return x._value
    if is_integer(x):
        i = int(x)
        if INT64_MIN <= i <= INT64_MAX:
            return _core.Value(i)
        if as_float:
            return _core.Value(float(i))
        raise OverflowError(f"Python integer {i} out of bounds for int64")
    if isinstance(x, (float, _numpy.floating)):
        return _core.Value(float(x))
    return None


def is_float_value(v):
    return v.dtype == FLOAT64

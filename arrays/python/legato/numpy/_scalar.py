"""A deferred scalar: the result of a reduction (sum, dot, ...), known once the
tasks producing it have run. Arithmetic with other scalars stays deferred;
reading it (float(), item(), printing, comparing) waits for it."""
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
        v = self._value.item()
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
        value = _value_of(other)
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
        return Scalar(_core.scalar_binary("multiply", self._value, _core.Value(-1.0)))

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


def _value_of(x):
    """A runtime Value for a Python or NumPy number or a Scalar; None otherwise."""
    if isinstance(x, Scalar):
        return x._value
    if isinstance(x, (bool, int, float)):
        return _core.Value(float(x))
    try:
        import numpy

        if isinstance(x, numpy.generic) and x.dtype.kind in "biuf":
            return _core.Value(float(x))
    except ImportError:  # pragma: no cover
        pass
    return None

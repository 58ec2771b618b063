"""The element types Legato arrays hold, as NumPy's dtype objects."""
import numpy as _numpy

float32 = _numpy.float32
float64 = _numpy.float64
int64 = _numpy.int64
bool_ = _numpy.bool_

_CODES = {
    _numpy.dtype("float32"): 0,
    _numpy.dtype("float64"): 1,
    _numpy.dtype("int64"): 2,
    _numpy.dtype("bool"): 3,
}
_DTYPES = {code: dtype for dtype, code in _CODES.items()}


def code_of(dtype, what):
    """The runtime's code for a dtype (anything numpy.dtype accepts)."""
    try:
        d = _numpy.dtype(dtype)
    except TypeError:
        raise TypeError(f"{what}: {dtype!r} is not a data type") from None
    if d not in _CODES:
        raise NotImplementedError(
            f"{what}: dtype {d} is not supported (float32, float64, int64 and bool are)")
    return _CODES[d]


def dtype_of(code):
    return _DTYPES[code]

"""Shape arguments as NumPy checks them: integers (operator.index), no
negative dimension, at most NumPy's 32 dimensions, of which legato.numpy
supports one or two; reshape's one unknown dimension (-1). What is too big
for the runtime (more than 2**63 - 1 bytes) is refused by the array
library with NumPy's "array is too big"."""
import operator as _operator

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
_MAXDIMS = 32  # NumPy's


def _unsupported(what):
    return NotImplementedError(f"legato.numpy does not support {what}")


def dim(d, what):
    """One dimension: a non-negative integer that fits int64."""
    try:
        n = _operator.index(d)
    except TypeError:
        raise TypeError(
            f"{what}: '{type(d).__name__}' object cannot be interpreted as an integer") from None
    if n < 0:
        raise ValueError(f"{what}: negative dimensions are not allowed")
    if n > INT64_MAX:
        raise ValueError(f"{what}: maximum allowed dimension exceeded ({n})")
    return n


def _dims(shape, what):
    """The dimensions of a shape argument: an integer or a sequence of them."""
    if isinstance(shape, (str, bytes)):
        raise TypeError(f"{what}: '{type(shape).__name__}' object cannot be interpreted as an "
                        "integer")
    try:
        return (_operator.index(shape),)
    except TypeError:
        pass
    try:
        dims = tuple(shape)
    except TypeError:
        raise TypeError(f"{what}: expected a sequence of integers or a single integer, not "
                        f"{type(shape).__name__}") from None
    if len(dims) > _MAXDIMS:
        raise ValueError(
            f"{what}: maximum supported dimension for an ndarray is {_MAXDIMS}, found {len(dims)}")
    return dims


def shape_of(shape, what):
    """A shape argument (n, (n,), (rows, cols)) as a tuple of one or two
    checked dimensions."""
    dims = tuple(dim(d, what) for d in _dims(shape, what))
    if len(dims) not in (1, 2):
        raise _unsupported(f"{what} of {len(dims)} dimensions (arrays have 1 or 2)")
    return dims


def new_shape(shape, size):
    """reshape's argument for an array of `size` elements, with its one
    unknown dimension (-1) worked out."""
    dims = []
    for d in _dims(shape, "reshape"):
        try:
            dims.append(_operator.index(d))
        except TypeError:
            raise TypeError(f"reshape: '{type(d).__name__}' object cannot be interpreted as an "
                            "integer") from None
    text = "(" + ",".join("newaxis" if d == -1 else str(d) for d in dims) + ")"
    if dims.count(-1) > 1:
        raise ValueError("reshape: can only specify one unknown dimension")
    if any(d < -1 for d in dims):
        raise ValueError(f"reshape: negative dimensions are not allowed (only one -1, for the "
                         f"unknown dimension), got {tuple(dims)}")
    if any(d > INT64_MAX for d in dims):
        raise ValueError("reshape: maximum allowed dimension exceeded")
    if len(dims) not in (1, 2):
        raise _unsupported(f"arrays of {len(dims)} dimensions (arrays have 1 or 2)")
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    if -1 in dims:
        if known == 0 or size % known != 0:
            raise ValueError(f"cannot reshape array of size {size} into shape {text}")
        dims[dims.index(-1)] = size // known
    elif known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {text}")
    return tuple(dims)

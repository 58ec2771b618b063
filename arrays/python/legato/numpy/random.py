"""legato.numpy.random: uniform random arrays from the runtime's counter-based
generator. A seed gives the same numbers as the C++ Generator with that seed;
without one, LEGATO_SEED (if set) seeds every generator, else the OS does."""
import operator as _operator
import os as _os

from .. import _core
from . import _dtypes, _shapes
from ._ndarray import ndarray


def _seed_or_default(seed):
    if seed is not None:
        try:
            seed = _operator.index(seed)
        except TypeError:
            raise TypeError(f"seed must be an integer, not {type(seed).__name__}") from None
        if not 0 <= seed < 2**64:
            raise ValueError(f"seed must be a non-negative integer below 2**64, not {seed}")
        return seed
    env = _os.environ.get("LEGATO_SEED")
    if env is not None:
        try:
            seed = int(env)
        except ValueError:
            raise ValueError(f"LEGATO_SEED must be an integer, not {env!r}") from None
        return _seed_or_default(seed)
    return int.from_bytes(_os.urandom(8), "little")


class Generator:
    """What default_rng() returns: random(size, dtype=float64)."""

    def __init__(self, seed=None):
        self._g = _core.Generator(_seed_or_default(seed))

    def random(self, size=None, dtype=_dtypes.float64, out=None):
        if size is None or out is not None:
            raise NotImplementedError("legato.numpy: Generator.random needs a size (and no out)")
        dims = _shapes.shape_of(size, "Generator.random")
        code = _dtypes.code_of(dtype, "Generator.random")
        if code > 1:
            raise TypeError(f"Generator.random: dtype must be float32 or float64, not {dtype}")
        return ndarray(self._g.random(list(dims), code))


def default_rng(seed=None):
    return Generator(seed)


_global = None


def seed(value=None):
    global _global
    _global = Generator(value)


def random(size=None):
    """Uniform floats in [0, 1) from the module's generator (float64)."""
    global _global
    if _global is None:
        _global = Generator()
    return _global.random(size)


random_sample = random

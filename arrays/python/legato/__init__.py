"""Legato: NumPy-style arrays on a task-based runtime that profiles itself.

    import legato.numpy as np

Importing legato starts the runtime from LEGATE_CONFIG (as `legate` sets it);
the runtime finishes, and writes its traces, when the interpreter exits.
"""
import atexit as _atexit
import os as _os

# NumPy, which legato.numpy builds on, is imported before the runtime starts:
# its import (0.1-0.2 s) is not the program's work, and would otherwise sit
# at the start of the top-level task with nothing to show for it.
import numpy as _numpy  # noqa: F401

from . import _core

# As bytes: the package may live in a directory whose name is not UTF-8.
_core.set_package_dir(_os.fsencode(_os.path.dirname(_os.path.abspath(__file__))))
_core.start()
_atexit.register(_core.finish)

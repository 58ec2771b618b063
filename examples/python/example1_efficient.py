# The seeds' Example 1, efficient version, as printed but for the first line
# (and N from the command line, the checksum and time printed at the end):
#   legate --cpus 4 --profile example1_efficient.py [N]
import sys
import time

import legato.numpy as np

start = time.perf_counter()

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
rng = np.random.default_rng()
x = rng.random(N, dtype=np.float32)
y = rng.random(N, dtype=np.float32)

# In-place sum without a temporary
z = np.empty_like(x)
np.add(x, y, out=z)

# Conditional overwrite with a boolean mask (faster than nonzero + scatter)
cond = (x < 0.25) & (y > 0.5)
np.putmask(z, cond, x * y + 1.0)

# Wide masked updates, in-place
gt1 = z > 1.0
z[gt1]  += 2.0
z[~gt1] -= 2.0

checksum = float(z.sum())
print(f"checksum = {checksum:.6f} over {N} elements")
print(f"time = {(time.perf_counter() - start) * 1e3:.1f} ms")

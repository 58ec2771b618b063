# The seeds' Example 1, inefficient version, as printed but for the first
# line (and N from the command line, the checksum and time printed at the end):
#   legate --cpus 4 --profile example1_inefficient.py [N]
import sys
import time

import legato.numpy as np

start = time.perf_counter()

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
x = np.random.random(N).astype(np.float32)
y = np.random.random(N).astype(np.float32)

# advanced indexing, extra comms/overhead
cond_idx = np.nonzero((x < 0.25) & (y > 0.5))

# extra temporaries
z     = x + y
z_alt = x * y + 1.0

# scatter writeback through indices (slower than boolean mask)
z[cond_idx] = z_alt[cond_idx]

# tiny chunked updates, lots of tiny tasks
CHUNK = 4096
for s in range(0, N, CHUNK):
    sub = z[s:s+CHUNK]
    gt1 = sub > 1.0
    sub[gt1]  = sub[gt1]  + 2.0
    sub[~gt1] = sub[~gt1] - 2.0

checksum = float(z.sum())
print(f"checksum = {checksum:.6f} over {N} elements")
print(f"time = {(time.perf_counter() - start) * 1e3:.1f} ms")

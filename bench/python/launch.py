"""Issues COUNT in-place additions on a small legato array from Python and
prints the time per operation: issuing only, then until all have run
(bench_python runs it next to the same loop in C++)."""
import sys
import time

import legato.numpy as np

count = int(sys.argv[1])
a = np.zeros(16)
for _ in range(200):
    a += 1.0
float(a.sum())
t0 = time.perf_counter()
for _ in range(count):
    a += 1.0
issued = time.perf_counter()
float(a.sum())
done = time.perf_counter()
print(f"issue_us {(issued - t0) / count * 1e6:.4f}")
print(f"total_us {(done - t0) / count * 1e6:.4f}")

#!/usr/bin/env bash
# The GPU checks, on a machine with an NVIDIA GPU and a CUDA build:
#   scripts/gpu_check.sh [BUILD_DIR [OUT_DIR]]
# runs the GPU tests (ctest -L gpu), bench_gpu, and the seed workloads with
# --gpus 1 --profile on one rank and on four ranks sharing the GPU, writing
# their traces and reports under OUT_DIR (default gpu_check/). Exits non-zero
# when a test, the benchmark or a workload fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -d "$build" ] || { echo "gpu_check.sh: no build directory at $build: build first (scripts/build.sh)" >&2; exit 2; }
build=$(cd "$build" && pwd)
out=${2:-gpu_check}
bin=$build/bin
for b in legate legate_prof bench_gpu vectorized_update chunked_update cg; do
  [ -x "$bin/$b" ] || { echo "gpu_check.sh: $bin/$b is missing: build first (scripts/build.sh)" >&2; exit 2; }
done
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
mkdir -p "$out"
status=0
step() {
  echo "== $*"
  "$@" || { echo "FAILED: $*"; status=1; }
}
bench=$("$bin/bench_gpu" --runs 5) || status=1
echo "$bench"
if grep -q "no usable GPU" <<<"$bench"; then
  echo "gpu_check.sh: nothing to check here: ${bench#bench_gpu: }" >&2
  exit 2
fi
step ctest --test-dir "$build" -L gpu --output-on-failure
for p in vectorized_update chunked_update cg; do
  args=()
  [ "$p" = cg ] && args=(--check)
  step "$bin/legate" --cpus 4 --gpus 1 --profile --profile-report 0 --logdir "$out/${p}_1gpu" \
    "$bin/$p" "${args[@]}"
  step "$bin/legate" --ranks-per-node 4 --launcher mpirun --cpus 2 --utility 1 --gpus 1 \
    --fbmem 4096 --profile --profile-report 0 --logdir "$out/${p}_4ranks" "$bin/$p" "${args[@]}"
  for run in "$out/${p}_1gpu" "$out/${p}_4ranks"; do
    step "$bin/legate_prof" archive "$run"/legate_*.prof -o "$run/legate_prof"
  done
done
exit $status

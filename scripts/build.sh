#!/usr/bin/env bash
# Configures and builds Legato in build/ (binaries in build/bin/).
#   scripts/build.sh [BUILD_DIR [CMAKE_ARGS...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"

#!/usr/bin/env bash
# Installs the Debian packages Legato needs that are missing (as root, or
# through sudo). Nothing is downloaded from anywhere but the Debian mirrors.
#   scripts/install-deps.sh           build, run and test
#   scripts/install-deps.sh --fuzz    also clang 14 with libFuzzer
set -euo pipefail

packages=(
  build-essential cmake pkg-config ccache
  libzstd-dev zlib1g-dev libisal-dev libcli11-dev nlohmann-json3-dev catch2
  libimgui-dev libglfw3-dev
  libopenmpi-dev openmpi-bin
  libopen-trace-format2-dev
  xvfb xauth libgl1-mesa-dri chromium firefox-esr
  python3-dev pybind11-dev python3-numpy fonts-dejavu-core
)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang-14 libfuzzer-14-dev libclang-rt-14-dev)
elif [ -n "${1:-}" ]; then
  echo "install-deps.sh: unknown option '$1' (expected nothing or --fuzz)" >&2
  exit 2
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "install-deps.sh: these packages are missing and installing them needs root: ${missing[*]}" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs the Debian 12 packages Walrus builds and tests with (or the ones
# given as arguments), when any is missing. Runs as root (or through sudo);
# a no-op once everything is there.
set -euo pipefail

packages=(
  cmake ninja-build ccache
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libclang-rt-22-dev clang-format-22
  python3 pybind11-dev python3-pybind11 python3-pytest python3-matplotlib python3-numpy
)
[ $# -gt 0 ] && packages=("$@")

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q "${missing[@]}"

#!/usr/bin/env bash
# Installs what ptxvm needs to build and test on a fresh Debian machine, then configures and
# builds it in build/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in cmake ninja-build g++ clang libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev liblzma-dev \
           libzstd-dev liblz4-dev pkg-config \
           python3-pip; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi
python3 -m pip install -q --root-user-action=ignore -r tests/requirements.txt
# The Triton backend's tests need PyTorch and Triton (several GB with PyTorch's CUDA libraries):
# installed when PTXVM_WITH_TRITON=1 (CI sets it), skipped otherwise. PyTorch pins an older Triton;
# the backend is tested with Triton 3.9.
if [ "${PTXVM_WITH_TRITON:-0}" = 1 ]; then
  python3 -m pip install -q --root-user-action=ignore torch
  python3 -m pip install -q --root-user-action=ignore "triton==3.9.*"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

#!/usr/bin/env bash
# What a cross build for TARGET needs (docs/arm64.md), installed once:
#   scripts/install_target_deps.sh aarch64
#   1. the host's own packages (scripts/install_deps.sh: flatc and the rest;
#      the host's XNNPACK is not built, EMBER_SKIP_HOST_XNNPACK=1), the cross
#      compiler and QEMU user-mode emulation from the distribution;
#   2. the target's Debian libraries in <deps>/sysroot
#      (scripts/fetch_target_sysroot.sh; the host's packages are unchanged);
#   3. the target's XNNPACK in <deps>/prefix (scripts/build_xnnpack.sh --toolchain).
# <deps> is .deps/<target> (or $EMBER_TARGET_DEPS_DIR). Prints the toolchain file.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  aarch64) triple=aarch64-linux-gnu; host_packages=(g++-aarch64-linux-gnu qemu-user) ;;
  *) echo "install_target_deps: usage: $0 aarch64" >&2; exit 2 ;;
esac
toolchain="$PWD/cmake/toolchains/$triple.cmake"

EMBER_SKIP_HOST_XNNPACK=1 scripts/install_deps.sh >&2
scripts/apt_install.sh "${host_packages[@]}" >&2
scripts/build_xnnpack.sh --toolchain "$toolchain" >&2
echo "$toolchain"

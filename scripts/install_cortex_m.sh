#!/usr/bin/env bash
# Installs what Cortex-M builds and their emulated runs need, from the
# distribution (Debian/Ubuntu): the arm-none-eabi GCC with newlib and its
# C++ library, QEMU's system emulator for ARM boards, and the host's
# flatbuffers (flatc and the header-only library every target reads).
# Idempotent: installs nothing when all are present.
set -euo pipefail
packages=(cmake make gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
          qemu-system-arm flatbuffers-compiler libflatbuffers-dev)
"$(dirname "$0")/apt_install.sh" "${packages[@]}"

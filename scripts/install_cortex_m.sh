#!/usr/bin/env bash
# Installs what Cortex-M builds and their emulated runs need, from the
# distribution (Debian/Ubuntu): the arm-none-eabi GCC with newlib and its
# C++ library, QEMU's system emulator for ARM boards, and the host's
# flatbuffers (flatc and the header-only library every target reads).
# Idempotent: installs nothing when all are present.
set -euo pipefail
packages=(cmake make gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
          qemu-system-arm flatbuffers-compiler libflatbuffers-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if command -v cmake >/dev/null 2>&1; then missing=("${missing[@]/cmake}"); fi
read -r -a missing <<<"${missing[*]}"
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

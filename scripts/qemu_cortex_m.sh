#!/usr/bin/env bash
# Runs a bare-metal Cortex-M ELF on QEMU's board for that core, with
# semihosting (the program's output on this terminal, its files read from
# this machine, its exit status returned):
#
#   scripts/qemu_cortex_m.sh [--cpu cortex-m55|cortex-m4|cortex-m33] APP.elf [ARGS...]
#
# cortex-m55: mps3-an547 (default); cortex-m4: mps2-an386; cortex-m33:
# mps2-an505. ctest uses it as CMAKE_CROSSCOMPILING_EMULATOR
# (cmake/toolchains/arm-none-eabi.cmake). EMBER_QEMU_TIMEOUT (seconds,
# default 600) bounds a run.
set -euo pipefail
cpu=cortex-m55
if [ "${1:-}" = "--cpu" ]; then cpu="$2"; shift 2; fi
case "$cpu" in
  cortex-m55) board=mps3-an547 ;;
  cortex-m4) board=mps2-an386 ;;
  cortex-m33) board=mps2-an505 ;;
  *) echo "qemu_cortex_m.sh: unknown --cpu '$cpu' (cortex-m55, cortex-m4, cortex-m33)" >&2; exit 2 ;;
esac
[ $# -ge 1 ] || { echo "usage: qemu_cortex_m.sh [--cpu CPU] APP.elf [ARGS...]" >&2; exit 2; }
command -v qemu-system-arm >/dev/null ||
  { echo "qemu_cortex_m.sh: qemu-system-arm not found (Debian: qemu-system-arm)" >&2; exit 2; }
# The program's argv over semihosting; a comma inside a value is doubled.
config="enable=on,target=native"
for arg in "$@"; do
  config+=",arg=${arg//,/,,}"
done
exec timeout "${EMBER_QEMU_TIMEOUT:-600}" qemu-system-arm -M "$board" -nographic -monitor none \
  -serial none -semihosting -semihosting-config "$config" -kernel "$1"

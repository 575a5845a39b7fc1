#!/usr/bin/env bash
# Installs those of the given distribution packages (Debian/Ubuntu) that are
# missing, with sudo when not root; prints and does nothing when all are
# there. `cmake` counts as present when a cmake is on PATH (pip's, say).
# Used by install_deps.sh, install_cortex_m.sh and install_target_deps.sh.
#   scripts/apt_install.sh PACKAGE...
set -euo pipefail
missing=()
for p in "$@"; do
  if [ "$p" = cmake ] && command -v cmake >/dev/null 2>&1; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# Installs the distribution packages Ember builds against (Debian/Ubuntu).
# Idempotent: prints nothing and installs nothing when all are present.
set -euo pipefail

packages=(
  cmake g++ make
  flatbuffers-compiler libflatbuffers-dev   # schema readers (flatc at build time)
  libgtest-dev                              # test harness
  libgflags-dev                             # executor_runner command line
  nlohmann-json3-dev                        # JSON reports in tools
  libxnnpack-dev libcpuinfo-dev libpthreadpool-dev  # XNNPACK delegate, thread pool
  libbenchmark-dev                          # benchmarks
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# cmake may come from elsewhere (pip); only require the Debian one if absent.
if command -v cmake >/dev/null 2>&1; then
  missing=("${missing[@]/cmake}")
fi
read -r -a missing <<<"${missing[*]}"
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

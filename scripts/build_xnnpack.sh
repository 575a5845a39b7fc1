#!/usr/bin/env bash
# Builds the modern XNNPACK the delegate needs (with cpuinfo and pthreadpool)
# from Debian's own source packages, pinned in third-party/xnnpack-deps.txt,
# into a prefix outside the build folders, shared by every build of Ember:
#
#   ${EMBER_DEPS_DIR:-<repo>/.deps}/xnnpack-<hash of the pins>/
#
# and points <deps>/prefix at it. Nothing is done when that prefix is
# complete, or when the distribution's own libxnnpack-dev is the pinned
# version or newer (Debian 13 and later): CMake then finds the system one.
#
# Download: a private apt configuration with deb-src entries for trixie and
# sid (the archive keyring checks the indexes; the system's apt sources are
# untouched, no root needed), then the .orig tarballs only (Debian serves no
# .debian parts for these), each checked against its pinned sha256.
#
# Build: cpuinfo and pthreadpool as static PIC libraries, then XNNPACK
# (static, PIC, only the production microkernels for the host architecture:
# no tests, no benchmarks, no XNNPACK_BUILD_ALL_MICROKERNELS), all with
# clang (EMBER_XNNPACK_CC to override), as upstream builds XNNPACK: GCC 12
# spills an accumulator of the f32 5x16 FMA3 GEMM microkernel to the stack
# inside its inner loop, which made MobileNetV2 1.9x slower on an AVX2
# machine. The compiler's version is part of the prefix's name.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
pins="$repo/third-party/xnnpack-deps.txt"
deps="${EMBER_DEPS_DIR:-$repo/.deps}"
jobs="${EMBER_JOBS:-$(nproc)}"

say() { echo "build_xnnpack: $*" >&2; }
die() { say "error: $*"; exit 1; }

# ---- 1. The distribution's own package, when it is new enough. ----------
wanted_xnnpack_version() {
  awk '$1 == "xnnpack" { f = $3; sub(/^xnnpack_/, "", f); sub(/\.orig\.tar\..*$/, "", f); print f }' "$pins"
}
system_xnnpack_is_new_enough() {
  local have
  have="$(dpkg-query -W -f='${Version}' libxnnpack-dev 2>/dev/null || true)"
  [ -n "$have" ] && dpkg --compare-versions "$have" ge "$(wanted_xnnpack_version)"
}
if [ "${EMBER_XNNPACK_FROM_SOURCE:-0}" != 1 ] && system_xnnpack_is_new_enough; then
  exit 0
fi

# ---- 2. The prefix for these pins, when already built. ------------------
cc="${EMBER_XNNPACK_CC:-clang}"
case "$cc" in
  clang) cxx=clang++ ;;
  gcc) cxx=g++ ;;
  *) cxx="${EMBER_XNNPACK_CXX:-$cc}" ;;
esac
command -v "$cc" >/dev/null || die "$cc not found (scripts/install_deps.sh installs clang)"
pin_hash="$( (grep -v '^#' "$pins"; "$cc" --version | head -1) | sha256sum | cut -c1-12)"
prefix="$deps/xnnpack-$pin_hash"
if [ -f "$prefix/.complete" ]; then
  ln -sfn "$(basename "$prefix")" "$deps/prefix"
  exit 0
fi

start=$(date +%s)
say "building XNNPACK, cpuinfo and pthreadpool into $prefix (one time; see README)"
work="$deps/work-$pin_hash"
rm -rf "$work" "$prefix"
mkdir -p "$work/apt/lists/partial" "$work/dl" "$work/src"

# ---- 3. Download the pinned .orig tarballs through the package registry. -
apt_opts=(
  -o "Dir::Etc::SourceList=$work/apt/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$work/apt/lists"
  -o "Dir::Cache=$work/apt/cache"
  -o "Debug::NoLocking=1"
)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring is missing (Debian's debian-archive-keyring package)"
mirror="${EMBER_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
{
  echo "deb-src [signed-by=$keyring] $mirror sid main"
  echo "deb-src [signed-by=$keyring] $mirror trixie main"
} >"$work/apt/sources.list"
mkdir -p "$work/apt/cache"
apt-get "${apt_opts[@]}" -qq update || die "could not read the source indexes from $mirror"

fetch_orig() {  # package file sha256
  local pkg="$1" file="$2" sum="$3" uris url
  uris="$(apt-get "${apt_opts[@]}" source --print-uris "$pkg" 2>/dev/null || true)"
  # Every source version the archive lists, not only the newest.
  for v in $(apt-cache "${apt_opts[@]}" showsrc "$pkg" 2>/dev/null | awk '/^Version:/ {print $2}'); do
    uris+=$'\n'"$(apt-get "${apt_opts[@]}" source --print-uris "$pkg=$v" 2>/dev/null || true)"
  done
  url="$(printf '%s\n' "$uris" | tr -d "'" | awk -v f="$file" '$2 == f { print $1; exit }')"
  if [ -z "$url" ]; then
    say "error: wanted $file (sha256 $sum) for $pkg; the archive serves:"
    printf '%s\n' "$uris" | tr -d "'" | awk '$2 ~ /\.orig\.tar\./ { print "  " $2 }' | sort -u >&2
    die "update the $pkg line of third-party/xnnpack-deps.txt (file and sha256) to one of those"
  fi
  curl -fsSL --retry 3 -o "$work/dl/$file" "$url" || die "download failed: $url"
  local got
  got="$(sha256sum "$work/dl/$file" | cut -d' ' -f1)"
  [ "$got" = "$sum" ] || die "$file: sha256 $got, pinned $sum (third-party/xnnpack-deps.txt)"
  mkdir -p "$work/src/$pkg"
  tar -xf "$work/dl/$file" -C "$work/src/$pkg"
}
while read -r pkg _suite file sum; do
  case "$pkg" in ''|'#'*) continue ;; esac
  fetch_orig "$pkg" "$file" "$sum"
done <"$pins"

# The tarballs unpack with or without a top-level folder.
source_dir() {
  local d="$work/src/$1"
  if [ -f "$d/CMakeLists.txt" ]; then echo "$d"; else dirname "$(ls "$d"/*/CMakeLists.txt | head -1)"; fi
}

# ---- 4. Build. ------------------------------------------------------------
common=(-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx"
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib
        -DCMAKE_C_FLAGS=-w -DCMAKE_CXX_FLAGS=-w)
build_one() {  # name source-dir cmake-args...
  local name="$1" src="$2"; shift 2
  say "  $name"
  cmake -S "$src" -B "$work/build/$name" "${common[@]}" "$@" >"$work/$name.log" 2>&1 \
    || { tail -30 "$work/$name.log" >&2; die "configuring $name failed (log: $work/$name.log)"; }
  cmake --build "$work/build/$name" -j "$jobs" >>"$work/$name.log" 2>&1 \
    || { tail -30 "$work/$name.log" >&2; die "building $name failed (log: $work/$name.log)"; }
  cmake --install "$work/build/$name" >>"$work/$name.log" 2>&1 || die "installing $name failed"
}
build_one cpuinfo "$(source_dir cpuinfo)" -DCPUINFO_LIBRARY_TYPE=static \
  -DCPUINFO_BUILD_UNIT_TESTS=OFF -DCPUINFO_BUILD_MOCK_TESTS=OFF \
  -DCPUINFO_BUILD_BENCHMARKS=OFF -DCPUINFO_BUILD_TOOLS=OFF
build_one pthreadpool "$(source_dir pthreadpool)" -DPTHREADPOOL_LIBRARY_TYPE=static \
  -DPTHREADPOOL_BUILD_TESTS=OFF -DPTHREADPOOL_BUILD_BENCHMARKS=OFF \
  -DFXDIV_SOURCE_DIR="$repo/third-party/fxdiv-shim"
build_one xnnpack "$(source_dir xnnpack)" -DXNNPACK_LIBRARY_TYPE=static \
  -DXNNPACK_USE_SYSTEM_LIBS=ON -DCPUINFO_SOURCE_DIR="$prefix" \
  -DPTHREADPOOL_SOURCE_DIR="$prefix" -DFXDIV_SOURCE_DIR=/usr \
  -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF \
  -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF -DXNNPACK_ENABLE_KLEIDIAI=OFF

cp "$pins" "$prefix/xnnpack-deps.txt"
touch "$prefix/.complete"
ln -sfn "$(basename "$prefix")" "$deps/prefix"
rm -rf "$work"
say "done in $(( $(date +%s) - start )) s"

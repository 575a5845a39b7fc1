#!/usr/bin/env bash
# Builds the modern XNNPACK the delegate needs (with cpuinfo and pthreadpool)
# from Debian's own source packages, pinned in third-party/xnnpack-deps.txt,
# into a prefix outside the build folders, shared by every build of Ember:
#
#   ${EMBER_DEPS_DIR:-<repo>/.deps}/xnnpack-<hash of the pins>/
#
# and points <deps>/prefix at it. Nothing is done when that prefix is
# complete, or when the distribution's own libxnnpack-dev is newer than
# the pinned version: CMake then finds the system one.
#
# Patches: third-party/patches/<package>-*.patch are applied to that pinned
# source before the build (each file says what it changes and why; today
# XNNPACK's memory planner and pthreadpool's concurrent callers); their
# text is part of the prefix's hash, so a changed patch rebuilds.
#
# Download: a private apt configuration with deb-src entries for trixie and
# sid (the archive keyring checks the indexes; the system's apt sources are
# untouched, no root needed), then the .orig tarballs only (Debian serves no
# .debian parts for these), each checked against its pinned sha256.
#
# Build: cpuinfo and pthreadpool as static PIC libraries, then XNNPACK
# (static, PIC, only the production microkernels for the host architecture:
# no tests, no benchmarks, no XNNPACK_BUILD_ALL_MICROKERNELS), with the
# distribution's gcc (EMBER_XNNPACK_CC), as upstream's own packages are.
# One family of microkernels comes from clang instead: GCC 12 spills an
# accumulator of the f32 FMA3 GEMM/IGEMM kernels (XNNPACK's fp32 path on
# AVX2 machines) to the stack inside their inner loop, which made
# MobileNetV2 1.9x and ResNet-18 2.5x slower; clang keeps them in
# registers. Those objects are compiled a second time with clang and
# replace gcc's in libmicrokernels-prod.a (EMBER_XNNPACK_SWAP_KERNELS,
# empty to keep gcc's). Not clang for everything: clang 14 compiles the
# AVX2 int8 GEMMs worse (ResNet-18 int8 1.32x slower) and XNNPACK's CMake
# leaves out its AVX-VNNI and AVX256 kernels below clang 15. Both
# compilers' versions are part of the prefix's name.
#
# Cross mode, for another target (docs/arm64.md):
#   scripts/build_xnnpack.sh --toolchain cmake/toolchains/aarch64-linux-gnu.cmake \
#                            [--deps DIR]
# builds the same pins with the toolchain file's compiler into DIR (default:
# <repo>/.deps/<toolchain name minus its first dash part and .cmake>, i.e.
# .deps/aarch64, or $EMBER_TARGET_DEPS_DIR), after scripts/fetch_target_sysroot.sh
# has unpacked the target's Debian libraries into DIR/sysroot. Never the
# distribution's package, no clang swap (the swapped kernels are x86's), and
# XNNPACK's production microkernels for that architecture with its defaults:
# on aarch64, NEON, NEON-FMA, NEON-v8, dot-product, i8mm, fp16 arithmetic,
# bf16 and the AArch64 assembly GEMMs (KleidiAI off, as on the host).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
pins="$repo/third-party/xnnpack-deps.txt"
deps="${EMBER_DEPS_DIR:-$repo/.deps}"
jobs="${EMBER_JOBS:-$(nproc)}"

say() { echo "build_xnnpack: $*" >&2; }
die() { say "error: $*"; exit 1; }

toolchain=
while [ $# -gt 0 ]; do
  case "$1" in
    --toolchain) toolchain="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --deps) deps_arg="$2"; shift 2 ;;
    *) die "unknown argument: $1" ;;
  esac
done
if [ -n "$toolchain" ]; then
  [ -f "$toolchain" ] || die "no toolchain file $toolchain"
  triple="$(basename "$toolchain" .cmake)"
  deps="${deps_arg:-${EMBER_TARGET_DEPS_DIR:-$repo/.deps/${triple%%-*}}}"
  mkdir -p "$deps"
  deps="$(cd "$deps" && pwd)"
  "$repo/scripts/fetch_target_sysroot.sh" "$deps"
elif [ -n "${deps_arg:-}" ]; then
  deps="$deps_arg"
fi

# ---- 1. The distribution's own package, when it is new enough. ----------
wanted_xnnpack_version() {
  awk '$1 == "xnnpack" { f = $3; sub(/^xnnpack_/, "", f); sub(/\.orig\.tar\..*$/, "", f); print f }' "$pins"
}
system_xnnpack_is_new_enough() {
  local have
  have="$(dpkg-query -W -f='${Version}' libxnnpack-dev 2>/dev/null || true)"
  # Strictly newer: the pinned snapshot carries Ember's patches
  # (third-party/patches/), which the same version from the archive lacks.
  [ -n "$have" ] && dpkg --compare-versions "$have" gt "$(wanted_xnnpack_version)"
}
if [ -z "$toolchain" ] && [ "${EMBER_XNNPACK_FROM_SOURCE:-0}" != 1 ] && system_xnnpack_is_new_enough; then
  exit 0
fi

# ---- 2. The prefix for these pins, when already built. ------------------
cc="${EMBER_XNNPACK_CC:-gcc}"
[ -z "$toolchain" ] || cc="$triple-gcc"
case "$cc" in
  clang) cxx=clang++ ;;
  gcc) cxx=g++ ;;
  *-gcc) cxx="${cc%gcc}g++" ;;
  *) cxx="${EMBER_XNNPACK_CXX:-$cc}" ;;
esac
command -v "$cc" >/dev/null || die "$cc not found"
swap_cc=clang
swap_kernels="${EMBER_XNNPACK_SWAP_KERNELS-f32-gemm-*-fma3-*.c.o f32-igemm-*-fma3-*.c.o}"
[ -z "$toolchain" ] || swap_kernels=
if [ -n "$swap_kernels" ]; then
  command -v "$swap_cc" >/dev/null || die "$swap_cc not found (scripts/install_deps.sh installs it)"
fi
pin_hash="$( (grep -v '^#' "$pins"; cat "$repo"/third-party/patches/*.patch 2>/dev/null;
              "$cc" --version | head -1;
              [ -z "$swap_kernels" ] || { "$swap_cc" --version | head -1; echo "$swap_kernels"; }) |
             sha256sum | cut -c1-12)"
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

# Ember's changes to the pinned sources (third-party/patches/<package>-*.patch,
# each says why).
for p in "$repo"/third-party/patches/*.patch; do
  [ -e "$p" ] || continue
  pkg="$(basename "$p")"; pkg="${pkg%%-*}"
  say "  applying $(basename "$p") to $pkg"
  patch -p1 -s -d "$(source_dir "$pkg")" <"$p" ||
    die "third-party/patches/$(basename "$p") does not apply to the pinned $pkg ($(awk -v p="$pkg" '$1 == p {print $3}' "$pins"))"
done

# ---- 4. Build. ------------------------------------------------------------
if [ -n "$toolchain" ]; then
  compilers=(-DCMAKE_TOOLCHAIN_FILE="$toolchain" -DEMBER_TARGET_DEPS="$deps")
else
  compilers=(-DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx")
fi
# Through ccache when installed, paths relative to the repository: a fresh
# clone on the same machine rebuilds these pins in about a minute.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER="env;CCACHE_BASEDIR=$repo;CCACHE_NOHASHDIR=true;ccache"
            -DCMAKE_CXX_COMPILER_LAUNCHER="env;CCACHE_BASEDIR=$repo;CCACHE_NOHASHDIR=true;ccache")
fi
common=("${compilers[@]}" "${launcher[@]}"
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
xnnpack_args=(-DXNNPACK_LIBRARY_TYPE=static
  -DXNNPACK_USE_SYSTEM_LIBS=ON -DCPUINFO_SOURCE_DIR="$prefix"
  -DPTHREADPOOL_SOURCE_DIR="$prefix" -DFXDIV_SOURCE_DIR=/usr
  -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF
  -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF -DXNNPACK_ENABLE_KLEIDIAI=OFF)
build_one xnnpack "$(source_dir xnnpack)" "${xnnpack_args[@]}"

# The f32 FMA3 GEMM microkernels from clang (see the top of this file).
if [ -n "$swap_kernels" ]; then
  say "  xnnpack f32 FMA3 GEMM microkernels ($swap_cc)"
  sdir="$work/build/xnnpack-$swap_cc"
  cmake -S "$(source_dir xnnpack)" -B "$sdir" "${common[@]}" -DCMAKE_C_COMPILER="$swap_cc" \
    -DCMAKE_CXX_COMPILER="$swap_cc++" "${xnnpack_args[@]}" >"$work/xnnpack-swap.log" 2>&1 \
    || { tail -30 "$work/xnnpack-swap.log" >&2; die "configuring xnnpack with $swap_cc failed"; }
  # Only the objects we take (make's per-object targets), not the library.
  objs=()
  for pattern in $swap_kernels; do
    while IFS= read -r src; do
      rel="${src#"$(source_dir xnnpack)/"}"
      cmake --build "$sdir" --target "$rel.o" >>"$work/xnnpack-swap.log" 2>&1 ||
        make -C "$sdir" -f CMakeFiles/microkernels-prod.dir/build.make \
          "CMakeFiles/microkernels-prod.dir/$rel.o" >>"$work/xnnpack-swap.log" 2>&1 ||
        die "compiling $rel with $swap_cc failed (log: $work/xnnpack-swap.log)"
      objs+=("$sdir/CMakeFiles/microkernels-prod.dir/$rel.o")
    done < <(ar t "$prefix/lib/libmicrokernels-prod.a" | grep -x "$(echo "$pattern" | sed 's/\./\\./g; s/\*/.*/g')" |
             sed 's/\.o$//' | while read -r c; do find "$(source_dir xnnpack)/src" -name "$c"; done)
  done
  [ ${#objs[@]} -gt 0 ] || die "no microkernel matched: $swap_kernels"
  # Same member names: ar r replaces gcc's objects with these.
  ar r "$prefix/lib/libmicrokernels-prod.a" "${objs[@]}" 2>>"$work/xnnpack-swap.log"
  ranlib "$prefix/lib/libmicrokernels-prod.a"
  say "    ${#objs[@]} objects from $swap_cc"
fi

cp "$pins" "$prefix/xnnpack-deps.txt"
touch "$prefix/.complete"
ln -sfn "$(basename "$prefix")" "$deps/prefix"
rm -rf "$work"
say "done in $(( $(date +%s) - start )) s"

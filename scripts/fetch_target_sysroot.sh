#!/usr/bin/env bash
# Unpacks the target's Debian libraries that Ember builds against into a
# build-local sysroot, for a cross build (cmake/toolchains/*.cmake):
#
#   scripts/fetch_target_sysroot.sh [DEPS_DIR] [DEBIAN_ARCH]
#       DEPS_DIR     default: <repo>/.deps/aarch64 (or $EMBER_TARGET_DEPS_DIR)
#       DEBIAN_ARCH  default: arm64
#
# gives DEPS_DIR/sysroot/usr/{include,lib/<triple>}. The host's packages are
# never changed: gflags is not multi-arch (libgflags-dev:arm64 would remove
# the host's), so nothing is installed. A private apt configuration (its own
# sources list, indexes and cache under DEPS_DIR/apt, APT::Architecture set
# to the target; the archive keyring checks the indexes; no root needed)
# downloads the .debs with `apt-get download`, and `dpkg -x` unpacks them.
# The suite is the host's own release, so the target's flatbuffers headers
# match the host's flatc. Nothing is done when the sysroot for this package
# list is complete.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
deps="${1:-${EMBER_TARGET_DEPS_DIR:-$repo/.deps/aarch64}}"
arch="${2:-arm64}"

say() { echo "fetch_target_sysroot: $*" >&2; }
die() { say "error: $*"; exit 1; }

# The packages, for the target architecture: headers, static or shared
# libraries and their CMake packages. flatbuffers-compiler-dev is left out
# on purpose: its FlatcTargets.cmake would name the target's flatc.
packages=(
  libflatbuffers-dev libflatbuffers2        # schema readers (headers; flatc is the host's)
  libgtest-dev libgmock-dev                 # test harness
  libgflags-dev libgflags2.2                # executor_runner command line
  nlohmann-json3-dev                        # JSON reports in tools
  libfxdiv-dev                              # header pthreadpool builds against
  libbenchmark-dev libbenchmark1debian      # benchmarks
)

. /etc/os-release
suite="${EMBER_DEBIAN_SUITE:-${VERSION_CODENAME:-}}"
[ -n "$suite" ] || die "cannot tell the host's Debian release (set EMBER_DEBIAN_SUITE)"
stamp="$(printf '%s\n' "$suite" "$arch" "${packages[@]}" | sha256sum | cut -c1-12)"
sysroot="$deps/sysroot"
if [ "$(cat "$sysroot/.complete" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

start=$(date +%s)
say "unpacking Debian $suite $arch libraries into $sysroot"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring is missing (Debian's debian-archive-keyring package)"
mirror="${EMBER_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
apt_dir="$deps/apt"
rm -rf "$apt_dir" "$sysroot"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs" "$sysroot"
echo "deb [arch=$arch signed-by=$keyring] $mirror $suite main" >"$apt_dir/sources.list"
apt_opts=(
  -o "APT::Architecture=$arch"
  -o "APT::Architectures::=$arch"
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::State::Status=/dev/null"
  -o "Dir::Cache=$apt_dir/cache"
  -o "Debug::NoLocking=1"
)
apt-get "${apt_opts[@]}" -qq update || die "could not read the $arch indexes from $mirror"
(cd "$apt_dir/debs" && apt-get "${apt_opts[@]}" -qq download "${packages[@]/%/:$arch}") \
  || die "apt-get download failed"
for deb in "$apt_dir/debs"/*.deb; do
  dpkg -x "$deb" "$sysroot"
done
# Debian's CMake packages and .so links are relative or rooted at /usr:
# the toolchain file's CMAKE_FIND_ROOT_PATH re-roots them under sysroot/.
echo "$stamp" >"$sysroot/.complete"
say "done in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Installs the distribution packages Ember builds against (Debian/Ubuntu),
# then the modern XNNPACK (scripts/build_xnnpack.sh: the distribution's
# own libxnnpack-dev when it is the pinned version or newer, else built
# once from Debian's pinned source packages into .deps/).
# Idempotent: prints nothing and installs nothing when all are present.
set -euo pipefail

packages=(
  cmake g++ make
  flatbuffers-compiler libflatbuffers-dev   # schema readers (flatc at build time)
  libgtest-dev                              # test harness
  libgflags-dev                             # executor_runner command line
  nlohmann-json3-dev                        # JSON reports in tools
  libfxdiv-dev                              # header pthreadpool builds against
  curl xz-utils debian-archive-keyring      # fetching XNNPACK's source packages
  patch                                     # third-party/patches/ (build_xnnpack.sh)
  clang                                     # XNNPACK's f32 GEMM kernels (build_xnnpack.sh)
  libbenchmark-dev                          # benchmarks
  libsentencepiece-dev                      # LLM tokenizers: SentencePiece .model
  libpcre2-dev                              # LLM tokenizers: tiktoken / tokenizer.json regexes
  libstb-dev                                # LLM runner: PNG, JPEG and BMP decoding (stb_image)
  ccache                                    # compiler cache (CMakeLists.txt, build_xnnpack.sh)
  glslc libvulkan-dev                       # Vulkan delegate: shaders and headers at build time
  libvulkan1 mesa-vulkan-drivers            # a Vulkan device on any machine (lavapipe) for its tests
)

# A distribution that ships an XNNPACK newer than the pinned one: take it
# (with its cpuinfo and pthreadpool) instead of building. The pinned
# version itself is built, with Ember's patches (third-party/patches/).
pinned_xnnpack="$(awk '$1 == "xnnpack" { f = $3; sub(/^xnnpack_/, "", f); sub(/\.orig\.tar\..*$/, "", f); print f }' \
  "$(dirname "$0")/../third-party/xnnpack-deps.txt")"
candidate="$(apt-cache policy libxnnpack-dev 2>/dev/null | awk '/Candidate:/ {print $2}')"
if [ -n "$candidate" ] && [ "$candidate" != "(none)" ] &&
   dpkg --compare-versions "$candidate" gt "$pinned_xnnpack"; then
  packages+=(libxnnpack-dev libcpuinfo-dev libpthreadpool-dev)
fi

# A cross build (scripts/install_target_deps.sh) takes only the host's
# packages: its XNNPACK is the target's.
"$(dirname "$0")/apt_install.sh" "${packages[@]}"
if [ "${EMBER_SKIP_HOST_XNNPACK:-0}" = 1 ]; then exit 0; fi
exec "$(dirname "$0")/build_xnnpack.sh"

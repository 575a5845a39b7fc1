# Cross build for 64-bit ARM Linux (aarch64-linux-gnu) with Debian's
# g++-aarch64-linux-gnu; test binaries run through qemu-aarch64.
#
#   cmake -S . -B build-aarch64 \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#
# Where the target's libraries come from (docs/arm64.md):
#   - the cross compiler's C and C++ libraries: /usr/aarch64-linux-gnu;
#   - EMBER_TARGET_DEPS (default: <source>/.deps/aarch64, or the environment's
#     EMBER_TARGET_DEPS_DIR): sysroot/ holds Debian's arm64 packages that
#     scripts/fetch_target_sysroot.sh unpacks there (flatbuffers, googletest,
#     gflags, benchmark, nlohmann-json, fxdiv), and prefix/ the XNNPACK that
#     scripts/build_xnnpack.sh --toolchain builds.
# Programs (flatc) come from the host; libraries, headers and CMake packages
# only from those folders.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(EMBER_TARGET_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${EMBER_TARGET_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${EMBER_TARGET_TRIPLE}-g++)

if(NOT EMBER_TARGET_DEPS)
  if(DEFINED ENV{EMBER_TARGET_DEPS_DIR})
    set(EMBER_TARGET_DEPS "$ENV{EMBER_TARGET_DEPS_DIR}")
  else()
    get_filename_component(EMBER_TARGET_DEPS "${CMAKE_CURRENT_LIST_DIR}/../../.deps/aarch64" ABSOLUTE)
  endif()
endif()
# try_compile projects read this file again: hand them the same folder.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EMBER_TARGET_DEPS)

# Appended: a consumer may name more roots (an installed Ember) with
# -DCMAKE_FIND_ROOT_PATH.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${EMBER_TARGET_TRIPLE} "${EMBER_TARGET_DEPS}/sysroot"
     "${EMBER_TARGET_DEPS}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The sysroot's headers and libraries, for code that includes or links them
# without a find_* result (googletest's and gflags' CMake packages name the
# folders Debian installs them in).
set(_ember_target_sysroot "${EMBER_TARGET_DEPS}/sysroot")
set(CMAKE_C_FLAGS_INIT "-isystem ${_ember_target_sysroot}/usr/include")
set(CMAKE_CXX_FLAGS_INIT "-isystem ${_ember_target_sysroot}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-L${_ember_target_sysroot}/usr/lib/${EMBER_TARGET_TRIPLE} -Wl,-rpath-link,${_ember_target_sysroot}/usr/lib/${EMBER_TARGET_TRIPLE}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${CMAKE_EXE_LINKER_FLAGS_INIT}")

# No binfmt_misc here: ctest and add_custom_command call qemu explicitly.
# LD_LIBRARY_PATH: the sysroot's shared libraries (gflags) for the target's
# loader; qemu -L finds the loader and libc under /usr/aarch64-linux-gnu.
# A cache entry, so that scripts (run_example.sh) read the same command line
# from CMakeCache.txt.
set(CMAKE_CROSSCOMPILING_EMULATOR
    "qemu-aarch64;-L;/usr/${EMBER_TARGET_TRIPLE};-E;LD_LIBRARY_PATH=${_ember_target_sysroot}/usr/lib/${EMBER_TARGET_TRIPLE}"
    CACHE STRING "How the host runs the target's programs")

# Finds the distribution packages Ember builds against. Nothing is vendored:
# scripts/install_deps.sh installs these from the distribution.

# The flatc that matches the headers: the generated code refuses another
# version at compile time, and Python packages (executorch's pip wheel) put
# a flatc of their own first on PATH. The package's own flatbuffers::flatc
# target when there is one, else a flatc whose version the headers state.
if(EMBER_RUNTIME_ONLY)
  # Header only, so the host's headers serve every target (copied below).
  find_path(EMBER_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h REQUIRED
            PATHS /usr/local/include /usr/include NO_CMAKE_FIND_ROOT_PATH)
else()
  find_path(EMBER_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h REQUIRED)
endif()
find_package(FlatBuffers CONFIG QUIET)
if(TARGET flatbuffers::flatc AND NOT EMBER_FLATC)
  get_target_property(EMBER_FLATC flatbuffers::flatc IMPORTED_LOCATION_NONE)
  if(NOT EMBER_FLATC)
    get_target_property(EMBER_FLATC flatbuffers::flatc LOCATION)
  endif()
  set(EMBER_FLATC "${EMBER_FLATC}" CACHE FILEPATH "flatc matching the flatbuffers headers")
endif()
find_program(EMBER_FLATC flatc REQUIRED)
file(STRINGS "${EMBER_FLATBUFFERS_INCLUDE}/flatbuffers/base.h" _ember_fb_ver
     REGEX "#define FLATBUFFERS_VERSION_(MAJOR|MINOR|REVISION) ")
string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*REVISION ([0-9]+).*" "\\1.\\2.\\3"
       _ember_fb_ver "${_ember_fb_ver}")
execute_process(COMMAND "${EMBER_FLATC}" --version OUTPUT_VARIABLE _ember_flatc_ver
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _ember_flatc_ver MATCHES " ${_ember_fb_ver}$")
  message(FATAL_ERROR "${EMBER_FLATC} is '${_ember_flatc_ver}' but the flatbuffers "
          "headers are ${_ember_fb_ver}: pass -DEMBER_FLATC=<the flatc of the same version>")
endif()

# Cross builds see the host's flatbuffers headers through a copy of their
# own folder: putting the host's include directory on a bare-metal target's
# path would mix the host C library's headers into the target's.
if(CMAKE_CROSSCOMPILING AND EMBER_FLATBUFFERS_INCLUDE MATCHES "^/usr(/local)?/include$")
  file(COPY "${EMBER_FLATBUFFERS_INCLUDE}/flatbuffers"
       DESTINATION "${CMAKE_BINARY_DIR}/third-party/include")
  set(EMBER_FLATBUFFERS_INCLUDE "${CMAKE_BINARY_DIR}/third-party/include")
endif()

# The runtime-only configuration (bare metal) needs nothing more.
if(EMBER_RUNTIME_ONLY)
  add_library(ember::pthreadpool INTERFACE IMPORTED)
  return()
endif()

# executor_runner's command line.
find_package(gflags REQUIRED)
# executor_runner's --report (Debian's nlohmann-json3-dev, header only).
find_package(nlohmann_json REQUIRED)

if(EMBER_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# XNNPACK (a 2024-11 snapshot or newer), cpuinfo and pthreadpool, for
# backends/xnnpack and the thread pool every threaded kernel shares.
# Where they come from, in order:
#   1. EMBER_XNNPACK_PREFIX (default: <source>/.deps/prefix, or
#      $EMBER_DEPS_DIR/prefix), the static libraries scripts/build_xnnpack.sh
#      builds from Debian's pinned source packages;
#   2. the system (Debian 13's libxnnpack-dev and newer).
# Either must have the modern API (xnn_reshape_runtime); nothing else in
# Ember depends on which one was found.
set(_ember_deps_default "${PROJECT_SOURCE_DIR}/.deps/prefix")
if(DEFINED ENV{EMBER_DEPS_DIR})
  set(_ember_deps_default "$ENV{EMBER_DEPS_DIR}/prefix")
endif()
# A cross build (cmake/toolchains/): the target's own deps folder, which
# the toolchain file names and scripts/build_xnnpack.sh --toolchain fills.
if(CMAKE_CROSSCOMPILING AND EMBER_TARGET_DEPS)
  set(_ember_deps_default "${EMBER_TARGET_DEPS}/prefix")
endif()
set(EMBER_XNNPACK_PREFIX "${_ember_deps_default}" CACHE PATH
    "Prefix of the XNNPACK that scripts/build_xnnpack.sh builds")
find_package(Threads REQUIRED)
if(EXISTS "${EMBER_XNNPACK_PREFIX}/include/xnnpack.h")
  set(_ember_xnn_hint PATHS "${EMBER_XNNPACK_PREFIX}" NO_DEFAULT_PATH)
  set(EMBER_XNNPACK_SOURCE "built from source (${EMBER_XNNPACK_PREFIX})")
else()
  set(_ember_xnn_hint)
  set(EMBER_XNNPACK_SOURCE "the system's")
endif()
find_path(EMBER_XNNPACK_INCLUDE xnnpack.h PATH_SUFFIXES include ${_ember_xnn_hint})
find_path(EMBER_PTHREADPOOL_INCLUDE pthreadpool.h PATH_SUFFIXES include ${_ember_xnn_hint})
find_library(EMBER_XNNPACK_LIB XNNPACK PATH_SUFFIXES lib ${_ember_xnn_hint})
find_library(EMBER_CPUINFO_LIB cpuinfo PATH_SUFFIXES lib ${_ember_xnn_hint})
find_library(EMBER_PTHREADPOOL_LIB pthreadpool PATH_SUFFIXES lib ${_ember_xnn_hint})
# A static XNNPACK keeps its microkernels in a second archive.
find_library(EMBER_XNNPACK_UKERNELS_LIB microkernels-prod PATH_SUFFIXES lib ${_ember_xnn_hint})
set(_ember_xnn_ok FALSE)
if(EMBER_XNNPACK_INCLUDE AND EMBER_XNNPACK_LIB AND EMBER_CPUINFO_LIB AND
   EMBER_PTHREADPOOL_INCLUDE AND EMBER_PTHREADPOOL_LIB)
  file(STRINGS "${EMBER_XNNPACK_INCLUDE}/xnnpack.h" _ember_xnn_reshape
       REGEX "xnn_reshape_runtime")
  if(_ember_xnn_reshape)
    set(_ember_xnn_ok TRUE)
  endif()
endif()
if(NOT _ember_xnn_ok)
  message(FATAL_ERROR
    "No XNNPACK with the modern API (2024-11 or newer, xnn_reshape_runtime) was "
    "found (looked in ${EMBER_XNNPACK_PREFIX} and the system; found header: "
    "${EMBER_XNNPACK_INCLUDE}). Run scripts/install_deps.sh (it runs "
    "scripts/build_xnnpack.sh, which builds Debian's pinned source packages "
    "into .deps/; scripts/test.sh and scripts/run_example.sh run it for you), "
    "or point EMBER_DEPS_DIR (environment) or -DEMBER_XNNPACK_PREFIX at an "
    "existing build.")
endif()
message(STATUS "XNNPACK: ${EMBER_XNNPACK_SOURCE}: ${EMBER_XNNPACK_LIB}")

add_library(ember::pthreadpool INTERFACE IMPORTED)
target_include_directories(ember::pthreadpool INTERFACE ${EMBER_PTHREADPOOL_INCLUDE})
target_link_libraries(ember::pthreadpool INTERFACE ${EMBER_PTHREADPOOL_LIB} Threads::Threads)

add_library(ember::xnnpack INTERFACE IMPORTED)
target_include_directories(ember::xnnpack INTERFACE ${EMBER_XNNPACK_INCLUDE})
set(_ember_xnn_libs ${EMBER_XNNPACK_LIB})
if(EMBER_XNNPACK_UKERNELS_LIB AND EMBER_XNNPACK_LIB MATCHES "\\.a$")
  list(APPEND _ember_xnn_libs ${EMBER_XNNPACK_UKERNELS_LIB})
endif()
target_link_libraries(ember::xnnpack INTERFACE ${_ember_xnn_libs} ${EMBER_CPUINFO_LIB}
                      ember::pthreadpool m)
# Ember's patch (third-party/patches/xnnpack-isa-cap.patch) lets the CPU
# feature cap (EMBER_CPU_FEATURES) reach XNNPACK's kernel choice; an XNNPACK
# without it (the system's) follows the host's features whatever the cap.
file(STRINGS "${EMBER_XNNPACK_INCLUDE}/xnnpack.h" _ember_xnn_cap REGEX "xnn_ember_cap_isa")
if(_ember_xnn_cap)
  target_compile_definitions(ember::xnnpack INTERFACE EMBER_XNNPACK_HAS_ISA_CAP=1)
else()
  target_compile_definitions(ember::xnnpack INTERFACE EMBER_XNNPACK_HAS_ISA_CAP=0)
  message(WARNING "XNNPACK without Ember's patches: EMBER_CPU_FEATURES caps Ember's own "
                  "kernels only, not XNNPACK's")
endif()

# Finds the distribution packages Ember builds against. Nothing is vendored:
# scripts/install_deps.sh installs these from the distribution.

find_program(EMBER_FLATC flatc REQUIRED)
find_path(EMBER_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h REQUIRED)

# executor_runner's command line.
find_package(gflags REQUIRED)
# executor_runner's --report (Debian's nlohmann-json3-dev, header only).
find_package(nlohmann_json REQUIRED)

if(EMBER_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()

# Thread pool (shared by threaded kernels and the XNNPACK delegate).
find_path(EMBER_PTHREADPOOL_INCLUDE pthreadpool.h REQUIRED)
find_library(EMBER_PTHREADPOOL_LIB pthreadpool REQUIRED)
add_library(ember::pthreadpool INTERFACE IMPORTED)
target_include_directories(ember::pthreadpool INTERFACE ${EMBER_PTHREADPOOL_INCLUDE})
target_link_libraries(ember::pthreadpool INTERFACE ${EMBER_PTHREADPOOL_LIB})

# XNNPACK (Debian's early-2022 snapshot) and cpuinfo, for backends/xnnpack.
find_path(EMBER_XNNPACK_INCLUDE xnnpack.h REQUIRED)
find_library(EMBER_XNNPACK_LIB XNNPACK REQUIRED)
find_library(EMBER_CPUINFO_LIB cpuinfo REQUIRED)
add_library(ember::xnnpack INTERFACE IMPORTED)
target_include_directories(ember::xnnpack INTERFACE ${EMBER_XNNPACK_INCLUDE})
target_link_libraries(ember::xnnpack INTERFACE ${EMBER_XNNPACK_LIB} ${EMBER_CPUINFO_LIB}
                      ember::pthreadpool)

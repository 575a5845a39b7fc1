# Bare-metal Cortex-M with Debian's arm-none-eabi GCC and newlib
# (gcc-arm-none-eabi, libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-newlib).
#
#   cmake -S . -B build-cortex-m55 \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake \
#     [-DEMBER_CORTEX_M_CPU=cortex-m55|cortex-m4|cortex-m33]
#
# or `cmake --preset cortex-m55` (CMakePresets.json). The top-level
# CMakeLists.txt sees CMAKE_SYSTEM_NAME Generic and builds the runtime-only
# configuration (no threads, XNNPACK, gflags, JSON, file or mmap loaders).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(EMBER_CORTEX_M_CPU cortex-m55 CACHE STRING "Cortex-M core to build for")
set_property(CACHE EMBER_CORTEX_M_CPU PROPERTY STRINGS cortex-m55 cortex-m4 cortex-m33)

# One row per core: compiler flags (hard float everywhere; the M55's
# default -mcpu features include Helium/MVE with floating point).
if(EMBER_CORTEX_M_CPU STREQUAL "cortex-m55")
  set(_ember_cpu_flags "-mcpu=cortex-m55 -mfloat-abi=hard")
elseif(EMBER_CORTEX_M_CPU STREQUAL "cortex-m4")
  set(_ember_cpu_flags "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
elseif(EMBER_CORTEX_M_CPU STREQUAL "cortex-m33")
  set(_ember_cpu_flags "-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard")
else()
  message(FATAL_ERROR "EMBER_CORTEX_M_CPU '${EMBER_CORTEX_M_CPU}': use cortex-m55, cortex-m4 or cortex-m33")
endif()

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
set(CMAKE_SIZE arm-none-eabi-size)
# Test programs are static libraries: a link needs the board's startup code.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Size first, every function and object in its own section so that the
# linker drops what nothing references.
set(CMAKE_C_FLAGS_INIT "${_ember_cpu_flags} -ffunction-sections -fdata-sections")
set(CMAKE_CXX_FLAGS_INIT "${_ember_cpu_flags} -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${_ember_cpu_flags}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_ember_cpu_flags} -Wl,--gc-sections")
set(CMAKE_C_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
set(CMAKE_CXX_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")

# Host programs (flatc) from the host; libraries and headers only from
# what the build names itself.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs target programs on QEMU's board for this core.
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/../../scripts/qemu_cortex_m.sh;--cpu;${EMBER_CORTEX_M_CPU}")

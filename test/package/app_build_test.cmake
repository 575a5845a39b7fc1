# examples/app, configured and built as its own project against PREFIX.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

file(REMOVE_RECURSE ${BINARY})
# Cross: the toolchain file of the build that installed PREFIX, with PREFIX
# one more root to find packages under.
set(compiler -DCMAKE_CXX_COMPILER=${CXX})
if(TOOLCHAIN)
  set(compiler -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN} -DEMBER_TARGET_DEPS=${TARGET_DEPS}
               -DCMAKE_FIND_ROOT_PATH=${PREFIX})
endif()
pkg_run(out ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_BUILD_TYPE=Release
        ${compiler} -DCMAKE_PREFIX_PATH=${PREFIX}
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${BINARY}/CMakeCache.txt ember_dir REGEX "^Ember_DIR:")
if(NOT ember_dir MATCHES "=${PREFIX}/")
  message(FATAL_ERROR "found another Ember than ${PREFIX}: ${ember_dir}")
endif()
pkg_run(out ${CMAKE_COMMAND} --build ${BINARY})

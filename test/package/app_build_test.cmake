# examples/app, configured and built as its own project against PREFIX.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

file(REMOVE_RECURSE ${BINARY})
pkg_run(out ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_BUILD_TYPE=Release
        -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_PREFIX_PATH=${PREFIX}
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${BINARY}/CMakeCache.txt ember_dir REGEX "^Ember_DIR:")
if(NOT ember_dir MATCHES "=${PREFIX}/")
  message(FATAL_ERROR "found another Ember than ${PREFIX}: ${ember_dir}")
endif()
pkg_run(out ${CMAKE_COMMAND} --build ${BINARY})

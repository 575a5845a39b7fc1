# A build without CMake: g++ and `pkg-config --cflags --libs --static ember`
# on examples/app/classify.cpp. The result registers what the build tree
# does and classifies MODEL as executor_runner does.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

set(ENV{PKG_CONFIG_PATH} ${PREFIX}/${LIBDIR}/pkgconfig)
pkg_run(flags ${PKG_CONFIG} --cflags --libs --static ember)
string(STRIP "${flags}" flags)
message(STATUS "pkg-config: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
set(app ${SCRATCH}/ember_classify)
pkg_run(out ${CXX} -std=c++17 -O2 ${SOURCE} -o ${app} ${flags})

pkg_check_registry(${app} ${REFERENCE})
pkg_runner_top_class(want ${RUNNER} ${MODEL} "")
pkg_app_top_class(got ${app} ${MODEL} "")
if(NOT got EQUAL want)
  message(FATAL_ERROR "${MODEL}: the app says class ${got}, executor_runner ${want}")
endif()

# The installed app's top class for MODEL [INPUT] is executor_runner's.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)

pkg_runner_top_class(want ${RUNNER} ${MODEL} "${INPUT}")
pkg_app_top_class(got ${APP} ${MODEL} "${INPUT}")
if(NOT got EQUAL want)
  message(FATAL_ERROR "${MODEL}: the app says class ${got}, executor_runner ${want}")
endif()
message(STATUS "${MODEL}: top class ${got}, as executor_runner")

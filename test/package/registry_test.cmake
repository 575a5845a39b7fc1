# Static linking against the package keeps every registration.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
pkg_check_registry(${APP} ${REFERENCE})

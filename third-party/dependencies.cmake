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

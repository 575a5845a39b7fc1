# ember_gtest(TARGET [TEST_PREFIX P] [DISCOVERY_MODE M] [ENVIRONMENT E]
#             [ISOLATE CASE...])
# registers a gtest binary's cases with ctest.
#
# EMBER_TEST_SHARDS 0 (the default): one ctest test per case, named
# P<Suite>.<Case> (gtest_discover_tests), each in its own process.
#
# EMBER_TEST_SHARDS N > 0: N ctest tests per binary, P<TARGET>.shard<i>,
# each running 1/N of its cases in one process (gtest's GTEST_SHARD_INDEX).
# For builds where starting a process costs much: under qemu-aarch64 a
# start is about 0.2 s and under ASan 0.08 s, so over 2,000 cases it was
# a third of the suite's time (scripts/test.sh sets it for those builds).
# Cases listed in ISOLATE measure their own process (RSS, glibc's heap) and
# get one each, named like the per-case ones.
set(EMBER_TEST_SHARDS 0 CACHE STRING
    "0: one ctest test per gtest case; N: N tests per gtest binary (emulated or sanitized builds)")

function(ember_gtest target)
  cmake_parse_arguments(arg "" "TEST_PREFIX;DISCOVERY_MODE;ENVIRONMENT" "ISOLATE" ${ARGN})
  if(NOT EMBER_TEST_SHARDS GREATER 0)
    set(extra)
    if(arg_DISCOVERY_MODE)
      list(APPEND extra DISCOVERY_MODE ${arg_DISCOVERY_MODE})
    endif()
    if(arg_ENVIRONMENT)
      list(APPEND extra PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
    endif()
    gtest_discover_tests(${target} TEST_PREFIX "${arg_TEST_PREFIX}" DISCOVERY_TIMEOUT 60
                         ${extra})
    return()
  endif()
  set(excluded "")
  foreach(case ${arg_ISOLATE})
    add_test(NAME ${arg_TEST_PREFIX}${case} COMMAND ${target} --gtest_filter=${case})
    set_tests_properties(${arg_TEST_PREFIX}${case} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
    string(APPEND excluded ":${case}")
  endforeach()
  set(filter)
  if(excluded)
    string(SUBSTRING "${excluded}" 1 -1 excluded)
    set(filter "--gtest_filter=-${excluded}")
  endif()
  math(EXPR last "${EMBER_TEST_SHARDS} - 1")
  foreach(i RANGE 0 ${last})
    set(name ${arg_TEST_PREFIX}${target}.shard${i})
    add_test(NAME ${name} COMMAND ${target} ${filter})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT
      "GTEST_SHARD_INDEX=${i};GTEST_TOTAL_SHARDS=${EMBER_TEST_SHARDS};${arg_ENVIRONMENT}")
  endforeach()
endfunction()

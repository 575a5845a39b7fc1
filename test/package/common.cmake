# Helpers shared by the package tests (cmake -P scripts).
cmake_minimum_required(VERSION 3.20)

# How the target's programs run: directly, or through EMULATOR (a cross
# build's CMAKE_CROSSCOMPILING_EMULATOR, "|" between its words).
string(REPLACE "|" ";" pkg_emulator "${EMULATOR}")

# Runs a command; stops the test with its output unless it exits 0.
# Stdout lands in `out_var`.
function(pkg_run out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${shown}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Index of the largest element of output 0 (the first on ties) as
# executor_runner prints it, for MODEL with INPUT (.npy; empty: the runner's
# default, or test case 0 of a .bpte).
function(pkg_runner_top_class out_var runner model input)
  set(args --model_path=${model} --print_output=all)
  if(input)
    list(APPEND args --inputs=${input})
  elseif(model MATCHES "\\.bpte$")
    list(APPEND args --testset_idx=0)
  endif()
  pkg_run(text ${pkg_emulator} ${runner} ${args})
  string(REGEX MATCHALL "Output\\[0\\]\\[[0-9]+\\]: \\([A-Za-z0-9]+\\) [^\n]+" lines "${text}")
  if(NOT lines)
    message(FATAL_ERROR "executor_runner printed no values of output 0:\n${text}")
  endif()
  set(best -1)
  set(best_value "")
  foreach(line ${lines})
    string(REGEX REPLACE "^Output\\[0\\]\\[([0-9]+)\\]: \\([A-Za-z0-9]+\\) (.+)$" "\\1;\\2"
           fields "${line}")
    list(GET fields 0 index)
    list(GET fields 1 value)
    if(best EQUAL -1 OR value GREATER best_value)
      set(best ${index})
      set(best_value ${value})
    endif()
  endforeach()
  set(${out_var} ${best} PARENT_SCOPE)
endfunction()

# The top class ember_classify (examples/app) prints for MODEL [INPUT].
function(pkg_app_top_class out_var app model input)
  pkg_run(text ${pkg_emulator} ${app} ${model} ${input})
  if(NOT text MATCHES "top class: ([0-9]+) score: ")
    message(FATAL_ERROR "${app} printed no top class:\n${text}")
  endif()
  set(${out_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

# `exe --registry`, its lines sorted (static initializers may run in
# another order from one link to the next).
function(pkg_registry out_var exe)
  pkg_run(text ${pkg_emulator} ${exe} --registry)
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  list(SORT lines)
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

# Fails unless `exe` registered exactly what `reference` did, with at least
# one kernel and the XNNPACK backend among them.
function(pkg_check_registry exe reference)
  pkg_registry(got ${exe})
  pkg_registry(want ${reference})
  if(NOT got STREQUAL want)
    set(missing ${want})
    list(REMOVE_ITEM missing ${got})
    set(extra ${got})
    list(REMOVE_ITEM extra ${want})
    message(FATAL_ERROR "${exe} registered another set than the build tree's "
            "${reference}.\nmissing: ${missing}\nextra: ${extra}")
  endif()
  list(FILTER got INCLUDE REGEX "^kernels: ")
  set(kernels 0)
  if(got MATCHES "^kernels: ([0-9]+) ")
    set(kernels ${CMAKE_MATCH_1})
  endif()
  if(kernels LESS 100)
    message(FATAL_ERROR "${exe}: too few kernels registered: ${got}")
  endif()
  list(FIND want "backend XnnpackBackend" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${exe}: the XNNPACK backend is not registered")
  endif()
  message(STATUS "${exe}: ${got}, the same as the build tree")
endfunction()

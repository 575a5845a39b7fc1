# A real selective build (cmake -P): configures a second, small tree with
# -DEMBER_SELECT_OPS_FROM=two_methods/model.pte, builds its
# ember_minimal_runner_portable, and checks that
#   * the registry holds exactly the selected files' operators and the
#     prim ops (ember_minimal_runner_portable --kernels);
#   * the selected program loads and runs;
#   * a program with an unselected operator fails to load with the
#     runtime's "missing operator(s)" message naming it.
# -DSOURCE_DIR -DWORK -DMODELS -DLIST_OPS -DGENERATOR -DCXX -DCC -DLAUNCHER
# -DXNNPACK_PREFIX -DFLATC: the outer build's settings.
include("${SOURCE_DIR}/kernels/selective_build.cmake")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN}: exit ${rc}\n${out}")
  endif()
endfunction()

set(model "${MODELS}/two_methods/model.pte")
set(tree "${WORK}/tree")
run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${tree}" -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${CC}"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}" "-DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER}"
    -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_BENCHMARKS=OFF -DEMBER_BUILD_CONFORMANCE=OFF
    "-DEMBER_XNNPACK_PREFIX=${XNNPACK_PREFIX}" "-DEMBER_FLATC=${FLATC}"
    "-DEMBER_SELECT_OPS_FROM=${model}" "-DEMBER_LIST_OPS=${LIST_OPS}")
run("${CMAKE_COMMAND}" --build "${tree}" --target ember_minimal_runner_portable -j 2)

# Expected: every operator registered by a selected file or a prim op file.
execute_process(COMMAND "${LIST_OPS}" "${model}" OUTPUT_VARIABLE selected)
string(STRIP "${selected}" selected)
string(REPLACE "\n" ";" selected "${selected}")
ember_select_kernel_sources("${SOURCE_DIR}" "${selected}" sources unknown)
ember_kernel_registrations("${SOURCE_DIR}" all_ops all_files)
set(expected)
foreach(op file IN ZIP_LISTS all_ops all_files)
  if(file MATCHES "^kernels/prim_ops/" OR "${SOURCE_DIR}/${file}" IN_LIST sources)
    list(APPEND expected "${op}")
  endif()
endforeach()
list(SORT expected)

set(runner "${tree}/examples/ember_minimal_runner_portable")
execute_process(COMMAND "${runner}" "${model}" --kernels RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ok: method '[a-z_]+' ran")
  message(FATAL_ERROR "the selected program did not run: exit ${rc}\n${out}${err}")
endif()
string(REGEX REPLACE "ok: [^\n]*\n$" "" registered "${out}")
string(STRIP "${registered}" registered)
string(REPLACE "\n" ";" registered "${registered}")
list(SORT registered)
if(NOT registered STREQUAL expected)
  message(FATAL_ERROR "registry:\n  got      ${registered}\n  expected ${expected}")
endif()
foreach(op IN LISTS selected)
  if(NOT op IN_LIST registered)
    message(FATAL_ERROR "${op} selected but not registered")
  endif()
endforeach()
if(NOT "aten::addmm.out" IN_LIST all_ops OR "aten::addmm.out" IN_LIST registered)
  message(FATAL_ERROR "aten::addmm.out should be left out")
endif()

execute_process(COMMAND "${runner}" "${MODELS}/convnet/model.pte" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "error: load_method: method 'forward': 4 missing operator"
   OR NOT err MATCHES "aten::convolution.out")
  message(FATAL_ERROR "an unselected operator: exit ${rc}, stderr '${err}'")
endif()
list(LENGTH registered n)
message(STATUS "selective build: ${n} kernels registered, unselected operators refused")

# ember_list_ops end to end (cmake -P):
#   -DLIST_OPS=<ember_list_ops> -DMODELS=<test/models> -DWORK=<scratch dir>
#   -DSOURCE_DIR=<repo>
# Its list against each fixture's ops.txt (upstream's deserializer), a
# .bpte, the --kernel_files table, an --output file read back the way a
# selective build reads it, and a file that is not a program.
include("${SOURCE_DIR}/kernels/selective_build.cmake")

function(check_equal what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}:\n  got      '${actual}'\n  expected '${expected}'")
  endif()
endfunction()

# ops.txt's `op` lines, sorted, as a CMake list.
function(ops_txt dir out)
  file(STRINGS "${MODELS}/${dir}/ops.txt" lines REGEX "^op ")
  list(TRANSFORM lines REPLACE "^op " "")
  list(SORT lines)
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

function(list_ops out)
  execute_process(COMMAND "${LIST_OPS}" ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ember_list_ops ${ARGN}: exit ${rc}: ${err}")
  endif()
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

foreach(dir add convnet scalar_ops stateful two_methods)
  list_ops(got "${MODELS}/${dir}/model.pte")
  ops_txt(${dir} expected)
  check_equal("${dir}" "${got}" "${expected}")
endforeach()

list_ops(got "${MODELS}/bundled/two_methods.bpte")
ops_txt(two_methods expected)
check_equal("bundled/two_methods.bpte" "${got}" "${expected}")

# Several programs: the union.
list_ops(got "${MODELS}/linear/model.pte" "${MODELS}/add/model.pte")
check_equal("union" "${got}" "aten::add.out;aten::addmm.out;aten::permute_copy.out")

list_ops(got --kernel_files "${MODELS}/scalar_ops/model.pte")
set(expected
    "aten::full.out\tkernels/portable/op_full.cpp"
    "aten::mul.out\tkernels/portable/op_mul.cpp"
    "aten::sum.IntList_out\tkernels/portable/op_sum.cpp"
    "aten::sym_size.int\tkernels/prim_ops/prim_tensor_ops.cpp (prim op, always built)"
    "aten::view_copy.out\tkernels/portable/op_view_copy.cpp"
    "executorch_prim::add.Scalar\tkernels/prim_ops/prim_scalar_ops.cpp (prim op, always built)"
    "executorch_prim::mul.Scalar\tkernels/prim_ops/prim_scalar_ops.cpp (prim op, always built)")
check_equal("--kernel_files" "${got}" "${expected}")

file(MAKE_DIRECTORY "${WORK}")
list_ops(got "--output=${WORK}/convnet_ops.txt" "${MODELS}/convnet/model.pte")
check_equal("--output prints nothing" "${got}" "")
ember_read_ops_file("${WORK}/convnet_ops.txt" got)
ops_txt(convnet expected)
check_equal("--output file" "${got}" "${expected}")

# Not a program: exit status 1 and the runtime's message.
execute_process(COMMAND "${LIST_OPS}" "${MODELS}/convnet/ops.txt" OUTPUT_VARIABLE out
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^error: .*ops.txt: ")
  message(FATAL_ERROR "a text file: exit ${rc}, stderr '${err}'")
endif()

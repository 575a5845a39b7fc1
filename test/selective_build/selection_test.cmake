# The selection logic of kernels/selective_build.cmake (cmake -P,
# -DSOURCE_DIR=<repo>): operators to kernel files, fused kernels only
# with all their operators, prim ops needing no file, unknown operators
# reported, operator files read with comments.
include("${SOURCE_DIR}/kernels/selective_build.cmake")

function(check_equal what actual expected)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}:\n  got      '${actual}'\n  expected '${expected}'")
  endif()
endfunction()

set(p "${SOURCE_DIR}/kernels/portable")

ember_select_kernel_sources("${SOURCE_DIR}"
    "aten::add.out;aten::add.Scalar_out;aten::relu.out;executorch_prim::add.Scalar;foo::bar.out"
    sources unknown)
check_equal("add + relu" "${sources}" "${p}/op_add.cpp;${p}/op_relu.cpp")
check_equal("unknown" "${unknown}" "foo::bar.out")

# The convolution + batch norm fusion comes with both of its operators.
ember_select_kernel_sources("${SOURCE_DIR}"
    "aten::convolution.out;aten::_native_batch_norm_legit_no_training.out;aten::hardtanh.out"
    sources unknown)
check_equal("conv + bn" "${sources}"
            "${p}/fused_convolution.cpp;${p}/op__native_batch_norm_legit_no_training.cpp;${p}/op_convolution.cpp;${p}/op_hardtanh.cpp")
check_equal("conv + bn unknown" "${unknown}" "")
ember_select_kernel_sources("${SOURCE_DIR}" "aten::convolution.out" sources unknown)
check_equal("conv alone" "${sources}" "${p}/op_convolution.cpp")

# One operator of a family that shares a template (util/extremum.h,
# util/bitwise.h, util/copy_util.h) selects its own registration file only;
# the shared body comes from the headers and ember_portable_support.
ember_select_kernel_sources("${SOURCE_DIR}"
    "aten::min.dim_min;aten::bitwise_right_shift.Tensor_Scalar_out;et_copy::_h2d_copy.out"
    sources unknown)
check_equal("family members" "${sources}"
            "${p}/op__h2d_copy.cpp;${p}/op_bitwise_right_shift.cpp;${p}/op_min.cpp")
check_equal("family members unknown" "${unknown}" "")

# Prim ops only: no portable file at all.
ember_select_kernel_sources("${SOURCE_DIR}" "aten::sym_size.int;executorch_prim::et_view.default"
                            sources unknown)
check_equal("prim only" "${sources}" "")
check_equal("prim only unknown" "${unknown}" "")

# llm kernels.
ember_select_kernel_sources("${SOURCE_DIR}" "llama::custom_sdpa.out" sources unknown)
check_equal("llm" "${sources}" "${SOURCE_DIR}/kernels/llm/op_custom_sdpa.cpp")

ember_check_fused_rows("${SOURCE_DIR}")

file(WRITE "${WORK}/ops.txt" "# a comment\n\naten::add.out  # trailing\n  aten::mul.out\n")
ember_read_ops_file("${WORK}/ops.txt" ops)
check_equal("ops file" "${ops}" "aten::add.out;aten::mul.out")

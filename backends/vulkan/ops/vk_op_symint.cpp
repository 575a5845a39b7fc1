// SymInt bookkeeping: sym_size.int and the arithmetic of SymInts (add, sub,
// mul, floordiv, as upstream names Python's operators). Their values are
// computed on the host when shapes are propagated (vk_shapes.cpp) and
// written into the SymInts' device slots before each recording, so the
// builders only check the arguments and add no GPU work.
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

Error check_result(Builder& b, size_t arg) {
  if (arg >= b.num_args() || b.value(b.arg_id(arg)).kind != ValueKind::SymInt) {
    return b.invalid("the result is not a SymInt");
  }
  return Error::Ok;
}

Error build_sym_size(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  const TensorDesc* x = nullptr;
  int64_t dim = 0;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &x));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &dim));
  return check_result(b, 2);
}

Error build_symint_arith(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(3));
  int64_t lhs = 0;
  int64_t rhs = 0;
  EMBER_RETURN_IF_ERROR(b.int_arg(0, &lhs));
  EMBER_RETURN_IF_ERROR(b.int_arg(1, &rhs));
  return check_result(b, 2);
}

const OpEntry kRows[] = {
    {"sym_size.int", build_sym_size}, {"add", build_symint_arith},
    {"sub", build_symint_arith},      {"mul", build_symint_arith},
    {"floordiv", build_symint_arith},
};

}  // namespace

OpFamily symint_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan

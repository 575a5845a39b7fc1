// Argument checks the prim ops share (runtime/kernel/kernel_args.h):
// a wrong argument count is InvalidProgram, for scalar, comparison and
// rounding ops alike.
#include "test/kernels/prim_ops/prim_test_util.h"

namespace ember::testing {
namespace {

TEST(PrimArgs, WrongArgCountIsInvalidProgram) {
  for (const char* op :
       {"executorch_prim::add.Scalar", "executorch_prim::floordiv.Scalar",
        "executorch_prim::truediv.Scalar", "executorch_prim::mod.int",
        "executorch_prim::sym_max.Scalar", "executorch_prim::eq.Scalar"}) {
    Stack s{I(3), I(4)};
    EXPECT_EQ(call(op, s), Error::InvalidProgram) << op;
  }
  for (const char* op :
       {"executorch_prim::neg.Scalar", "executorch_prim::sym_float.Scalar",
        "executorch_prim::ceil.Scalar", "executorch_prim::round.Scalar",
        "executorch_prim::trunc.Scalar"}) {
    Stack s{D(3)};
    EXPECT_EQ(call(op, s), Error::InvalidProgram) << op;
  }
}

}  // namespace
}  // namespace ember::testing

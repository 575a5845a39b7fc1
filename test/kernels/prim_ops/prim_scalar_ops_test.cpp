// executorch_prim:: scalar arithmetic (kernels/prim_ops/prim_scalar_ops.cpp):
// add, sub, mul, floordiv, truediv, mod, neg, sym_float, sym_max, sym_min.
#include <cmath>
#include <cstdint>

#include "test/kernels/prim_ops/prim_test_util.h"

namespace ember::testing {
namespace {

TEST(PrimScalarOps, AllRegistered) {
  for (const char* op :
       {"executorch_prim::add.Scalar", "executorch_prim::sub.Scalar",
        "executorch_prim::mul.Scalar", "executorch_prim::floordiv.Scalar",
        "executorch_prim::truediv.Scalar", "executorch_prim::mod.Scalar",
        "executorch_prim::floordiv.int", "executorch_prim::mod.int",
        "executorch_prim::neg.Scalar", "executorch_prim::sym_float.Scalar",
        "executorch_prim::sym_max.Scalar", "executorch_prim::sym_min.Scalar"}) {
    EXPECT_NE(lookup(op), nullptr) << op;
  }
}

TEST(PrimScalarOps, AddSubMulInts) {
  EXPECT_EQ(int_result("executorch_prim::add.Scalar", I(3), I(4)), 7);
  EXPECT_EQ(int_result("executorch_prim::sub.Scalar", I(3), I(4)), -1);
  EXPECT_EQ(int_result("executorch_prim::mul.Scalar", I(3), I(4)), 12);
  EXPECT_EQ(int_result("executorch_prim::mul.Scalar", I(-3), I(0)), 0);
  EXPECT_EQ(int_result("executorch_prim::add.Scalar", I(kMax), I(0)), kMax);
}

TEST(PrimScalarOps, MixedIntDoubleGivesDouble) {
  EXPECT_DOUBLE_EQ(double_result("executorch_prim::add.Scalar", I(3), D(0.5)),
                   3.5);
  EXPECT_DOUBLE_EQ(double_result("executorch_prim::sub.Scalar", D(0.5), I(3)),
                   -2.5);
  EXPECT_DOUBLE_EQ(double_result("executorch_prim::mul.Scalar", D(1.5), D(-2)),
                   -3.0);
}

TEST(PrimScalarOps, IntOverflowFails) {
  expect_binary_error("executorch_prim::add.Scalar", I(kMax), I(1),
                      Error::InvalidArgument);
  expect_binary_error("executorch_prim::sub.Scalar", I(kMin), I(1),
                      Error::InvalidArgument);
  expect_binary_error("executorch_prim::mul.Scalar", I(kMax / 2 + 1), I(2),
                      Error::InvalidArgument);
  EXPECT_TRUE(message_has("overflow"));
}

TEST(PrimScalarOps, BoolAndOtherTagsRejected) {
  expect_binary_error("executorch_prim::add.Scalar", B(true), I(1),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::mul.Scalar", I(1), EValue(),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::truediv.Scalar", B(true), B(true),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::floordiv.Scalar", D(1), B(false),
                      Error::InvalidType);
}

TEST(PrimScalarOps, FloorDivIntsRoundTowardNegativeInfinity) {
  const char* op = "executorch_prim::floordiv.Scalar";
  EXPECT_EQ(int_result(op, I(3), I(4)), 0);
  EXPECT_EQ(int_result(op, I(7), I(2)), 3);
  EXPECT_EQ(int_result(op, I(-7), I(2)), -4);
  EXPECT_EQ(int_result(op, I(7), I(-2)), -4);
  EXPECT_EQ(int_result(op, I(-7), I(-2)), 3);
  EXPECT_EQ(int_result(op, I(6), I(-3)), -2);
  EXPECT_EQ(int_result(op, I(0), I(-5)), 0);
  EXPECT_EQ(int_result(op, I(kMin), I(1)), kMin);
  EXPECT_EQ(int_result("executorch_prim::floordiv.int", I(-7), I(2)), -4);
  EXPECT_EQ(int_result("executorch_prim::floordiv.int", I(7), I(2)), 3);
}

TEST(PrimScalarOps, FloorDivDoubles) {
  const char* op = "executorch_prim::floordiv.Scalar";
  EXPECT_DOUBLE_EQ(double_result(op, D(7.5), I(2)), 3.0);
  EXPECT_DOUBLE_EQ(double_result(op, D(-7.5), I(2)), -4.0);
  EXPECT_DOUBLE_EQ(double_result(op, I(7), D(-2.0)), -4.0);
  EXPECT_DOUBLE_EQ(double_result(op, D(-7.0), D(-2.0)), 3.0);
  const double neg_zero = double_result(op, D(0.0), D(-1.0));
  EXPECT_EQ(neg_zero, 0.0);
  EXPECT_TRUE(std::signbit(neg_zero));  // Python: 0.0 // -1.0 == -0.0
}

TEST(PrimScalarOps, DivisionByZeroFails) {
  for (const char* op :
       {"executorch_prim::floordiv.Scalar", "executorch_prim::truediv.Scalar",
        "executorch_prim::mod.Scalar", "executorch_prim::floordiv.int",
        "executorch_prim::mod.int"}) {
    expect_binary_error(op, I(7), I(0), Error::InvalidArgument);
    EXPECT_TRUE(message_has("division by zero")) << last_error_message();
  }
  expect_binary_error("executorch_prim::floordiv.Scalar", D(1.0), D(0.0),
                      Error::InvalidArgument);
  expect_binary_error("executorch_prim::truediv.Scalar", D(1.0), D(-0.0),
                      Error::InvalidArgument);
  expect_binary_error("executorch_prim::truediv.Scalar", I(1), D(0.0),
                      Error::InvalidArgument);
}

TEST(PrimScalarOps, MinIntDividedByMinusOneFails) {
  expect_binary_error("executorch_prim::floordiv.Scalar", I(kMin), I(-1),
                      Error::InvalidArgument);
  expect_binary_error("executorch_prim::floordiv.int", I(kMin), I(-1),
                      Error::InvalidArgument);
}

TEST(PrimScalarOps, TrueDivAlwaysDouble) {
  const char* op = "executorch_prim::truediv.Scalar";
  EXPECT_DOUBLE_EQ(double_result(op, I(3), I(4)), 0.75);
  EXPECT_DOUBLE_EQ(double_result(op, I(7), I(-2)), -3.5);
  EXPECT_DOUBLE_EQ(double_result(op, D(1.0), I(4)), 0.25);
  EXPECT_DOUBLE_EQ(double_result(op, I(1), D(0.5)), 2.0);
  EXPECT_DOUBLE_EQ(double_result(op, I(8), I(4)), 2.0);
}

TEST(PrimScalarOps, ModFollowsPythonSign) {
  for (const char* op : {"executorch_prim::mod.Scalar", "executorch_prim::mod.int"}) {
    EXPECT_EQ(int_result(op, I(3), I(4)), 3);
    EXPECT_EQ(int_result(op, I(7), I(3)), 1);
    EXPECT_EQ(int_result(op, I(-7), I(3)), 2);
    EXPECT_EQ(int_result(op, I(7), I(-3)), -2);
    EXPECT_EQ(int_result(op, I(-7), I(-3)), -1);
    EXPECT_EQ(int_result(op, I(6), I(-3)), 0);
    EXPECT_EQ(int_result(op, I(kMin), I(-1)), 0);
    EXPECT_EQ(int_result(op, I(kMin), I(kMax)), kMax - 1);
  }
  // Only ints, as upstream.
  expect_binary_error("executorch_prim::mod.Scalar", D(7.0), I(3),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::mod.int", I(7), D(3.0),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::floordiv.int", D(7.0), I(3),
                      Error::InvalidType);
}

TEST(PrimScalarOps, Neg) {
  const char* op = "executorch_prim::neg.Scalar";
  Stack s1{I(5), EValue()};
  ASSERT_EQ(call(op, s1), Error::Ok);
  EXPECT_EQ(s1.back().to_int(), -5);
  Stack s2{D(-2.5), EValue()};
  ASSERT_EQ(call(op, s2), Error::Ok);
  EXPECT_DOUBLE_EQ(s2.back().to_double(), 2.5);
  Stack s3{I(kMin), I(0)};
  EXPECT_EQ(call(op, s3), Error::InvalidArgument);
  EXPECT_EQ(s3.back().to_int(), 0);
  Stack s4{B(true), I(0)};
  EXPECT_EQ(call(op, s4), Error::InvalidType);
}

TEST(PrimScalarOps, SymFloat) {
  const char* op = "executorch_prim::sym_float.Scalar";
  Stack s1{I(3), EValue()};
  ASSERT_EQ(call(op, s1), Error::Ok);
  ASSERT_TRUE(s1.back().is_double());
  EXPECT_DOUBLE_EQ(s1.back().to_double(), 3.0);
  Stack s2{D(-1.25), EValue()};
  ASSERT_EQ(call(op, s2), Error::Ok);
  EXPECT_DOUBLE_EQ(s2.back().to_double(), -1.25);
  Stack s3{B(true), EValue()};
  EXPECT_EQ(call(op, s3), Error::InvalidType);
}

TEST(PrimScalarOps, SymMaxMin) {
  EXPECT_EQ(int_result("executorch_prim::sym_max.Scalar", I(5), I(3)), 5);
  EXPECT_EQ(int_result("executorch_prim::sym_max.Scalar", I(3), I(5)), 5);
  EXPECT_EQ(int_result("executorch_prim::sym_max.Scalar", I(-2), I(-5)), -2);
  EXPECT_EQ(int_result("executorch_prim::sym_min.Scalar", I(5), I(3)), 3);
  EXPECT_EQ(int_result("executorch_prim::sym_min.Scalar", I(5), I(5)), 5);
  EXPECT_EQ(int_result("executorch_prim::sym_min.Scalar", I(-2), I(-5)), -5);
  expect_binary_error("executorch_prim::sym_max.Scalar", D(1.0), I(2),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::sym_min.Scalar", I(1), D(2.0),
                      Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing

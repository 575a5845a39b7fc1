// executorch_prim:: scalar ops: arithmetic, comparison, rounding.
#include <cmath>
#include <cstdint>
#include <limits>

#include "test/prim_ops/prim_test_util.h"

namespace ember::testing {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t int_result(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_int()) << op;
  return s.back().to_int();
}

double double_result(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_double()) << op;
  return s.back().to_double();
}

// Expects `op` to fail with `err` and leave the output untouched.
void expect_binary_error(const std::string& op, EValue a, EValue b, Error err) {
  Stack s{a, b, I(12345)};
  EXPECT_EQ(call(op, s), err) << op;
  EXPECT_TRUE(s.back().is_int() && s.back().to_int() == 12345) << op;
  EXPECT_TRUE(message_has(op.c_str())) << last_error_message();
}

TEST(PrimScalarOps, AllRegistered) {
  for (const char* op :
       {"executorch_prim::add.Scalar", "executorch_prim::sub.Scalar",
        "executorch_prim::mul.Scalar", "executorch_prim::floordiv.Scalar",
        "executorch_prim::truediv.Scalar", "executorch_prim::mod.Scalar",
        "executorch_prim::floordiv.int", "executorch_prim::mod.int",
        "executorch_prim::neg.Scalar", "executorch_prim::sym_float.Scalar",
        "executorch_prim::sym_max.Scalar", "executorch_prim::sym_min.Scalar",
        "executorch_prim::eq.Scalar", "executorch_prim::ne.Scalar",
        "executorch_prim::gt.Scalar", "executorch_prim::lt.Scalar",
        "executorch_prim::ge.Scalar", "executorch_prim::le.Scalar",
        "executorch_prim::ceil.Scalar", "executorch_prim::round.Scalar",
        "executorch_prim::trunc.Scalar"}) {
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

TEST(PrimScalarOps, WrongArgCountIsInvalidProgram) {
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

bool compare(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_bool()) << op;
  return s.back().to_bool();
}

TEST(PrimScalarOps, Comparisons) {
  const std::string p = "executorch_prim::";
  // double/double, as upstream's test
  EXPECT_FALSE(compare(p + "ge.Scalar", D(3), D(4)));
  EXPECT_FALSE(compare(p + "gt.Scalar", D(3), D(4)));
  EXPECT_TRUE(compare(p + "le.Scalar", D(3), D(4)));
  EXPECT_TRUE(compare(p + "lt.Scalar", D(3), D(4)));
  EXPECT_FALSE(compare(p + "eq.Scalar", D(3), D(4)));
  EXPECT_TRUE(compare(p + "ne.Scalar", D(3), D(4)));
  // int/int, negatives
  EXPECT_TRUE(compare(p + "lt.Scalar", I(-5), I(-2)));
  EXPECT_TRUE(compare(p + "eq.Scalar", I(kMin), I(kMin)));
  EXPECT_TRUE(compare(p + "ge.Scalar", I(0), I(0)));
  // mixed int/double
  EXPECT_TRUE(compare(p + "eq.Scalar", I(2), D(2.0)));
  EXPECT_TRUE(compare(p + "gt.Scalar", D(2.5), I(2)));
  EXPECT_FALSE(compare(p + "le.Scalar", D(2.5), I(2)));
  // bool/bool
  EXPECT_TRUE(compare(p + "eq.Scalar", B(true), B(true)));
  EXPECT_TRUE(compare(p + "gt.Scalar", B(true), B(false)));
  EXPECT_FALSE(compare(p + "ne.Scalar", B(false), B(false)));
}

TEST(PrimScalarOps, ComparisonTypeMismatchFails) {
  expect_binary_error("executorch_prim::eq.Scalar", B(true), I(1),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::lt.Scalar", D(1), B(false),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::ge.Scalar", EValue(), I(1),
                      Error::InvalidType);
}

int64_t rounded(const std::string& op, double v) {
  Stack s{D(v), D(0.0)};
  EXPECT_EQ(call(op, s), Error::Ok) << op << "(" << v << ")";
  EXPECT_TRUE(s.back().is_int());
  return s.back().to_int();
}

TEST(PrimScalarOps, CeilRoundTrunc) {
  const double in[] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.75, -0.5, -1.0, -1.5,
                       9.999999, 2.5, -2.5};
  const int64_t ceil_expected[] = {0, 1, 1, 1, 1, 2, 0, -1, -1, 10, 3, -2};
  const int64_t trunc_expected[] = {0, 0, 0, 0, 1, 1, 0, -1, -1, 9, 2, -2};
  // Python round(): half to even.
  const int64_t round_expected[] = {0, 0, 0, 1, 1, 2, 0, -1, -2, 10, 2, -2};
  for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); ++i) {
    EXPECT_EQ(rounded("executorch_prim::ceil.Scalar", in[i]), ceil_expected[i])
        << in[i];
    EXPECT_EQ(rounded("executorch_prim::trunc.Scalar", in[i]),
              trunc_expected[i])
        << in[i];
    EXPECT_EQ(rounded("executorch_prim::round.Scalar", in[i]),
              round_expected[i])
        << in[i];
  }
  EXPECT_EQ(rounded("executorch_prim::round.Scalar", 1.5), 2);
  EXPECT_EQ(rounded("executorch_prim::round.Scalar", 3.5), 4);
}

TEST(PrimScalarOps, RoundingRejectsNonDoubleAndUnrepresentable) {
  for (const char* op : {"executorch_prim::ceil.Scalar",
                         "executorch_prim::round.Scalar",
                         "executorch_prim::trunc.Scalar"}) {
    Stack s1{I(3), I(7)};
    EXPECT_EQ(call(op, s1), Error::InvalidType) << op;
    EXPECT_EQ(s1.back().to_int(), 7);
    for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL, 1e19, -1e19}) {
      Stack s{D(bad), I(7)};
      EXPECT_EQ(call(op, s), Error::InvalidArgument) << op << " " << bad;
      EXPECT_EQ(s.back().to_int(), 7);
    }
    Stack edge{D(-9223372036854775808.0), I(0)};
    EXPECT_EQ(call(op, edge), Error::Ok);
    EXPECT_EQ(edge.back().to_int(), kMin);
  }
}

}  // namespace
}  // namespace ember::testing

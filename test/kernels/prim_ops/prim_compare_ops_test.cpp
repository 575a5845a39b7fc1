// executorch_prim:: comparisons (kernels/prim_ops/prim_compare_ops.cpp):
// eq, ne, gt, lt, ge, le on Int, Double and Bool scalars.
#include "test/kernels/prim_ops/prim_test_util.h"

namespace ember::testing {
namespace {

TEST(PrimCompareOps, AllRegistered) {
  for (const char* op :
       {"executorch_prim::eq.Scalar", "executorch_prim::ne.Scalar",
        "executorch_prim::gt.Scalar", "executorch_prim::lt.Scalar",
        "executorch_prim::ge.Scalar", "executorch_prim::le.Scalar"}) {
    EXPECT_NE(lookup(op), nullptr) << op;
  }
}

bool compare(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_bool()) << op;
  return s.back().to_bool();
}

TEST(PrimCompareOps, Comparisons) {
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

TEST(PrimCompareOps, TypeMismatchFails) {
  expect_binary_error("executorch_prim::eq.Scalar", B(true), I(1),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::lt.Scalar", D(1), B(false),
                      Error::InvalidType);
  expect_binary_error("executorch_prim::ge.Scalar", EValue(), I(1),
                      Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing

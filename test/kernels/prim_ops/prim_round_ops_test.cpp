// executorch_prim:: rounding (kernels/prim_ops/prim_round_ops.cpp): ceil,
// round (half to even, as Python) and trunc of a Double into an Int.
#include <cmath>

#include "test/kernels/prim_ops/prim_test_util.h"

namespace ember::testing {
namespace {

TEST(PrimRoundOps, AllRegistered) {
  for (const char* op : {"executorch_prim::ceil.Scalar", "executorch_prim::round.Scalar",
                         "executorch_prim::trunc.Scalar"}) {
    EXPECT_NE(lookup(op), nullptr) << op;
  }
}

int64_t rounded(const std::string& op, double v) {
  Stack s{D(v), D(0.0)};
  EXPECT_EQ(call(op, s), Error::Ok) << op << "(" << v << ")";
  EXPECT_TRUE(s.back().is_int());
  return s.back().to_int();
}

TEST(PrimRoundOps, CeilRoundTrunc) {
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

TEST(PrimRoundOps, RejectsNonDoubleAndUnrepresentable) {
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

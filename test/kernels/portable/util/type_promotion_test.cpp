// PyTorch's type promotion (kernels/portable/util/type_promotion.h),
// checked through mul: the out dtype each pair of operand dtypes promotes
// to, and the refusal of an integral out for a floating result.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Mixed dtypes: every pair of dtypes, out in the promoted type, computed as
// PyTorch's promotion table says (hand-written for the pairs below).
TEST(TypePromotion, PromotionTable) {
  struct Case {
    ScalarType a, b, result;
  };
  const Case cases[] = {
      {ScalarType::Int, ScalarType::Float, ScalarType::Float},
      {ScalarType::Byte, ScalarType::Char, ScalarType::Short},
      {ScalarType::Bool, ScalarType::Int, ScalarType::Int},
      {ScalarType::Short, ScalarType::Long, ScalarType::Long},
      {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float},
      {ScalarType::Half, ScalarType::Float, ScalarType::Float},
      {ScalarType::Long, ScalarType::Half, ScalarType::Half},
      {ScalarType::Float, ScalarType::Double, ScalarType::Double},
      {ScalarType::Byte, ScalarType::Int, ScalarType::Int},
  };
  for (const Case& c : cases) {
    auto a = from_doubles(c.a, {3}, {1, 2, 3});
    auto b = from_doubles(c.b, {3}, {1, 0, 4});
    // The promoted type works...
    auto out = empty(c.result, {3});
    ASSERT_EQ(call_kernel("aten::mul.out", {*a, *b, *out, *out}), Error::Ok)
        << scalar_type_name(c.a) << "*" << scalar_type_name(c.b);
    const std::vector<double> av = to_doubles(*a), bv = to_doubles(*b);
    EXPECT_EQ(to_doubles(*out),
              (std::vector<double>{av[0] * bv[0], av[1] * bv[1], av[2] * bv[2]}));
    // ...and a floating result refuses an integral out.
    if (is_floating_type(c.result)) {
      auto bad = empty(ScalarType::Int, {3});
      EXPECT_EQ(call_kernel("aten::mul.out", {*a, *b, *bad, *bad}),
                Error::InvalidArgument);
    }
  }
}

}  // namespace
}  // namespace ember::testing

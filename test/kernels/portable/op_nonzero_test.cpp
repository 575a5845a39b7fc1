// aten::nonzero.out (kernels/portable/op_nonzero.cpp): the bounded-dynamic
// out is resized within its bound and refused past it.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Nonzero, ResizesWithinBoundAndFailsPastIt) {
  auto a = tensor<int32_t>(ScalarType::Int, {2, 2}, {0, 5, 7, 0});
  auto out = dynamic_out(ScalarType::Long, {4, 2});
  ASSERT_EQ(call_kernel("aten::nonzero.out", {*a, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{0, 1, 1, 0}));
  auto small = dynamic_out(ScalarType::Long, {1, 2});
  EXPECT_NE(call_kernel("aten::nonzero.out", {*a, *small, *small}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing

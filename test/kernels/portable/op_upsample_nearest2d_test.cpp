// aten::upsample_nearest2d.vec_out
// (kernels/portable/op_upsample_nearest2d.cpp): an output size past int32
// is refused. The size product overflow shared with bilinear is in
// util/upsample_util_test.cpp.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(UpsampleNearest2d, OutputSizePastInt32Refused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  EXPECT_EQ(call_kernel("aten::upsample_nearest2d.vec_out",
                        {*in, Arg::ints({int64_t(1) << 20, int64_t(1) << 20}), Arg::none(),
                         *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing

// aten::_pdist_forward.out (kernels/portable/op__pdist_forward.cpp): the
// pair order and values by hand, fewer than two rows, refused arguments.
// PyTorch's values for every norm and edge values are in the op suite
// (pdist__*).
#include <limits>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(PdistForward, PairOrderAndNorms) {
  // Rows 0, 1, 3 on a line and a 2-D point: pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3).
  auto x = tensor<double>(ScalarType::Double, {4, 2}, {0, 0, 1, 0, 3, 0, 0, 4});
  auto out = empty(ScalarType::Double, {6});
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out", {*x, 2.0, *out, *out}), Error::Ok)
      << last_error_message();
  expect_near_vec(out->values<double>(),
                  {1, 3, 4, 2, std::sqrt(17.0), 5}, 1e-12);
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out", {*x, 1.0, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<double>(), (std::vector<double>{1, 3, 4, 2, 5, 7}));
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out", {*x, 0.0, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<double>(), (std::vector<double>{1, 1, 1, 1, 2, 2}));
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out",
                        {*x, std::numeric_limits<double>::infinity(), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<double>(), (std::vector<double>{1, 3, 4, 2, 4, 4}));
}

TEST(PdistForward, FewRowsAndRefused) {
  auto one = tensor<float>(ScalarType::Float, {1, 3}, {1, 2, 3});
  auto out = dynamic_out(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out", {*one, 2.0, *out, *out}), Error::Ok);
  EXPECT_EQ(out->tensor().numel(), 0);
  auto none = tensor<float>(ScalarType::Float, {0, 3}, {});
  ASSERT_EQ(call_kernel("aten::_pdist_forward.out", {*none, 2.0, *out, *out}), Error::Ok);
  EXPECT_EQ(out->tensor().numel(), 0);

  auto x = tensor<float>(ScalarType::Float, {2, 1}, {1, 2});
  auto o = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel("aten::_pdist_forward.out", {*x, -0.5, *o, *o}),
            Error::InvalidArgument);
  auto x3 = empty(ScalarType::Float, {2, 1, 1});
  EXPECT_EQ(call_kernel("aten::_pdist_forward.out", {*x3, 2.0, *o, *o}),
            Error::InvalidArgument);
  auto xi = empty(ScalarType::Int, {2, 1});
  auto oi = empty(ScalarType::Int, {1});
  EXPECT_EQ(call_kernel("aten::_pdist_forward.out", {*xi, 2.0, *oi, *oi}),
            Error::NotSupported);
  auto od = empty(ScalarType::Double, {1});
  EXPECT_EQ(call_kernel("aten::_pdist_forward.out", {*x, 2.0, *od, *od}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing

// aten::_cdist_forward.out (kernels/portable/op__cdist_forward.cpp): values
// by hand for each norm, batch broadcasting, compute_mode accepted, and the
// refused arguments. PyTorch's values for every norm, edge values and
// batches are in the op suite (cdist__*).
#include <limits>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(CdistForward, NormsByHand) {
  auto x1 = tensor<float>(ScalarType::Float, {2, 2}, {0, 0, 1, 1});
  auto x2 = tensor<float>(ScalarType::Float, {1, 2}, {3, 4});
  auto out = empty(ScalarType::Float, {2, 1});
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    double p;
    std::vector<float> want;
  };
  for (const Case& c : {Case{2.0, {5.0f, std::sqrt(13.0f)}}, Case{1.0, {7.0f, 5.0f}},
                        Case{0.0, {2.0f, 2.0f}}, Case{inf, {4.0f, 3.0f}},
                        Case{3.0, {std::cbrt(91.0f), std::cbrt(35.0f)}}}) {
    for (const Arg& mode : {Arg::none(), Arg(0), Arg(1), Arg(2)}) {
      ASSERT_EQ(call_kernel("aten::_cdist_forward.out", {*x1, *x2, c.p, mode, *out, *out}),
                Error::Ok)
          << last_error_message();
      expect_near_vec(out->values<float>(), c.want, 1e-5);
    }
  }
}

TEST(CdistForward, BatchBroadcastAndDouble) {
  // x1 [2, 1, 1, 1], x2 [3, 2, 1]: out [2, 3, 1, 2].
  auto x1 = tensor<double>(ScalarType::Double, {2, 1, 1, 1}, {0, 10});
  auto x2 = tensor<double>(ScalarType::Double, {3, 2, 1}, {1, 2, 3, 4, 5, 6});
  auto out = dynamic_out(ScalarType::Double, {2, 3, 1, 2});
  ASSERT_EQ(call_kernel("aten::_cdist_forward.out", {*x1, *x2, 1.0, Arg::none(), *out, *out}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3, 1, 2}));
  EXPECT_EQ(out->values<double>(),
            (std::vector<double>{1, 2, 3, 4, 5, 6, 9, 8, 7, 6, 5, 4}));
}

TEST(CdistForward, EmptyAndRefused) {
  auto x1 = tensor<float>(ScalarType::Float, {2, 0}, {});
  auto x2 = tensor<float>(ScalarType::Float, {3, 0}, {});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::_cdist_forward.out", {*x1, *x2, 2.0, Arg::none(), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), std::vector<float>(6, 0.0f));

  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b3 = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto o = empty(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*a, *a, -1.0, Arg::none(), *o, *o}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("non-negative"));
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out",
                        {*a, *a, std::numeric_limits<double>::quiet_NaN(), Arg::none(), *o, *o}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*a, *a, 2.0, Arg(3), *o, *o}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("compute_mode"));
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*a, *b3, 2.0, Arg::none(), *o, *o}),
            Error::InvalidArgument);
  auto v = tensor<float>(ScalarType::Float, {2}, {1, 2});
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*v, *a, 2.0, Arg::none(), *o, *o}),
            Error::InvalidArgument);
  auto h = empty(ScalarType::Half, {2, 2});
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*h, *h, 2.0, Arg::none(), *h, *h}),
            Error::NotSupported);
  auto od = empty(ScalarType::Double, {2, 2});
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*a, *a, 2.0, Arg::none(), *od, *od}),
            Error::InvalidArgument);
  // Batch dims 2 and 3 do not broadcast.
  auto ba = empty(ScalarType::Float, {2, 1, 2});
  auto bb = empty(ScalarType::Float, {3, 1, 2});
  auto bo = empty(ScalarType::Float, {3, 1, 1});
  EXPECT_EQ(call_kernel("aten::_cdist_forward.out", {*ba, *bb, 2.0, Arg::none(), *bo, *bo}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("broadcast"));
}

}  // namespace
}  // namespace ember::testing

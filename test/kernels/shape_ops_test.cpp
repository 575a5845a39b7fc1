// View-copy, layout and copy kernels.
#include <numeric>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

TEST(ViewCopy, InferredDimAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {2, 6}, iota(12));
  auto out = empty(ScalarType::Float, {3, 4});
  ASSERT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({3, -1}), *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), iota(12));
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({5, -1}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({4, 4}), *out, *out}),
            Error::InvalidArgument);
  auto dout = empty(ScalarType::Double, {3, 4});
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({3, 4}), *dout, *dout}),
            Error::InvalidArgument);
}

TEST(PermuteCopy, MatchesReference) {
  auto a = tensor<float>(ScalarType::Float, {2, 3, 4}, iota(24));
  auto out = empty(ScalarType::Float, {4, 2, 3});
  ASSERT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({2, 0, -2}), *out, *out}),
            Error::Ok);
  std::vector<float> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want.push_back(float(i * 12 + j * 4 + k));
  EXPECT_EQ(out->values<float>(), want);
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({0, 0, 1}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::permute_copy.out", {*a, Arg::ints({0, 1}), *out, *out}),
            Error::InvalidArgument);
}

TEST(TransposeAndT, TwoD) {
  auto a = tensor<int64_t>(ScalarType::Long, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Long, {3, 2});
  ASSERT_EQ(call_kernel("aten::t_copy.out", {*a, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  auto out2 = empty(ScalarType::Long, {3, 2});
  ASSERT_EQ(call_kernel("aten::transpose_copy.int_out", {*a, -1, 0, *out2, *out2}), Error::Ok);
  EXPECT_EQ(out2->values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(call_kernel("aten::transpose_copy.int_out", {*a, 2, 0, *out2, *out2}),
            Error::InvalidArgument);
  auto three = tensor<float>(ScalarType::Float, {1, 1, 1}, {1});
  auto o3 = empty(ScalarType::Float, {1, 1, 1});
  EXPECT_EQ(call_kernel("aten::t_copy.out", {*three, *o3, *o3}), Error::InvalidArgument);
}

TEST(ExpandCopy, Broadcasts) {
  auto a = tensor<float>(ScalarType::Float, {3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {2, 3, 2});
  ASSERT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, -1, 2}), false, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, 4, 2}), false, *out, *out}),
            Error::InvalidArgument);
}

// A repeat count that would overflow int64 when multiplied by the size
// (found by the bundled_program fuzzer in CI): an error, not UB.
TEST(RepeatCopy, HugeRepeatsRefused) {
  auto a = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::repeat.out", {*a, Arg::ints({2}), *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 1, 2}));
  EXPECT_EQ(call_kernel("aten::repeat.out",
                        {*a, Arg::ints({int64_t(6989586621679009793)}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::repeat.out",
                        {*a, Arg::ints({int64_t(1) << 31}), *out, *out}),
            Error::InvalidArgument);
}

TEST(SqueezeUnsqueeze, Dims) {
  auto a = tensor<float>(ScalarType::Float, {1, 3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0, -1}), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3}));
  // A listed non-1 dim is kept.
  auto keep = empty(ScalarType::Float, {3, 1});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0, 1}), *keep, *keep}),
            Error::Ok);
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({3}), *keep, *keep}),
            Error::InvalidArgument);
  auto u = empty(ScalarType::Float, {3, 1});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*out, -1, *u, *u}), Error::Ok);
  EXPECT_EQ(u->values<float>(), (std::vector<float>{1, 2, 3}));
  auto u0 = empty(ScalarType::Float, {1, 3});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*out, 0, *u0, *u0}), Error::Ok);
  EXPECT_EQ(call_kernel("aten::unsqueeze_copy.out", {*out, 2, *u0, *u0}),
            Error::InvalidArgument);
}

TEST(SliceCopy, PythonSemantics) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto out = dynamic_out(ScalarType::Float, {2, 5});
  // a[:, 1::2]
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 1, 1, Arg::none(), 2, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 3, 6, 8}));
  // a[:, -3:100]
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, -1, -3, 100, 1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{2, 3, 4, 7, 8, 9}));
  // a[1:0] is empty.
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 0, 1, 0, 1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{0, 5}));
  EXPECT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 0, 0, 2, 0, *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 2, 0, 2, 1, *out, *out}),
            Error::InvalidArgument);
}

TEST(Cat, DimsDtypesAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = tensor<int32_t>(ScalarType::Int, {2, 1}, {5, 6});
  auto legacy = empty(ScalarType::Float, {0});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::cat.out",
                        {Arg::tensors({*a, *legacy, *b}), -1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  auto out0 = empty(ScalarType::Float, {4, 2});
  ASSERT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *a}), 0, *out0, *out0}), Error::Ok);
  EXPECT_EQ(out0->values<float>(), (std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4}));
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *b}), 0, *out0, *out0}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*a, *b}), 1, *iout, *iout}),
            Error::InvalidArgument);
}

TEST(Copies, CloneToCopyDimOrder) {
  auto a = tensor<float>(ScalarType::Float, {1, 2, 2, 3}, iota(12));
  // clone into a channels-last out: memory order becomes (n, h, w, c).
  auto cl = empty(ScalarType::Float, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  ASSERT_EQ(call_kernel("aten::clone.out", {*a, Arg::none(), *cl, *cl}), Error::Ok);
  std::vector<float> want;
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w)
      for (int c = 0; c < 2; ++c) want.push_back(float(c * 6 + h * 3 + w));
  EXPECT_EQ(cl->values<float>(), want);
  EXPECT_EQ(call_kernel("aten::clone.out", {*a, 2, *cl, *cl}), Error::NotSupported);

  // _to_dim_order_copy back to contiguous with a dtype change.
  auto back = empty(ScalarType::Double, {1, 2, 2, 3});
  ASSERT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*cl, false, Arg::ints({0, 1, 2, 3}), *back, *back}),
            Error::Ok);
  const std::vector<float> seq = iota(12);
  EXPECT_EQ(back->values<double>(), std::vector<double>(seq.begin(), seq.end()));
  // dim_order argument that disagrees with out.
  EXPECT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*cl, false, Arg::ints({0, 2, 3, 1}), *back, *back}),
            Error::InvalidArgument);
  ASSERT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*a, false, Arg::ints({0, 2, 3, 1}), *cl, *cl}),
            Error::Ok);
  EXPECT_EQ(cl->values<float>(), want);

  // _to_copy float -> int truncates; -> Half rounds.
  auto f = tensor<float>(ScalarType::Float, {3}, {1.7f, -2.5f, 3.0f});
  auto i = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *i, *i}), Error::Ok);
  EXPECT_EQ(i->values<int32_t>(), (std::vector<int32_t>{1, -2, 3}));
  auto h = empty(ScalarType::Half, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *h, *h}), Error::Ok);
  expect_near_vec(to_doubles(*h), {1.7, -2.5, 3.0}, 1e-3);
  auto b = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *b, *b}), Error::Ok);
  EXPECT_EQ(to_doubles(*b), (std::vector<double>{1, 1, 1}));
}

TEST(Copies, CopyOutAndInPlace) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto src = tensor<int64_t>(ScalarType::Long, {3}, {7, 8, 9});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::copy.out", {*self, *src, false, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{7, 8, 9, 7, 8, 9}));
  ASSERT_EQ(call_kernel("aten::copy_", {*self, *src, false, *self}), Error::Ok);
  EXPECT_EQ(self->values<float>(), (std::vector<float>{7, 8, 9, 7, 8, 9}));
  auto bad = tensor<float>(ScalarType::Float, {2}, {1, 2});
  EXPECT_EQ(call_kernel("aten::copy_", {*self, *bad, false, *self}), Error::InvalidArgument);
}

// A step near INT64_MAX: one element, not an overflow in the length or
// the stride.
TEST(SliceCopy, HugeStep) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto out = dynamic_out(ScalarType::Float, {2, 5});
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 1, 1, Arg::none(), INT64_MAX, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 1}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 6}));
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 0, Arg::none(), Arg::none(), INT64_MAX, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1, 5}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 1, 2, 3, 4}));
}

// Sizes whose product overflows int64 are refused, not multiplied.
TEST(ViewCopy, HugeSizesRefused) {
  auto a = tensor<float>(ScalarType::Float, {2, 6}, iota(12));
  auto out = empty(ScalarType::Float, {3, 4});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::view_copy.out",
                        {*a, Arg::ints({big, big, big, 12}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::view_copy.out",
                        {*a, Arg::ints({-1, big, big, big}), *out, *out}),
            Error::InvalidArgument);
}

// Empty inputs may have any size along the cat dim; the sum must not
// overflow int32 (here it would wrap to a valid-looking 2^31 - 3).
TEST(Cat, SummedSizePastInt32Refused) {
  auto e = empty(ScalarType::Float, {INT32_MAX, 0});
  auto out = empty(ScalarType::Float, {INT32_MAX - 2, 0});
  EXPECT_EQ(call_kernel("aten::cat.out", {Arg::tensors({*e, *e, *e}), 0, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing

// aten::view_as_real_copy.out (kernels/portable/op_view_as_real_copy.cpp):
// complex self -> real pairs, in self's logical order whatever its dim
// order; real self and mismatched out dtypes refused. Programs check the
// values against PyTorch in the op suite (view_as_real_copy__*).
#include <cstring>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// A complex tensor whose element at logical index i is (re[i], im[i]),
// stored in `order`.
template <typename R>
std::unique_ptr<OwnedTensor> complex_tensor(ScalarType type, std::vector<SizesType> sizes,
                                            std::vector<DimOrderType> order,
                                            const std::vector<R>& re, const std::vector<R>& im) {
  auto t = empty(type, sizes, ShapeDynamism::Static, order);
  R* data = static_cast<R*>(t->tensor().mutable_data_ptr());
  const Span<const StridesType> strides = t->tensor().strides();
  // Logical index -> storage offset for rank 2 (enough for these tests).
  for (SizesType i = 0; i < sizes[0]; ++i) {
    for (SizesType j = 0; j < sizes[1]; ++j) {
      const size_t logical = size_t(i * sizes[1] + j);
      const size_t at = size_t(i * strides[0] + j * strides[1]);
      data[2 * at] = re[logical];
      data[2 * at + 1] = im[logical];
    }
  }
  return t;
}

TEST(ViewAsRealCopy, ComplexFloatInAnyDimOrder) {
  const std::vector<float> re = {1, 2, 3, 4, 5, 6}, im = {-1, -2, -3, -4, -5, -6};
  for (const std::vector<DimOrderType>& order : {std::vector<DimOrderType>{0, 1},
                                                  std::vector<DimOrderType>{1, 0}}) {
    auto self = complex_tensor<float>(ScalarType::ComplexFloat, {2, 3}, order, re, im);
    auto out = empty(ScalarType::Float, {2, 3, 2});
    ASSERT_EQ(call_kernel("aten::view_as_real_copy.out", {*self, *out, *out}), Error::Ok)
        << last_error_message();
    EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3, 2}));
    const float* got = out->tensor().const_data_ptr<float>();
    for (size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(got[2 * i], re[i]) << "element " << i;
      EXPECT_EQ(got[2 * i + 1], im[i]) << "element " << i;
    }
  }
}

TEST(ViewAsRealCopy, ComplexDoubleAndHalf) {
  auto d = complex_tensor<double>(ScalarType::ComplexDouble, {1, 2}, {}, {0.5, -0.25},
                                  {1e300, -0.0});
  auto d_out = empty(ScalarType::Double, {1, 2, 2});
  ASSERT_EQ(call_kernel("aten::view_as_real_copy.out", {*d, *d_out, *d_out}), Error::Ok);
  const double* g = d_out->tensor().const_data_ptr<double>();
  EXPECT_EQ(g[0], 0.5);
  EXPECT_EQ(g[1], 1e300);
  EXPECT_EQ(g[2], -0.25);
  EXPECT_TRUE(std::signbit(g[3]));

  auto h = complex_tensor<Half>(ScalarType::ComplexHalf, {1, 1}, {}, {Half(1.5f)},
                                {Half(-2.0f)});
  auto h_out = empty(ScalarType::Half, {1, 1, 2});
  ASSERT_EQ(call_kernel("aten::view_as_real_copy.out", {*h, *h_out, *h_out}), Error::Ok);
  EXPECT_EQ(float(h_out->tensor().const_data_ptr<Half>()[0]), 1.5f);
  EXPECT_EQ(float(h_out->tensor().const_data_ptr<Half>()[1]), -2.0f);
}

TEST(ViewAsRealCopy, RefusesRealSelfAndWrongOutDtype) {
  auto self = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel("aten::view_as_real_copy.out", {*self, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("complex"));
  auto c = empty(ScalarType::ComplexFloat, {3});
  auto wrong = empty(ScalarType::Double, {3, 2});
  EXPECT_EQ(call_kernel("aten::view_as_real_copy.out", {*c, *wrong, *wrong}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("Double is not Float"));
  auto small = empty(ScalarType::Float, {3, 1});
  EXPECT_NE(call_kernel("aten::view_as_real_copy.out", {*c, *small, *small}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing

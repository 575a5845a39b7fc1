// aten::_fft_c2c.out (kernels/portable/op__fft_c2c.cpp): PyTorch's values
// (fft_cases.h, written by fft_cases.py: forward and backward, every
// normalization, no dim to three dims, ComplexFloat and ComplexDouble, a
// Bluestein length), the same in other dim orders, forward then backward
// by 1/n giving self back, and the refusals. The transform itself:
// kernels/math/fft_test.cpp.
#include "test/kernels/portable/fft_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::_fft_c2c.out";

Error call_c2c(const OwnedTensor& self, std::vector<int64_t> dim, int64_t norm, bool forward,
               const OwnedTensor& out) {
  return call_kernel(kOp, {self, Arg::ints(dim), norm, forward, out, out});
}

ScalarType complex_type(const FftCase& c) {
  return c.is_double ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
}

TEST(FftC2c, MatchesPyTorch) {
  for (const FftCase& c : fft_c2c_cases()) {
    auto self = fft_tensor(complex_type(c), c.in_sizes, c.in);
    auto out = fft_out(complex_type(c), c.out_sizes);
    ASSERT_EQ(call_c2c(*self, c.dim, c.normalization, c.flag != 0, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
  }
}

TEST(FftC2c, AnyDimOrder) {
  for (const FftCase& c : fft_c2c_cases()) {
    if (c.in_sizes.size() < 2) continue;
    std::vector<DimOrderType> reversed(c.in_sizes.size());
    for (size_t d = 0; d < reversed.size(); ++d) {
      reversed[d] = DimOrderType(reversed.size() - 1 - d);
    }
    auto self = fft_tensor(complex_type(c), c.in_sizes, c.in, reversed);
    auto out = fft_out(complex_type(c), c.out_sizes);
    ASSERT_EQ(call_c2c(*self, c.dim, c.normalization, c.flag != 0, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
    auto out_reversed = fft_out(complex_type(c), c.out_sizes, reversed);
    auto plain = fft_tensor(complex_type(c), c.in_sizes, c.in);
    ASSERT_EQ(call_c2c(*plain, c.dim, c.normalization, c.flag != 0, *out_reversed), Error::Ok);
    expect_fft_near(fft_values(*out_reversed), c.out, c.is_double, c.name);
  }
}

TEST(FftC2c, BackwardByNUndoesForward) {
  std::vector<double> values(2 * 3 * 10);
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(double(i) * 0.7) + 0.1 * i;
  auto self = fft_tensor(ScalarType::ComplexDouble, {3, 10}, values);
  auto spectrum = fft_out(ScalarType::ComplexDouble, {3, 10});
  auto back = fft_out(ScalarType::ComplexDouble, {3, 10});
  ASSERT_EQ(call_c2c(*self, {0, 1}, 0, true, *spectrum), Error::Ok);
  ASSERT_EQ(call_c2c(*spectrum, {1, 0}, 2, false, *back), Error::Ok);
  expect_fft_near(fft_values(*back), values, true, "round trip");
}

TEST(FftC2c, InPlaceOnOut) {
  // An out that is self: lines are read whole before they are written.
  const FftCase& c = fft_c2c_cases()[3];  // [2, 3, 4], dims {2, 0}
  ASSERT_EQ(c.in_sizes.size(), 3u);
  auto both = fft_tensor(complex_type(c), c.in_sizes, c.in);
  ASSERT_EQ(call_c2c(*both, c.dim, c.normalization, c.flag != 0, *both), Error::Ok);
  expect_fft_near(fft_values(*both), c.out, c.is_double, c.name);
}

TEST(FftC2c, Refusals) {
  auto self = fft_tensor(ScalarType::ComplexFloat, {2, 3}, std::vector<double>(12, 1.0));
  auto out = fft_out(ScalarType::ComplexFloat, {2, 3});
  EXPECT_EQ(call_c2c(*self, {1}, 0, true, *out), Error::Ok) << last_error_message();

  auto real = fft_tensor(ScalarType::Float, {2, 3}, std::vector<double>(6, 1.0));
  EXPECT_EQ(call_c2c(*real, {1}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("self must be ComplexFloat or ComplexDouble, got Float"));
  auto wide_out = fft_out(ScalarType::ComplexDouble, {2, 3});
  EXPECT_EQ(call_c2c(*self, {1}, 0, true, *wide_out), Error::InvalidArgument);
  auto real_out = fft_out(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_c2c(*self, {1}, 0, true, *real_out), Error::InvalidArgument);

  EXPECT_EQ(call_c2c(*self, {2}, 0, true, *out), Error::InvalidArgument);
  EXPECT_EQ(call_c2c(*self, {1, -1}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("named twice"));
  EXPECT_EQ(call_c2c(*self, {0, 1, 0}, 0, true, *out), Error::InvalidArgument);
  EXPECT_EQ(call_c2c(*self, {0}, 3, true, *out), Error::InvalidArgument);

  auto wrong_shape = fft_out(ScalarType::ComplexFloat, {3, 2});
  EXPECT_EQ(call_c2c(*self, {1}, 0, true, *wrong_shape), Error::NotSupported);

  auto no_signal = fft_tensor(ScalarType::ComplexFloat, {2, 0}, {});
  auto no_signal_out = fft_out(ScalarType::ComplexFloat, {2, 0});
  EXPECT_EQ(call_c2c(*no_signal, {1}, 0, true, *no_signal_out), Error::InvalidArgument);
  EXPECT_EQ(call_c2c(*no_signal, {0}, 0, true, *no_signal_out), Error::Ok);  // an empty batch

  EXPECT_EQ(call_kernel(kOp, {*self, Arg::ints({1}), 0, 1, *out, *out}), Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing

// aten::_fft_c2r.out (kernels/portable/op__fft_c2r.cpp): PyTorch's values
// (fft_cases.h, written by fft_cases.py: odd and even last_dim_size, every
// normalization, one to three dims, the last dim named first, a self
// holding the full length, ComplexFloat and ComplexDouble, a Bluestein
// length), the same in other dim orders, that the imaginary parts of the
// DC and Nyquist entries do not count, and the refusals. The transform
// itself: kernels/math/fft_test.cpp.
#include "test/kernels/portable/fft_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::_fft_c2r.out";

Error call_c2r(const OwnedTensor& self, std::vector<int64_t> dim, int64_t norm,
               int64_t last_dim_size, const OwnedTensor& out) {
  return call_kernel(kOp, {self, Arg::ints(dim), norm, last_dim_size, out, out});
}

ScalarType real_type(const FftCase& c) {
  return c.is_double ? ScalarType::Double : ScalarType::Float;
}
ScalarType complex_type(const FftCase& c) {
  return c.is_double ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
}

TEST(FftC2r, MatchesPyTorch) {
  for (const FftCase& c : fft_c2r_cases()) {
    auto self = fft_tensor(complex_type(c), c.in_sizes, c.in);
    auto out = fft_out(real_type(c), c.out_sizes);
    ASSERT_EQ(call_c2r(*self, c.dim, c.normalization, c.flag, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
  }
}

TEST(FftC2r, AnyDimOrder) {
  for (const FftCase& c : fft_c2r_cases()) {
    if (c.in_sizes.size() != 3) continue;
    auto self = fft_tensor(complex_type(c), c.in_sizes, c.in, {1, 2, 0});
    auto out = fft_out(real_type(c), c.out_sizes, {2, 1, 0});
    ASSERT_EQ(call_c2r(*self, c.dim, c.normalization, c.flag, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
  }
}

// A real signal's spectrum has no imaginary part at DC (and at n/2 for an
// even n): c2r ignores what is there, as PyTorch does.
TEST(FftC2r, ImaginaryPartsOfDcAndNyquistDoNotCount) {
  for (int64_t n : {6, 7}) {
    std::vector<double> spectrum = {1.0, 0.0, 0.5, -0.25, -2.0, 1.0, 0.75, 0.0};
    auto plain = fft_tensor(ScalarType::ComplexDouble, {4}, spectrum);
    spectrum[1] = 3.0;                    // DC
    if (n % 2 == 0) spectrum[7] = -5.0;   // Nyquist (entry 3 of 4)
    auto disturbed = fft_tensor(ScalarType::ComplexDouble, {4}, spectrum);
    auto a = fft_out(ScalarType::Double, {SizesType(n)});
    auto b = fft_out(ScalarType::Double, {SizesType(n)});
    ASSERT_EQ(call_c2r(*plain, {0}, 0, n, *a), Error::Ok) << last_error_message();
    ASSERT_EQ(call_c2r(*disturbed, {0}, 0, n, *b), Error::Ok) << last_error_message();
    expect_fft_near(fft_values(*b), fft_values(*a), true, "n = " + std::to_string(n));
  }
}

TEST(FftC2r, LongerSelfReadsItsFirstEntries) {
  // PyTorch's CPU kernel takes n/2 + 1 or n entries; Ember reads the first
  // n/2 + 1 of any self at least that long.
  const std::vector<double> values = {1, 0, 2, 1, -1, 0.5, 3, 3, 9, 9, 7, 7};
  auto longer = fft_tensor(ScalarType::ComplexFloat, {6}, values);
  auto exact = fft_tensor(ScalarType::ComplexFloat, {3}, {1, 0, 2, 1, -1, 0.5});
  auto a = fft_out(ScalarType::Float, {5});
  auto b = fft_out(ScalarType::Float, {5});
  ASSERT_EQ(call_c2r(*longer, {0}, 2, 5, *a), Error::Ok) << last_error_message();
  ASSERT_EQ(call_c2r(*exact, {0}, 2, 5, *b), Error::Ok) << last_error_message();
  EXPECT_EQ(fft_values(*a), fft_values(*b));
}

TEST(FftC2r, Refusals) {
  auto self = fft_tensor(ScalarType::ComplexFloat, {2, 3}, std::vector<double>(12, 1.0));
  auto out = fft_out(ScalarType::Float, {2, 4});
  EXPECT_EQ(call_c2r(*self, {1}, 0, 4, *out), Error::Ok) << last_error_message();

  auto real = fft_tensor(ScalarType::Float, {2, 3}, std::vector<double>(6, 1.0));
  EXPECT_EQ(call_c2r(*real, {1}, 0, 4, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("self must be ComplexFloat or ComplexDouble"));
  auto complex_half = empty(ScalarType::ComplexHalf, {2, 3});
  EXPECT_EQ(call_c2r(*complex_half, {1}, 0, 4, *out), Error::InvalidArgument);

  auto double_out = fft_out(ScalarType::Double, {2, 4});
  EXPECT_EQ(call_c2r(*self, {1}, 0, 4, *double_out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("out dtype Double is not Float"));
  auto complex_out = fft_out(ScalarType::ComplexFloat, {2, 4});
  EXPECT_EQ(call_c2r(*self, {1}, 0, 4, *complex_out), Error::InvalidArgument);

  EXPECT_EQ(call_c2r(*self, {5}, 0, 4, *out), Error::InvalidArgument);
  EXPECT_EQ(call_c2r(*self, {0, 0}, 0, 4, *out), Error::InvalidArgument);
  EXPECT_EQ(call_c2r(*self, {}, 0, 4, *out), Error::InvalidArgument);
  EXPECT_EQ(call_c2r(*self, {1}, 7, 4, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("normalization 7"));

  // last_dim_size: at least 1, and self must hold last_dim_size/2 + 1.
  EXPECT_EQ(call_c2r(*self, {1}, 0, 0, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("last_dim_size 0"));
  EXPECT_EQ(call_c2r(*self, {1}, 0, -4, *out), Error::InvalidArgument);
  auto out6 = fft_out(ScalarType::Float, {2, 6});
  EXPECT_EQ(call_c2r(*self, {1}, 0, 6, *out6), Error::InvalidArgument);
  EXPECT_TRUE(message_has("needs at least 4"));
  auto out5 = fft_out(ScalarType::Float, {2, 5});
  EXPECT_EQ(call_c2r(*self, {1}, 0, 5, *out5), Error::Ok);

  EXPECT_EQ(call_c2r(*self, {1}, 0, 5, *out), Error::NotSupported);  // static [2, 4]

  auto no_rows = fft_tensor(ScalarType::ComplexFloat, {0, 3}, {});
  auto no_rows_out = fft_out(ScalarType::Float, {0, 4});
  EXPECT_EQ(call_c2r(*no_rows, {0, 1}, 0, 4, *no_rows_out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("no elements along transform dim 0"));
  EXPECT_EQ(call_c2r(*no_rows, {1}, 0, 4, *no_rows_out), Error::Ok);  // an empty batch

  EXPECT_EQ(call_kernel(kOp, {*self, Arg::ints({1}), 0, 4.0, *out, *out}), Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing

// aten::_fft_r2c.out (kernels/portable/op__fft_r2c.cpp): PyTorch's values
// (fft_cases.h, written by fft_cases.py: odd and even lengths, onesided or
// not, every normalization, one to three dims in any order, Float and
// Double, a Bluestein length, Whisper's 400), the same in other dim
// orders, a bounded-dynamic out, and the refusals. The transform itself:
// kernels/math/fft_test.cpp.
#include "test/kernels/portable/fft_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::_fft_r2c.out";

Error call_r2c(const OwnedTensor& self, std::vector<int64_t> dim, int64_t norm, bool onesided,
               const OwnedTensor& out) {
  return call_kernel(kOp, {self, Arg::ints(dim), norm, onesided, out, out});
}

ScalarType real_type(const FftCase& c) {
  return c.is_double ? ScalarType::Double : ScalarType::Float;
}
ScalarType complex_type(const FftCase& c) {
  return c.is_double ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
}

TEST(FftR2c, MatchesPyTorch) {
  for (const FftCase& c : fft_r2c_cases()) {
    auto self = fft_tensor(real_type(c), c.in_sizes, c.in);
    auto out = fft_out(complex_type(c), c.out_sizes);
    ASSERT_EQ(call_r2c(*self, c.dim, c.normalization, c.flag != 0, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
  }
}

TEST(FftR2c, AnyDimOrder) {
  for (const FftCase& c : fft_r2c_cases()) {
    if (c.in_sizes.size() != 3) continue;
    auto self = fft_tensor(real_type(c), c.in_sizes, c.in, {2, 0, 1});
    auto out = fft_out(complex_type(c), c.out_sizes, {1, 2, 0});
    ASSERT_EQ(call_r2c(*self, c.dim, c.normalization, c.flag != 0, *out), Error::Ok)
        << c.name << ": " << last_error_message();
    expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
  }
}

TEST(FftR2c, NegativeDimAndDynamicOut) {
  // PyTorch's frontends pass dims normalized; Ember also takes -1.
  const FftCase& c = fft_r2c_cases()[2];  // [3, 5], dim 1, not onesided
  ASSERT_EQ(c.dim, std::vector<int64_t>{1});
  auto self = fft_tensor(real_type(c), c.in_sizes, c.in);
  auto out = std::make_unique<OwnedTensor>(complex_type(c), std::vector<SizesType>{8, 8},
                                           std::vector<DimOrderType>{},
                                           ShapeDynamism::DynamicBound);
  ASSERT_EQ(call_r2c(*self, {-1}, c.normalization, false, *out), Error::Ok)
      << last_error_message();
  EXPECT_EQ(sizes_of(*out), c.out_sizes);
  expect_fft_near(fft_values(*out), c.out, c.is_double, c.name);
}

TEST(FftR2c, EmptyBatchWritesNothing) {
  auto self = fft_tensor(ScalarType::Float, {0, 4}, {});
  auto out = fft_out(ScalarType::ComplexFloat, {0, 3});
  EXPECT_EQ(call_r2c(*self, {1}, 0, true, *out), Error::Ok) << last_error_message();
}

TEST(FftR2c, Refusals) {
  auto self = fft_tensor(ScalarType::Float, {2, 4}, std::vector<double>(8, 1.0));
  auto out = fft_out(ScalarType::ComplexFloat, {2, 3});
  EXPECT_EQ(call_r2c(*self, {1}, 0, true, *out), Error::Ok);

  auto ints = empty(ScalarType::Int, {2, 4});
  EXPECT_EQ(call_r2c(*ints, {1}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("self must be Float or Double"));
  auto half = empty(ScalarType::Half, {2, 4});
  EXPECT_EQ(call_r2c(*half, {1}, 0, true, *out), Error::InvalidArgument);
  auto complex = empty(ScalarType::ComplexFloat, {2, 4});
  EXPECT_EQ(call_r2c(*complex, {1}, 0, true, *out), Error::InvalidArgument);

  auto wide_out = fft_out(ScalarType::ComplexDouble, {2, 3});
  EXPECT_EQ(call_r2c(*self, {1}, 0, true, *wide_out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("out dtype ComplexDouble is not ComplexFloat"));
  auto real_out = fft_out(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_r2c(*self, {1}, 0, true, *real_out), Error::InvalidArgument);

  EXPECT_EQ(call_r2c(*self, {2}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("dim 2 out of range"));
  EXPECT_EQ(call_r2c(*self, {-3}, 0, true, *out), Error::InvalidArgument);
  EXPECT_EQ(call_r2c(*self, {1, 1}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("named twice"));
  EXPECT_EQ(call_r2c(*self, {}, 0, true, *out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("at least one dim"));
  for (int64_t norm : {-1, 3}) {
    EXPECT_EQ(call_r2c(*self, {1}, norm, true, *out), Error::InvalidArgument);
    EXPECT_TRUE(message_has("normalization"));
  }

  auto wrong_shape = fft_out(ScalarType::ComplexFloat, {2, 4});  // onesided wants [2, 3]
  EXPECT_EQ(call_r2c(*self, {1}, 0, true, *wrong_shape), Error::NotSupported);
  EXPECT_EQ(call_r2c(*self, {1}, 0, false, *wrong_shape), Error::Ok);

  auto no_signal = fft_tensor(ScalarType::Float, {2, 0}, {});
  auto no_signal_out = fft_out(ScalarType::ComplexFloat, {2, 1});
  EXPECT_EQ(call_r2c(*no_signal, {1}, 0, true, *no_signal_out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("no elements along transform dim 1"));

  auto scalar = fft_tensor(ScalarType::Float, {}, {1.0});
  auto scalar_out = fft_out(ScalarType::ComplexFloat, {});
  EXPECT_EQ(call_r2c(*scalar, {0}, 0, true, *scalar_out), Error::InvalidArgument);
  EXPECT_TRUE(message_has("0-dim"));

  // Argument tags: normalization must be an Int, onesided a Bool.
  EXPECT_EQ(call_kernel(kOp, {*self, Arg::ints({1}), 0.5, true, *out, *out}),
            Error::InvalidType);
  EXPECT_EQ(call_kernel(kOp, {*self, Arg::ints({1}), 0, 1, *out, *out}), Error::InvalidType);
  EXPECT_EQ(call_kernel(kOp, {*self, Arg::ints({1}), 0, true, *out}), Error::InvalidProgram);
}

TEST(FftR2c, TempMemoryShortIsAnError) {
  // The test context has 1 MiB of temp memory; a signal of 2^17 floats
  // needs 5 MiB of plan and lines.
  const SizesType n = 1 << 17;
  auto self = fft_tensor(ScalarType::Float, {n}, std::vector<double>(size_t(n), 0.5));
  auto out = fft_out(ScalarType::ComplexFloat, {n / 2 + 1});
  EXPECT_EQ(call_r2c(*self, {0}, 0, true, *out), Error::MemoryAllocationFailed);
  EXPECT_TRUE(message_has("temp memory"));
}

}  // namespace
}  // namespace ember::testing

// requantize.h: rounding (half to even), clamping, and limits, against
// values worked out by hand.
#include "kernels/math/requantize.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ember::math {
namespace {

TEST(Requantize, RoundsHalfToEvenAndClamps) {
  // scale 0.5, offset 0: 1 -> 0.5 -> 0; 3 -> 1.5 -> 2; 5 -> 2.5 -> 2;
  // -3 -> -1.5 -> -2; 1000 -> 500 -> clamp 100; -1000 -> -500 -> -100;
  // INT32_MAX must clamp, not overflow.
  const int32_t acc[] = {1, 3, 5, -3, 1000, -1000, 2147483647, -2147483647 - 1};
  int8_t out[8];
  requantize_i32_i8(8, acc, 0.5f, 0.0f, -100, 100, out);
  const int8_t want[] = {0, 2, 2, -2, 100, -100, 100, -100};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(Requantize, OffsetIsTheZeroPoint) {
  const int32_t acc[] = {0, 10, -10};
  int8_t out[3];
  requantize_i32_i8(3, acc, 0.1f, -5.0f, -128, 127, out);
  EXPECT_EQ(out[0], -5);
  EXPECT_EQ(out[1], -4);
  EXPECT_EQ(out[2], -6);
}

TEST(Requantize, LimitOfARealValue) {
  EXPECT_EQ(quantize_limit_i8(6.0f, 0.05f, -10, 0), 110);
  EXPECT_EQ(quantize_limit_i8(100.0f, 0.05f, -10, 0), 127);
  EXPECT_EQ(quantize_limit_i8(-100.0f, 0.05f, -10, 0), -128);
  EXPECT_EQ(quantize_limit_i8(INFINITY, 0.05f, 3, 127), 127);
  EXPECT_EQ(quantize_limit_i8(-INFINITY, 0.05f, 3, -128), -128);
  EXPECT_EQ(quantize_limit_i8(0.025f, 0.05f, 0, 0), 0);   // 0.5 -> 0 (even)
  EXPECT_EQ(quantize_limit_i8(0.075f, 0.05f, 0, 0), 2);   // 1.5 -> 2
}

}  // namespace
}  // namespace ember::math

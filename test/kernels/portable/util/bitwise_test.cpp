// kernels/portable/util/bitwise.h: the bitwise family's element operations,
// in particular the shifts' defined result for every count of every
// integral type (C++ leaves counts outside [0, width) undefined; PyTorch's
// CPU kernels, which these follow, do not).
#include "kernels/portable/util/bitwise.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace ember {
namespace {

template <typename T>
void check_shifts_of_every_count() {
  constexpr int kBits = int(sizeof(T) * 8);
  const T values[] = {T(0), T(1), T(5), std::numeric_limits<T>::max(),
                      std::numeric_limits<T>::lowest()};
  for (const T x : values) {
    for (int n = -kBits - 2; n <= kBits + 2; ++n) {
      if (std::is_unsigned<T>::value && n < 0) continue;
      const T count = T(n);
      const T left = shift_left_value(x, count);
      const T right = shift_right_value(x, count);
      if (n < 0 || n >= kBits) {
        EXPECT_EQ(left, T(0)) << int64_t(x) << " << " << n;
      } else {
        EXPECT_EQ(left, T(uint64_t(x) << n)) << int64_t(x) << " << " << n;
      }
      if (std::is_signed<T>::value) {
        const int used = (n < 0 || n >= kBits - 1) ? kBits - 1 : n;
        // Floor division by 2^used is the arithmetic shift.
        int64_t want = int64_t(x);
        for (int k = 0; k < used; ++k) want = want >= 0 ? want / 2 : -(-(want + 1) / 2) - 1;
        EXPECT_EQ(int64_t(right), want) << int64_t(x) << " >> " << n;
      } else {
        EXPECT_EQ(right, n >= kBits ? T(0) : T(x >> n)) << int64_t(x) << " >> " << n;
      }
    }
  }
}

TEST(BitwiseUtil, ShiftsAreDefinedForEveryCount) {
  check_shifts_of_every_count<uint8_t>();
  check_shifts_of_every_count<int8_t>();
  check_shifts_of_every_count<int16_t>();
  check_shifts_of_every_count<int32_t>();
  check_shifts_of_every_count<int64_t>();
}

TEST(BitwiseUtil, LogicalOpsAndNames) {
  EXPECT_EQ((bitwise_value<Bitwise::kAnd>(int8_t(0x5a), int8_t(0x0f))), int8_t(0x0a));
  EXPECT_EQ((bitwise_value<Bitwise::kOr>(int8_t(0x50), int8_t(0x0f))), int8_t(0x5f));
  EXPECT_EQ((bitwise_value<Bitwise::kXor>(true, true)), false);
  EXPECT_STREQ(kBitwiseNames[int(Bitwise::kRightShift)].scalar_out,
               "aten::bitwise_right_shift.Tensor_Scalar_out");
}

}  // namespace
}  // namespace ember

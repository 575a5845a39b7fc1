// Element arithmetic (kernels/portable/util/arithmetic.h) through add and
// mul: same-dtype results over every storage type, with Bool add as "or"
// and Bool mul as "and".
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr ScalarType kAllTypes[] = {
    ScalarType::Bool,  ScalarType::Byte, ScalarType::Char,  ScalarType::Short,
    ScalarType::Int,   ScalarType::Long, ScalarType::Half,  ScalarType::BFloat16,
    ScalarType::Float, ScalarType::Double};

// Same-dtype add and mul over every dtype: the result stays in that dtype.
TEST(Arithmetic, DtypeSweepSameType) {
  const std::vector<double> av = {0, 1, 2, 3, 5, 7};
  const std::vector<double> bv = {1, 1, 0, 2, 3, 1};
  for (ScalarType t : kAllTypes) {
    auto a = from_doubles(t, {2, 3}, av);
    auto b = from_doubles(t, {2, 3}, bv);
    auto out = empty(t, {2, 3});
    ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok)
        << scalar_type_name(t) << ": " << last_error_message();
    std::vector<double> want(6);
    for (size_t i = 0; i < 6; ++i) {
      want[i] = t == ScalarType::Bool ? double((av[i] != 0) || (bv[i] != 0))
                                      : av[i] + bv[i];
    }
    expect_near_vec(to_doubles(*out), want, 0);
    ASSERT_EQ(call_kernel("aten::mul.out", {*a, *b, *out, *out}), Error::Ok)
        << scalar_type_name(t);
    for (size_t i = 0; i < 6; ++i) {
      want[i] = t == ScalarType::Bool ? double((av[i] != 0) && (bv[i] != 0))
                                      : av[i] * bv[i];
    }
    expect_near_vec(to_doubles(*out), want, 0);
  }
}

}  // namespace
}  // namespace ember::testing

// aten::bmm.out (kernels/portable/op_bmm.cpp) against a reference loop.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Bmm, Batched) {
  const int batch = 3, m = 2, k = 5, n = 3;
  const auto av = pattern(batch * m * k, 9, 1), bv = pattern(batch * k * n, 7, 1);
  auto a = from_doubles(ScalarType::Double, {batch, m, k}, av);
  auto b = from_doubles(ScalarType::Double, {batch, k, n}, bv);
  auto out = empty(ScalarType::Double, {batch, m, n});
  ASSERT_EQ(call_kernel("aten::bmm.out", {*a, *b, *out, *out}), Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < batch; ++i) {
    std::vector<double> ai(av.begin() + i * m * k, av.begin() + (i + 1) * m * k);
    std::vector<double> bi(bv.begin() + i * k * n, bv.begin() + (i + 1) * k * n);
    auto ci = ref_mm(m, k, n, ai, bi);
    want.insert(want.end(), ci.begin(), ci.end());
  }
  expect_near_vec(to_doubles(*out), want, 1e-9);
}

}  // namespace
}  // namespace ember::testing

// llama::sdpa_with_kv_cache.out (kernels/llm/op_sdpa_with_kv_cache.cpp):
// the cache write, and that a refused call leaves the caches untouched.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "llama::sdpa_with_kv_cache.out";

TEST(SdpaWithKvCache, WritesCachesThenAttends) {
  // One head, D 2, cache of 4; step at position 1 with k = v = [5, 6].
  auto q = tensor<float>(ScalarType::Float, {1, 1, 1, 2}, {1, 0});
  auto k = tensor<float>(ScalarType::Float, {1, 1, 1, 2}, {5, 6});
  auto v = tensor<float>(ScalarType::Float, {1, 1, 1, 2}, {5, 6});
  auto kc = tensor<float>(ScalarType::Float, {1, 4, 1, 2}, {1, 1, 9, 9, 9, 9, 9, 9});
  auto vc = tensor<float>(ScalarType::Float, {1, 4, 1, 2}, {1, 2, 9, 9, 9, 9, 9, 9});
  auto out = empty(ScalarType::Float, {1, 1, 1, 2});
  // scale 0: mean of v rows 0 and 1 = [3, 4].
  ASSERT_EQ(call_kernel(kOp, {*q, *k, *v, *kc, *vc, int64_t(1), int64_t(1), Arg::none(), 0.0,
                              true, 0.0, *out, *out}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(kc->values<float>(), (std::vector<float>{1, 1, 5, 6, 9, 9, 9, 9}));
  EXPECT_EQ(vc->values<float>(), (std::vector<float>{1, 2, 5, 6, 9, 9, 9, 9}));
  expect_near_vec(out->values<float>(), std::vector<float>{3, 4}, 1e-6);
}

TEST(SdpaWithKvCache, RefusedCallLeavesCaches) {
  auto q = empty(ScalarType::Float, {1, 2, 1, 2});
  auto k = tensor<float>(ScalarType::Float, {1, 2, 1, 2}, {5, 6, 7, 8});
  auto kc = tensor<float>(ScalarType::Float, {1, 3, 1, 2}, {0, 0, 0, 0, 0, 0});
  auto vc = tensor<float>(ScalarType::Float, {1, 3, 1, 2}, {0, 0, 0, 0, 0, 0});
  auto out = empty(ScalarType::Float, {1, 2, 1, 2});
  // Position 2 + 2 rows overflows a cache of 3.
  EXPECT_EQ(call_kernel(kOp, {*q, *k, *k, *kc, *vc, int64_t(2), int64_t(2), Arg::none(), 0.0,
                              true, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("does not fit key_cache"));
  // seq_len differs from query's.
  EXPECT_EQ(call_kernel(kOp, {*q, *k, *k, *kc, *vc, int64_t(0), int64_t(1), Arg::none(), 0.0,
                              true, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("seq_len"));
  // The caches would take k and v here, but the mask is refused: nothing
  // is written.
  auto mask = empty(ScalarType::Float, {2, 2});
  EXPECT_EQ(call_kernel(kOp, {*q, *k, *k, *kc, *vc, int64_t(0), int64_t(2), *mask, 0.0,
                              false, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("attn_mask must be Float"));
  EXPECT_EQ(kc->values<float>(), std::vector<float>(6, 0.0f));
  EXPECT_EQ(vc->values<float>(), std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace ember::testing

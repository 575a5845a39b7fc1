// llama::update_cache_with_indices.out
// (kernels/llm/op_update_cache_with_indices.cpp, kernels/llm/kv_cache.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "llama::update_cache_with_indices.out";

TEST(UpdateCacheWithIndices, WritesNamedRowsLaterTokenWins) {
  // value [2, 3, 1, 1]; batch 0 names slot 2 twice (the later token
  // stays), batch 1 writes slots 3, 0, 1. start_pos is not read.
  auto value = tensor<float>(ScalarType::Float, {2, 3, 1, 1}, {1, 2, 3, 4, 5, 6});
  auto cache = tensor<float>(ScalarType::Float, {2, 4, 1, 1}, std::vector<float>(8, 0));
  auto idx = tensor<int64_t>(ScalarType::Long, {2, 3}, {2, 0, 2, 3, 0, 1});
  auto out = empty(ScalarType::Float, {1});
  ASSERT_EQ(call_kernel(kOp, {*value, *cache, int64_t(99), *idx, *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(cache->values<float>(), (std::vector<float>{2, 0, 3, 0, 5, 6, 0, 4}));
}

TEST(UpdateCacheWithIndices, RefusesBadArguments) {
  auto value = empty(ScalarType::Float, {1, 2, 1, 2});
  auto cache = tensor<float>(ScalarType::Float, {1, 3, 1, 2}, std::vector<float>(6, 7));
  auto out = empty(ScalarType::Float, {1});
  auto far = tensor<int64_t>(ScalarType::Long, {1, 2}, {0, 3});
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(0), *far, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("index 3 is outside cache"));
  EXPECT_EQ(cache->values<float>(), std::vector<float>(6, 7));  // nothing written
  auto neg = tensor<int64_t>(ScalarType::Long, {1, 2}, {-1, 0});
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(0), *neg, *out, *out}),
            Error::InvalidArgument);
  auto ints = tensor<int32_t>(ScalarType::Int, {1, 2}, {0, 1});
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(0), *ints, *out, *out}),
            Error::InvalidArgument);
  auto short_idx = tensor<int64_t>(ScalarType::Long, {1, 1}, {0});
  EXPECT_EQ(call_kernel(kOp, {*value, *cache, int64_t(0), *short_idx, *out, *out}),
            Error::InvalidArgument);
  auto other_d = empty(ScalarType::Float, {1, 3, 1, 3});
  auto ok_idx = tensor<int64_t>(ScalarType::Long, {1, 2}, {0, 1});
  EXPECT_EQ(call_kernel(kOp, {*value, *other_d, int64_t(0), *ok_idx, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing

// llama::custom_sdpa.out (kernels/llm/op_custom_sdpa.cpp, maths in
// kernels/llm/sdpa.cpp). Values against upstream are in
// test/models/llm_ops (llm_ops_fixture_test); here: small hand-checked
// cases and the argument checks.
#include <algorithm>

#include "runtime/platform/threadpool.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "llama::custom_sdpa.out";

// q [1, S, H, D], caches [1, M, Hkv, D] filled with a ramp.
struct Attention {
  std::unique_ptr<OwnedTensor> q, k, v, out;
  Attention(ScalarType t, int S, int H, int Hkv, int D, int M) {
    std::vector<double> qv(size_t(S * H * D)), kv(size_t(M * Hkv * D)), vv(kv.size());
    for (size_t i = 0; i < qv.size(); ++i) qv[i] = 0.1 * double(i % 7) - 0.3;
    for (size_t i = 0; i < kv.size(); ++i) kv[i] = 0.05 * double(i % 11) - 0.2;
    for (size_t i = 0; i < vv.size(); ++i) vv[i] = double(i);
    q = from_doubles(t, {1, S, H, D}, qv);
    k = from_doubles(t, {1, M, Hkv, D}, kv);
    v = from_doubles(t, {1, M, Hkv, D}, vv);
    out = empty(t, {1, S, H, D});
  }
};

Error sdpa(Attention& s, int64_t start_pos, Arg mask, bool causal, Arg scale) {
  return call_kernel(kOp, {*s.q, *s.k, *s.v, start_pos, mask, 0.0, causal, scale, *s.out,
                           *s.out});
}

TEST(CustomSdpa, FirstPositionCopiesValueRow) {
  // At start_pos 0, causal, the one query row sees only key 0: out = v[0]
  // for each head (heads 0, 1 read cache head 0; 2, 3 cache head 1).
  Attention s(ScalarType::Float, 1, 4, 2, 3, 5);
  ASSERT_EQ(sdpa(s, 0, Arg::none(), true, Arg::none()), Error::Ok) << last_error_message();
  EXPECT_EQ(s.out->values<float>(),
            (std::vector<float>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
}

TEST(CustomSdpa, ScaleZeroAveragesTheFilledRows) {
  // scale 0: uniform weights over keys 0..start_pos + S - 1 = 0..2 (not
  // causal), so out = mean of v rows 0..2 = v row 1.
  Attention s(ScalarType::Float, 1, 1, 1, 2, 6);
  ASSERT_EQ(sdpa(s, 2, Arg::none(), false, 0.0), Error::Ok) << last_error_message();
  expect_near_vec(s.out->values<float>(), std::vector<float>{2, 3}, 1e-5);
}

TEST(CustomSdpa, MaskCoversTheWholeCache) {
  // With a mask the keys are all M cache rows; -inf hides all but row 4.
  Attention s(ScalarType::Float, 1, 1, 1, 2, 6);
  auto mask = tensor<float>(ScalarType::Float, {1, 6},
                            {-INFINITY, -INFINITY, -INFINITY, -INFINITY, 0.0f, -INFINITY});
  ASSERT_EQ(sdpa(s, 0, Arg(*mask), false, Arg::none()), Error::Ok) << last_error_message();
  expect_near_vec(s.out->values<float>(), std::vector<float>{8, 9}, 1e-5);
}

TEST(CustomSdpa, ReducedFloatsMatchFloat) {
  // BFloat16 short; Half over two row blocks with GQA (the per-head
  // widening path), within a few of their ulps of the Float result.
  struct Case {
    ScalarType type;
    int S, H, Hkv, D, M, start_pos;
    double tol;
  };
  for (const Case& c : {Case{ScalarType::BFloat16, 3, 2, 1, 4, 5, 1, 0.02},
                        Case{ScalarType::Half, 70, 4, 2, 8, 80, 6, 0.005}}) {
    Attention f(ScalarType::Float, c.S, c.H, c.Hkv, c.D, c.M);
    Attention r(c.type, c.S, c.H, c.Hkv, c.D, c.M);
    ASSERT_EQ(sdpa(f, c.start_pos, Arg::none(), true, Arg::none()), Error::Ok)
        << last_error_message();
    ASSERT_EQ(sdpa(r, c.start_pos, Arg::none(), true, Arg::none()), Error::Ok)
        << last_error_message();
    const std::vector<double> want = to_doubles(*f.out), got = to_doubles(*r.out);
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], c.tol * (1.0 + std::fabs(want[i]))) << i;
    }
  }
}

// Straightforward attention in double for one [1, S, H, D] query.
std::vector<double> naive_attention(const std::vector<double>& q, const std::vector<double>& k,
                                    const std::vector<double>& v, int S, int H, int Hkv, int D,
                                    int M, int start_pos, bool causal) {
  std::vector<double> out(size_t(S * H * D), 0.0);
  const int kv_len = start_pos + S;
  for (int s = 0; s < S; ++s) {
    for (int h = 0; h < H; ++h) {
      const int g = h / (H / Hkv);
      std::vector<double> w(static_cast<size_t>(kv_len));
      double mx = -INFINITY, sum = 0;
      const int last = causal ? start_pos + s : kv_len - 1;
      for (int j = 0; j <= last; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d) {
          dot += q[size_t((s * H + h) * D + d)] * k[size_t((j * Hkv + g) * D + d)];
        }
        w[size_t(j)] = dot / std::sqrt(double(D));
        mx = std::max(mx, w[size_t(j)]);
      }
      for (int j = 0; j <= last; ++j) sum += (w[size_t(j)] = std::exp(w[size_t(j)] - mx));
      for (int j = 0; j <= last; ++j) {
        for (int d = 0; d < D; ++d) {
          out[size_t((s * H + h) * D + d)] += w[size_t(j)] / sum * v[size_t((j * Hkv + g) * D + d)];
        }
      }
    }
  }
  (void)M;
  return out;
}

// Runs the kernel on less regular values than the ramp (so rows differ;
// `phase` shifts the query) and compares with naive_attention.
void expect_matches_naive(int S, int H, int Hkv, int D, int M, int start_pos, bool causal,
                          double phase) {
  Attention a(ScalarType::Float, S, H, Hkv, D, M);
  std::vector<double> q = to_doubles(*a.q), k = to_doubles(*a.k), v = to_doubles(*a.v);
  for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(0.37 * double(i) + phase);
  for (size_t i = 0; i < k.size(); ++i) k[i] = std::cos(0.11 * double(i));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.05 * double(i) + 1.0);
  a.q = from_doubles(ScalarType::Float, {1, S, H, D}, q);
  a.k = from_doubles(ScalarType::Float, {1, M, Hkv, D}, k);
  a.v = from_doubles(ScalarType::Float, {1, M, Hkv, D}, v);
  ASSERT_EQ(sdpa(a, start_pos, Arg::none(), causal, Arg::none()), Error::Ok)
      << last_error_message();
  const std::vector<double> want = naive_attention(q, k, v, S, H, Hkv, D, M, start_pos, causal);
  const std::vector<double> got = to_doubles(*a.out);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 2e-5) << "S " << S << " D " << D << " causal " << causal
                                       << " start_pos " << start_pos << " at " << i;
  }
}

TEST(CustomSdpa, LongPrefillMatchesNaiveAttention) {
  // 70 query rows (more than one row block of the kernel), 75 keys (more
  // than one GEMM panel), GQA 4 / 2 heads, causal and not. Causal, each
  // row block computes only the keys its last row sees: 150 rows from
  // position 0 and from 37 (three blocks, each seeing more keys). At two
  // threads a group's heads and row blocks are pool tasks.
  for (size_t threads : {size_t(1), size_t(2)}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    for (bool causal : {true, false}) {
      expect_matches_naive(70, 4, 2, 16, 80, 5, causal, 0.0);
      expect_matches_naive(150, 4, 2, 64, 200, 0, causal, 0.0);
      expect_matches_naive(150, 4, 1, 32, 200, 37, causal, 37.0);
    }
  }
  ASSERT_EQ(set_num_threads(1), Error::Ok);
}

TEST(CustomSdpa, DecodeStepsMatchNaiveAttention) {
  // One query row (the kernel's unpacked path) at every seventh position
  // of an 80-slot cache: key counts from 1 past several GEMM panels, GQA
  // 4 / 2, causal and not, head_dim 16 and 64.
  for (int D : {16, 64}) {
    for (bool causal : {true, false}) {
      for (int start_pos = 0; start_pos < 80; start_pos += 7) {
        expect_matches_naive(1, 4, 2, D, 80, start_pos, causal, double(start_pos));
      }
    }
  }
}

TEST(CustomSdpa, DecodeOnThePoolMatchesNaiveAttention) {
  // A decoding step runs in blocks of 16 cache positions on the pool, its
  // value sums in four position chunks: at one and two threads, 8 / 2
  // heads (groups of 4), 16 / 8 of 128 (Qwen3's shape, rows a page apart)
  // and 3 / 3, caches shorter than one block and longer than many.
  for (size_t threads : {size_t(1), size_t(2)}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    for (int start_pos : {0, 200, 1023, 1100}) {
      expect_matches_naive(1, 8, 2, 64, 1110, start_pos, true, double(start_pos));
    }
    expect_matches_naive(1, 16, 8, 128, 600, 520, true, 520.0);
    expect_matches_naive(1, 3, 3, 40, 300, 77, true, 77.0);
  }
  ASSERT_EQ(set_num_threads(1), Error::Ok);
}

// Causal attention of S query rows at start_pos over a cache of M rows
// (H / Hkv heads of D), on fixed inputs, at `threads` pool threads.
std::vector<double> attention_at(size_t threads, int S, int H, int Hkv, int D, int M,
                                 int start_pos) {
  EXPECT_EQ(set_num_threads(threads), Error::Ok);
  Attention a(ScalarType::Float, S, H, Hkv, D, M);
  std::vector<double> q = to_doubles(*a.q), k = to_doubles(*a.k), v = to_doubles(*a.v);
  for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(0.37 * double(i));
  for (size_t i = 0; i < k.size(); ++i) k[i] = std::cos(0.11 * double(i));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.05 * double(i) + 1.0);
  a.q = from_doubles(ScalarType::Float, {1, S, H, D}, q);
  a.k = from_doubles(ScalarType::Float, {1, M, Hkv, D}, k);
  a.v = from_doubles(ScalarType::Float, {1, M, Hkv, D}, v);
  EXPECT_EQ(sdpa(a, start_pos, Arg::none(), true, Arg::none()), Error::Ok)
      << last_error_message();
  std::vector<double> out = to_doubles(*a.out);
  EXPECT_EQ(set_num_threads(1), Error::Ok);
  return out;
}

// A decoding step's value sums are kept in fixed position chunks and
// added in order: one and two threads give the same bits (Qwen3's shape).
TEST(CustomSdpa, DecodeBitsDoNotDependOnTheThreadCount) {
  EXPECT_EQ(attention_at(2, 1, 16, 8, 128, 600, 520), attention_at(1, 1, 16, 8, 128, 600, 520));
}

// A prompt's heads and row blocks run as pool tasks at two threads, each
// product on its own thread: the bits of one thread's run.
TEST(CustomSdpa, PrefillBitsDoNotDependOnTheThreadCount) {
  EXPECT_EQ(attention_at(2, 200, 6, 2, 64, 260, 40), attention_at(1, 200, 6, 2, 64, 260, 40));
}

TEST(CustomSdpa, RefusesBadArguments) {
  Attention s(ScalarType::Float, 2, 4, 2, 3, 5);
  // start_pos + seq_len past the cache, negative start_pos.
  EXPECT_EQ(sdpa(s, 4, Arg::none(), true, Arg::none()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("does not fit the cache"));
  EXPECT_EQ(sdpa(s, -1, Arg::none(), true, Arg::none()), Error::InvalidArgument);
  // attn_mask with is_causal; wrong mask shape and dtype.
  auto mask = empty(ScalarType::Float, {2, 5});
  EXPECT_EQ(sdpa(s, 0, Arg(*mask), true, Arg::none()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("cannot both be set"));
  auto short_mask = empty(ScalarType::Float, {2, 4});
  EXPECT_EQ(sdpa(s, 0, Arg(*short_mask), false, Arg::none()), Error::InvalidArgument);
  auto bool_mask = empty(ScalarType::Bool, {2, 5});
  EXPECT_EQ(sdpa(s, 0, Arg(*bool_mask), false, Arg::none()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("attn_mask must be Float"));
  // Query heads not a multiple of cache heads.
  Attention odd(ScalarType::Float, 1, 3, 2, 3, 5);
  EXPECT_EQ(sdpa(odd, 0, Arg::none(), true, Arg::none()), Error::InvalidArgument);
  EXPECT_TRUE(message_has("not a multiple"));
  // Double is not an upstream dtype; mixed dtypes.
  Attention dbl(ScalarType::Double, 1, 2, 2, 3, 5);
  EXPECT_EQ(sdpa(dbl, 0, Arg::none(), true, Arg::none()), Error::InvalidArgument);
  auto half_k = empty(ScalarType::Half, {1, 5, 2, 3});
  EXPECT_EQ(call_kernel(kOp, {*s.q, *half_k, *s.v, int64_t(0), Arg::none(), 0.0, true,
                              Arg::none(), *s.out, *s.out}),
            Error::InvalidArgument);
  // Caches of different sizes, wrong rank, head_dim mismatch.
  auto long_v = empty(ScalarType::Float, {1, 6, 2, 3});
  EXPECT_EQ(call_kernel(kOp, {*s.q, *s.k, *long_v, int64_t(0), Arg::none(), 0.0, true,
                              Arg::none(), *s.out, *s.out}),
            Error::InvalidArgument);
  auto flat = empty(ScalarType::Float, {5, 6});
  EXPECT_EQ(call_kernel(kOp, {*s.q, *flat, *flat, int64_t(0), Arg::none(), 0.0, true,
                              Arg::none(), *s.out, *s.out}),
            Error::InvalidArgument);
  auto wide_k = empty(ScalarType::Float, {1, 5, 2, 4});
  EXPECT_EQ(call_kernel(kOp, {*s.q, *wide_k, *wide_k, int64_t(0), Arg::none(), 0.0, true,
                              Arg::none(), *s.out, *s.out}),
            Error::InvalidArgument);
  // Argument count and tags.
  EXPECT_EQ(call_kernel(kOp, {*s.q, *s.k, *s.v, int64_t(0), *s.out}), Error::InvalidProgram);
  EXPECT_EQ(call_kernel(kOp, {*s.q, *s.k, *s.v, 0.5, Arg::none(), 0.0, true, Arg::none(),
                              *s.out, *s.out}),
            Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing

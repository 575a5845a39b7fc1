#include "kernels/llm/sdpa.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/math/gemm.h"
#include "kernels/math/isa.h"
#include "kernels/math/vmath.h"
#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// Query rows whose scores are computed together: bounds the score block
// to kRowBlock x kv_len floats of temp memory however long the prompt.
constexpr int64_t kRowBlock = 64;

struct Dims {
  int64_t batch, seq, heads, head_dim, kv_heads, cache_len, kv_len;
};

// A float matrix: rows `ld` floats apart.
struct Rows {
  const float* p;
  size_t ld;
};

struct Params {
  int64_t start_pos;
  const float* mask;  // [seq, kv_len] rows, or null
  bool causal;
  float scale;
};

// Query rows [r0, r0 + m) of `count` heads (each head's rows one after
// another in `scores`, m x cols each), their raw scores q k^T against the
// first `cols` keys: scaled, masked (causal or by the mask), normalized.
// Keys from `cols` on are masked out for every one of these rows.
void mask_scale_softmax(const Dims& d, const Params& p, int64_t r0, int64_t m, int64_t count,
                        size_t cols, float* scores, math::Isa isa, bool pool = true) {
  const size_t n = size_t(d.kv_len);  // the mask's row stride
  for (int64_t i = 0; i < m * count; ++i) {
    const int64_t r = r0 + i % m;
    float* row = scores + size_t(i) * cols;
    const float* mask_row = p.mask != nullptr ? p.mask + size_t(r) * n : nullptr;
    // Causal: the row at absolute position start_pos + r sees keys up to
    // and including that position.
    const int64_t last = p.causal ? p.start_pos + r : d.kv_len - 1;
    for (int64_t j = 0; j < int64_t(cols); ++j) {
      float x = row[j] * p.scale;
      if (mask_row != nullptr) {
        x += mask_row[j];
      }
      row[j] = j > last ? -INFINITY : x;
    }
  }
  math::softmax_f32(size_t(m * count), cols, 1, scores, scores, false, isa, pool);
}

// Keys the query rows [r0, r0 + m) see: all kv_len, or under a causal
// mask only those up to the last row's position (the rest would get
// probability 0; a prompt's rows skip about half the products).
size_t visible_keys(const Dims& d, const Params& p, int64_t r0, int64_t m) {
  if (!p.causal) return size_t(d.kv_len);
  return size_t(std::min(d.kv_len, p.start_pos + r0 + m));  // m >= 1: at least one key
}

// Query rows [r0, r0 + m) of one head against the first `cols` keys:
// their scores normalized (mask_scale_softmax), then o = scores x v. On
// the pool, or all on this thread when `pool` is false (a pool task).
void softmax_times_v(const Dims& d, const Params& p, int64_t r0, int64_t m, size_t cols, Rows v,
                     float* o, size_t o_ld, float* scores, math::Isa isa, bool pool) {
  const size_t dim = size_t(d.head_dim);
  mask_scale_softmax(d, p, r0, m, 1, cols, scores, isa, pool);
  float* out = o + size_t(r0) * o_ld;
  if (m == 1) {  // the value rows streamed whole, on this thread
    math::vecmat_rows_f32(cols, dim, scores, v.p, v.ld, out, isa);
  } else if (pool) {
    math::gemm_f32(size_t(m), dim, cols, scores, cols, v.p, v.ld, out, o_ld, isa);
  } else {
    math::gemm_f32_inplace(size_t(m), dim, cols, scores, cols, v.p, v.ld, out, o_ld, isa);
  }
}

// Query rows [r0, r0 + m) of one head, k^T already packed
// (pack_gemm_bt, all kv_len keys); scores holds m x kv_len floats.
void attend_rows(const Dims& d, const Params& p, Rows q, const float* packed_k, Rows v, float* o,
                 size_t o_ld, float* scores, int64_t r0, int64_t m, math::Isa isa, bool pool) {
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const size_t cols = visible_keys(d, p, r0, m);
  const float* a = q.p + size_t(r0) * q.ld;
  if (pool) {
    math::gemm_f32_packed_parallel(size_t(m), cols, dim, a, q.ld, packed_k, scores, cols, isa,
                                  nullptr, n);
  } else {
    math::gemm_f32_packed(size_t(m), cols, dim, a, q.ld, packed_k, n, 0, scores, cols, isa);
  }
  softmax_times_v(d, p, r0, m, cols, v, o, o_ld, scores, isa, pool);
}

// One query head: o[S x D] = softmax(scale * q k^T (+ mask)) v over the
// kv_len keys, a block of kRowBlock query rows at a time, each product on
// the pool; scores holds kRowBlock x kv_len floats.
void attend_head(const Dims& d, const Params& p, Rows q, const float* packed_k, Rows v,
                 float* o, size_t o_ld, float* scores, math::Isa isa) {
  for (int64_t r0 = 0; r0 < d.seq; r0 += kRowBlock) {
    const int64_t m = d.seq - r0 < kRowBlock ? d.seq - r0 : kRowBlock;
    attend_rows(d, p, q, packed_k, v, o, o_ld, scores, r0, m, isa, /*pool=*/true);
  }
}

// Scores blocks for the tasks of one cache-head group running at once on
// the pool: as many as it has threads, each task takes a free one.
class ScoreSlots {
 public:
  ScoreSlots(float* base, size_t floats_each, size_t count)
      : base_(base), floats_each_(floats_each), count_(count) {}
  size_t count() const { return count_; }
  float* take(size_t* slot) {
    for (;;) {
      for (size_t s = 0; s < count_; ++s) {
        const uint32_t bit = uint32_t(1) << s;
        if ((busy_.fetch_or(bit, std::memory_order_acquire) & bit) == 0) {
          *slot = s;
          return base_ + s * floats_each_;
        }
      }
    }
  }
  void give(size_t slot) { busy_.fetch_and(~(uint32_t(1) << slot), std::memory_order_release); }
  // The first block, for a caller that runs alone (no tasks).
  float* take_first() const { return base_; }

 private:
  float* base_;
  size_t floats_each_, count_;
  std::atomic<uint32_t> busy_{0};
};

// The query heads of cache head g (batch item b) against its packed keys:
// one pool task per head and block of query rows, each on its own thread
// with a scores block of its own (the same bits as attend_head).
void attend_group(const Dims& d, const Params& p, const float* q, const float* v, float* o,
                  int64_t b, int64_t g, const float* packed_k, ScoreSlots* slots,
                  math::Isa isa) {
  const size_t q_ld = size_t(d.heads * d.head_dim), kv_ld = size_t(d.kv_heads * d.head_dim);
  const int64_t reps = d.heads / d.kv_heads;
  const int64_t blocks = (d.seq + kRowBlock - 1) / kRowBlock;
  const Rows vr{v + size_t(b) * size_t(d.cache_len) * kv_ld + size_t(g * d.head_dim), kv_ld};
  parallel_for(size_t(reps * blocks), [&](size_t t) {
    const int64_t h = g * reps + int64_t(t) / blocks;
    const int64_t r0 = int64_t(t) % blocks * kRowBlock;
    const int64_t m = std::min(kRowBlock, d.seq - r0);
    const size_t at = size_t(b) * size_t(d.seq) * q_ld + size_t(h * d.head_dim);
    size_t slot = 0;
    float* scores = slots->take(&slot);
    attend_rows(d, p, Rows{q + at, q_ld}, packed_k, vr, o + at, q_ld, scores, r0, m, isa,
                /*pool=*/false);
    slots->give(slot);
  });
}

// A decoding step (seq 1) on float tensors, in two passes over the cache
// in blocks of kDecodeRows positions: each block's rows of every cache
// head come from memory once and serve every query head. (Going head by
// head instead reads 512 bytes of each 4 KiB row of an 8 x 128 cache at a
// time: about half the bandwidth on Qwen3-0.6B.) Scores are cache rows
// against q, read in place (gemv_rows_f32); values are summed one whole
// row at a time (vecmat_rows_f32) in kDecodeChunks position ranges kept
// apart and then added in order, so the bits do not depend on the
// thread count.
constexpr int64_t kDecodeRows = 16;
constexpr int64_t kDecodeChunks = 4;

struct Decode {
  const Dims& d;
  const Params& p;
  const float* q;   // [batch, heads * head_dim]
  const float* k;   // [batch, cache_len, kv_heads * head_dim]
  const float* v;
  float* scores;    // [batch * heads, kv_len]
  float* partial;   // [kDecodeChunks, batch, heads * head_dim]
  math::Isa isa;
  size_t kv_ld() const { return size_t(d.kv_heads * d.head_dim); }
  size_t q_ld() const { return size_t(d.heads * d.head_dim); }
  int64_t blocks() const { return (d.kv_len + kDecodeRows - 1) / kDecodeRows; }
};

// Scores of positions [j0, j1) of batch item b, every query head.
void decode_scores(const Decode& x, int64_t b, int64_t j0, int64_t j1) {
  const Dims& d = x.d;
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const int64_t reps = d.heads / d.kv_heads;
  const float* k = x.k + size_t(b) * size_t(d.cache_len) * x.kv_ld() + size_t(j0) * x.kv_ld();
  for (int64_t h = 0; h < d.heads; ++h) {
    math::gemv_rows_f32(size_t(j1 - j0), dim, k + size_t(h / reps) * dim, x.kv_ld(),
                        x.q + size_t(b) * x.q_ld() + size_t(h) * dim,
                        x.scores + size_t(b * d.heads + h) * n + size_t(j0), x.isa,
                        /*pool=*/false);
  }
}

// Chunk c of batch item b's value sums, every query head, into its
// partial: the chunk's blocks in order.
void decode_values(const Decode& x, int64_t b, int64_t c) {
  const Dims& d = x.d;
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const int64_t reps = d.heads / d.kv_heads, blocks = x.blocks();
  const int64_t first = blocks * c / kDecodeChunks, end = blocks * (c + 1) / kDecodeChunks;
  float* o = x.partial + (size_t(c) * size_t(d.batch) + size_t(b)) * x.q_ld();
  std::fill(o, o + x.q_ld(), 0.0f);
  const float* v = x.v + size_t(b) * size_t(d.cache_len) * x.kv_ld();
  for (int64_t blk = first; blk < end; ++blk) {
    const int64_t j0 = blk * kDecodeRows, j1 = std::min(d.kv_len, j0 + kDecodeRows);
    for (int64_t h = 0; h < d.heads; ++h) {
      math::vecmat_rows_f32(size_t(j1 - j0), dim,
                            x.scores + size_t(b * d.heads + h) * n + size_t(j0),
                            v + size_t(j0) * x.kv_ld() + size_t(h / reps) * dim, x.kv_ld(),
                            o + size_t(h) * dim, x.isa, /*accumulate=*/true);
    }
  }
}

void attend_rows_float(const Dims& d, const Params& p, Tensor q, Tensor k, Tensor v,
                       Tensor out, float* scores, float* partial, math::Isa isa) {
  const Decode x{d, p, q.const_data_ptr<float>(), k.const_data_ptr<float>(),
                 v.const_data_ptr<float>(), scores, partial, isa};
  const int64_t blocks = x.blocks();
  parallel_for(size_t(d.batch * blocks), [&](size_t t) {
    const int64_t b = int64_t(t) / blocks, j0 = int64_t(t) % blocks * kDecodeRows;
    decode_scores(x, b, j0, std::min(d.kv_len, j0 + kDecodeRows));
  });
  for (int64_t b = 0; b < d.batch; ++b) {  // one row per head: scaled, masked, normalized
    mask_scale_softmax(d, p, 0, 1, d.heads, size_t(d.kv_len),
                       scores + size_t(b * d.heads) * size_t(d.kv_len),
                       isa);
  }
  parallel_for(size_t(d.batch * kDecodeChunks), [&](size_t t) {
    decode_values(x, int64_t(t) / kDecodeChunks, int64_t(t) % kDecodeChunks);
  });
  float* o = out.mutable_data_ptr<float>();
  const size_t all = size_t(d.batch) * x.q_ld();
  for (size_t i = 0; i < all; ++i) {
    float sum = partial[i];
    for (int64_t c = 1; c < kDecodeChunks; ++c) sum += partial[size_t(c) * all + i];
    o[i] = sum;
  }
}

// Float tensors: every operand read and written in place. A prompt's
// rows (seq > 1): with more than one scores block in `slots` (at most 32,
// one bit each), a cache-head group's heads and row blocks run as pool
// tasks (attend_group), else each head's products are spread over the
// pool.
void attend_float(const Dims& d, const Params& p, Tensor q, Tensor k, Tensor v, Tensor out,
                  float* packed_k, ScoreSlots* slots, math::Isa isa) {
  float* scores = slots->take_first();
  if (d.seq == 1) {
    attend_rows_float(d, p, q, k, v, out, scores, packed_k, isa);  // packed_k: the partials
    return;
  }
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const size_t q_ld = size_t(d.heads * d.head_dim), kv_ld = size_t(d.kv_heads * d.head_dim);
  const size_t q_batch = size_t(d.seq) * q_ld, kv_batch = size_t(d.cache_len) * kv_ld;
  const int64_t reps = d.heads / d.kv_heads;
  for (int64_t b = 0; b < d.batch; ++b) {
    for (int64_t g = 0; g < d.kv_heads; ++g) {
      const size_t kv_at = size_t(b) * kv_batch + size_t(g * d.head_dim);
      // k^T packed once per cache head, read by each query head of its group.
      math::pack_gemm_bt(dim, n, k.const_data_ptr<float>() + kv_at, kv_ld, packed_k, isa);
      if (slots->count() > 1) {
        attend_group(d, p, q.const_data_ptr<float>(), v.const_data_ptr<float>(),
                     out.mutable_data_ptr<float>(), b, g, packed_k, slots, isa);
        continue;
      }
      for (int64_t h = g * reps; h < (g + 1) * reps; ++h) {
        const size_t q_at = size_t(b) * q_batch + size_t(h * d.head_dim);
        attend_head(d, p, Rows{q.const_data_ptr<float>() + q_at, q_ld}, packed_k,
                    Rows{v.const_data_ptr<float>() + kv_at, kv_ld},
                    out.mutable_data_ptr<float>() + q_at, q_ld, scores, isa);
      }
    }
  }
}

// Copies `rows` rows of `cols` elements, `ld` elements apart in `t`'s
// storage from element `at`, to or from a packed float matrix.
void widen_rows(Tensor t, size_t at, size_t ld, int64_t rows, int64_t cols, float* dst) {
  const size_t es = t.element_size();
  const char* src = static_cast<const char*>(t.const_data_ptr());
  for (int64_t r = 0; r < rows; ++r) {
    (void)convert_elements(src + (at + size_t(r) * ld) * es, t.scalar_type(), 1,
                           dst + size_t(r * cols), ScalarType::Float, 1, cols);
  }
}
void narrow_rows(const float* src, int64_t rows, int64_t cols, Tensor t, size_t at, size_t ld) {
  const size_t es = t.element_size();
  char* dst = static_cast<char*>(t.mutable_data_ptr());
  for (int64_t r = 0; r < rows; ++r) {
    (void)convert_elements(src + size_t(r * cols), ScalarType::Float, 1,
                           dst + (at + size_t(r) * ld) * es, t.scalar_type(), 1, cols);
  }
}

// Half / BFloat16: each cache head's kv_len rows and each query head's
// rows are widened to float (work: 2 x kv_len x D + 2 x S x D floats),
// computed as above, and the head's output rounded once.
void attend_reduced(const Dims& d, const Params& p, Tensor q, Tensor k, Tensor v, Tensor out,
                    float* packed_k, float* scores, float* work, math::Isa isa) {
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const size_t q_ld = size_t(d.heads * d.head_dim), kv_ld = size_t(d.kv_heads * d.head_dim);
  const size_t q_batch = size_t(d.seq) * q_ld, kv_batch = size_t(d.cache_len) * kv_ld;
  float* kw = work;
  float* vw = kw + n * dim;
  float* qw = vw + n * dim;
  float* ow = qw + size_t(d.seq) * dim;
  const int64_t reps = d.heads / d.kv_heads;
  for (int64_t b = 0; b < d.batch; ++b) {
    for (int64_t g = 0; g < d.kv_heads; ++g) {
      const size_t kv_at = size_t(b) * kv_batch + size_t(g * d.head_dim);
      widen_rows(k, kv_at, kv_ld, d.kv_len, d.head_dim, kw);
      widen_rows(v, kv_at, kv_ld, d.kv_len, d.head_dim, vw);
      math::pack_gemm_bt(dim, n, kw, dim, packed_k, isa);
      for (int64_t h = g * reps; h < (g + 1) * reps; ++h) {
        const size_t q_at = size_t(b) * q_batch + size_t(h * d.head_dim);
        widen_rows(q, q_at, q_ld, d.seq, d.head_dim, qw);
        attend_head(d, p, Rows{qw, dim}, packed_k, Rows{vw, dim}, ow, dim, scores, isa);
        narrow_rows(ow, d.seq, d.head_dim, out, q_at, q_ld);
      }
    }
  }
}

bool check_qkv(KernelArgs& a, Tensor q, Tensor k, Tensor v, Tensor out) {
  const ScalarType t = q.scalar_type();
  if (t != ScalarType::Float && t != ScalarType::Half && t != ScalarType::BFloat16) {
    return a.fail(Error::InvalidArgument, "query must be Float, Half or BFloat16, got %s",
                  scalar_type_name(t));
  }
  if (k.scalar_type() != t || v.scalar_type() != t || out.scalar_type() != t) {
    return a.fail(Error::InvalidArgument,
                  "key, value and out must have query's dtype %s, got %s, %s and %s",
                  scalar_type_name(t), scalar_type_name(k.scalar_type()),
                  scalar_type_name(v.scalar_type()), scalar_type_name(out.scalar_type()));
  }
  if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4) {
    return a.fail(Error::InvalidArgument,
                  "query, key and value must be 4-D [batch, seq, heads, head_dim], got %zu-D, "
                  "%zu-D and %zu-D",
                  q.dim(), k.dim(), v.dim());
  }
  if (!check_contiguous(a, q, "query") || !check_contiguous(a, k, "key") ||
      !check_contiguous(a, v, "value")) {
    return false;
  }
  for (size_t i = 0; i < 4; ++i) {
    if (k.sizes()[i] != v.sizes()[i]) {
      return a.fail(Error::InvalidArgument, "key and value caches differ in size at dim %zu",
                    i);
    }
  }
  if (k.sizes()[0] != q.sizes()[0] || k.sizes()[3] != q.sizes()[3]) {
    return a.fail(Error::InvalidArgument,
                  "key cache batch %lld and head_dim %lld differ from query's %lld and %lld",
                  static_cast<long long>(k.sizes()[0]), static_cast<long long>(k.sizes()[3]),
                  static_cast<long long>(q.sizes()[0]), static_cast<long long>(q.sizes()[3]));
  }
  const int64_t heads = q.sizes()[2], kv_heads = k.sizes()[2];
  if (kv_heads == 0 ? heads != 0 : heads % kv_heads != 0) {
    return a.fail(Error::InvalidArgument,
                  "query heads %lld are not a multiple of key/value heads %lld",
                  static_cast<long long>(heads), static_cast<long long>(kv_heads));
  }
  return true;
}

// All checks of run_cache_sdpa; fills d and the mask pointer.
bool check_sdpa(KernelArgs& a, Tensor q, Tensor k, Tensor v, int64_t start_pos,
                const Optional<Tensor>& attn_mask, bool is_causal, Tensor out, Dims* d,
                const float** mask) {
  if (!check_qkv(a, q, k, v, out)) {
    return false;
  }
  *d = Dims{q.sizes()[0], q.sizes()[1], q.sizes()[2], q.sizes()[3],
            k.sizes()[2], k.sizes()[1], 0};
  *mask = nullptr;
  if (attn_mask.has_value()) {
    const Tensor m = attn_mask.value();
    if (is_causal) {
      return a.fail(Error::InvalidArgument, "attn_mask and is_causal cannot both be set");
    }
    if (m.scalar_type() != ScalarType::Float || m.dim() != 2 ||
        m.sizes()[0] != d->seq || m.sizes()[1] != d->cache_len) {
      return a.fail(Error::InvalidArgument,
                    "attn_mask must be Float [seq_len %lld, max_seq_len %lld], got %s %zu-D",
                    static_cast<long long>(d->seq), static_cast<long long>(d->cache_len),
                    scalar_type_name(m.scalar_type()), m.dim());
    }
    if (!check_contiguous(a, m, "attn_mask")) {
      return false;
    }
    *mask = m.const_data_ptr<float>();
    d->kv_len = d->cache_len;
    return true;
  }
  if (start_pos < 0 || start_pos > d->cache_len - d->seq) {
    return a.fail(Error::InvalidArgument,
                  "start_pos %lld + seq_len %lld does not fit the cache of %lld positions",
                  static_cast<long long>(start_pos), static_cast<long long>(d->seq),
                  static_cast<long long>(d->cache_len));
  }
  d->kv_len = start_pos + d->seq;
  return true;
}

}  // namespace

bool check_cache_sdpa(KernelArgs& a, Tensor q, Tensor k, Tensor v, int64_t start_pos,
                      const Optional<Tensor>& attn_mask, bool is_causal, Tensor out) {
  Dims d;
  const float* mask;
  return check_sdpa(a, q, k, v, start_pos, attn_mask, is_causal, out, &d, &mask);
}

bool run_cache_sdpa(KernelArgs& a, KernelContext& ctx, Tensor q, Tensor k, Tensor v,
                    int64_t start_pos, const Optional<Tensor>& attn_mask, bool is_causal,
                    const Optional<Scalar>& scale_arg, Tensor out) {
  Dims d;
  const float* mask;
  if (!check_sdpa(a, q, k, v, start_pos, attn_mask, is_causal, out, &d, &mask)) {
    return false;
  }
  double scale = 1.0 / std::sqrt(double(d.head_dim));
  if (scale_arg.has_value()) {
    scale = scale_arg.value().to_double();
  }
  if (!resize_out(a, out, q.sizes())) {
    return false;
  }
  if (q.numel() == 0 || d.kv_len == 0) {
    return true;  // no rows, or D == 0: nothing to compute
  }

  const math::Isa isa = math::best_isa();
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const bool is_float = q.scalar_type() == ScalarType::Float;
  const bool float_decode = is_float && d.seq == 1;  // attend_rows_float: no packing
  // Rows of scores: a block of query rows, or one row per head when decoding.
  const int64_t block = float_decode ? d.batch * d.heads : d.seq < kRowBlock ? d.seq : kRowBlock;
  // A decoding step's partial value sums take the packed keys' place.
  const size_t packed_floats = float_decode
                                   ? size_t(kDecodeChunks * d.batch * d.heads) * dim
                                   : math::gemm_packed_b_floats(dim, n, isa);
  const size_t work_floats = is_float ? 0 : 2 * n * dim + 2 * size_t(d.seq) * dim;
  // A float prompt's tasks (attend_group) take a scores block per pool
  // thread when the temp memory holds them; else one, on the pool.
  size_t blocks = 1;
  if (is_float && !float_decode && num_threads() > 1) {
    blocks = std::min<size_t>(num_threads(), 32);
  }
  float* scratch = nullptr;
  size_t floats = 0;
  for (;; blocks = 1) {
    floats = packed_floats + blocks * size_t(block) * n + work_floats;
    scratch = static_cast<float*>(ctx.allocate_temp(floats * sizeof(float), 64));
    if (scratch != nullptr || blocks == 1) break;
  }
  if (scratch == nullptr) {
    return a.fail(Error::MemoryAllocationFailed, "needs %zu bytes of temp memory",
                  floats * sizeof(float));
  }
  float* scores = scratch + packed_floats;
  const Params p{start_pos, mask, is_causal, float(scale)};
  if (is_float) {
    ScoreSlots slots(scores, size_t(block) * n, blocks);
    attend_float(d, p, q, k, v, out, scratch, &slots, isa);
  } else {
    attend_reduced(d, p, q, k, v, out, scratch, scores, scores + size_t(block) * n, isa);
  }
  return true;
}

}  // namespace ember

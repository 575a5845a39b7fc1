#include "kernels/llm/sdpa.h"

#include <cmath>
#include <cstddef>

#include "kernels/optimized/gemm.h"
#include "kernels/optimized/vmath.h"
#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {
namespace {

// Query rows whose scores are computed together: bounds the score block
// to kRowBlock x kv_len floats of temp memory however long the prompt.
constexpr int64_t kRowBlock = 64;

struct Dims {
  int64_t batch, seq, heads, head_dim, kv_heads, cache_len, kv_len;
};

// The float working set of one batch item: q and out [S, H, D], k and v
// [cache_len, H_kv, D] (rows past kv_len are not read).
struct BatchView {
  const float* q;
  const float* k;
  const float* v;
  float* out;
};

struct Scratch {
  float* packed_k;  // gemm_packed_b_floats(D, kv_len)
  float* scores;    // kRowBlock x kv_len
};

// Attention for one batch item, all heads.
void attend(const Dims& d, const BatchView& t, int64_t start_pos, const float* mask,
            bool causal, float scale, const Scratch& s, opt::Isa isa) {
  const size_t n = size_t(d.kv_len), dim = size_t(d.head_dim);
  const size_t q_ld = size_t(d.heads * d.head_dim), kv_ld = size_t(d.kv_heads * d.head_dim);
  const int64_t reps = d.heads / d.kv_heads;
  for (int64_t g = 0; g < d.kv_heads; ++g) {
    const float* k = t.k + g * d.head_dim;
    const float* v = t.v + g * d.head_dim;
    // k^T packed once per cache head, read by each query head of its group.
    opt::pack_gemm_bt(dim, n, k, kv_ld, s.packed_k, isa);
    for (int64_t h = g * reps; h < (g + 1) * reps; ++h) {
      for (int64_t r0 = 0; r0 < d.seq; r0 += kRowBlock) {
        const int64_t m = d.seq - r0 < kRowBlock ? d.seq - r0 : kRowBlock;
        const float* q = t.q + size_t(r0) * q_ld + size_t(h * d.head_dim);
        float* o = t.out + size_t(r0) * q_ld + size_t(h * d.head_dim);
        opt::gemm_f32_packed_parallel(size_t(m), n, dim, q, q_ld, s.packed_k, s.scores, n, isa);
        for (int64_t i = 0; i < m; ++i) {
          float* row = s.scores + size_t(i) * n;
          const float* mask_row = mask != nullptr ? mask + size_t(r0 + i) * n : nullptr;
          // Causal: the row at absolute position start_pos + r0 + i sees
          // keys up to and including that position.
          const int64_t last = causal ? start_pos + r0 + i : d.kv_len - 1;
          for (int64_t j = 0; j < d.kv_len; ++j) {
            float x = row[j] * scale;
            if (mask_row != nullptr) {
              x += mask_row[j];
            }
            row[j] = j > last ? -INFINITY : x;
          }
        }
        opt::softmax_f32(size_t(m), n, 1, s.scores, s.scores, false, isa);
        opt::gemm_f32(size_t(m), dim, n, s.scores, n, v, kv_ld, o, q_ld, isa);
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

  const opt::Isa isa = opt::best_isa();
  const size_t n = size_t(d.kv_len);
  const int64_t block = d.seq < kRowBlock ? d.seq : kRowBlock;
  const size_t packed_floats = opt::gemm_packed_b_floats(size_t(d.head_dim), n, isa);
  const bool wide = q.scalar_type() == ScalarType::Float;
  // Half / BFloat16: one batch item at a time in float (q, out and the
  // filled cache rows).
  const size_t q_floats = size_t(d.seq * d.heads * d.head_dim);
  const size_t kv_floats = n * size_t(d.kv_heads * d.head_dim);
  const size_t floats =
      packed_floats + size_t(block) * n + (wide ? 0 : 2 * q_floats + 2 * kv_floats);
  float* scratch = static_cast<float*>(ctx.allocate_temp(floats * sizeof(float), 64));
  if (scratch == nullptr) {
    return a.fail(Error::MemoryAllocationFailed, "needs %zu bytes of temp memory",
                  floats * sizeof(float));
  }
  const Scratch s{scratch, scratch + packed_floats};
  const size_t q_batch = q_floats, kv_batch = size_t(d.cache_len * d.kv_heads * d.head_dim);
  const float fscale = float(scale);
  if (wide) {
    const float* qf = q.const_data_ptr<float>();
    const float* kf = k.const_data_ptr<float>();
    const float* vf = v.const_data_ptr<float>();
    float* of = out.mutable_data_ptr<float>();
    for (int64_t b = 0; b < d.batch; ++b) {
      const BatchView t{qf + b * q_batch, kf + b * kv_batch, vf + b * kv_batch,
                        of + b * q_batch};
      attend(d, t, start_pos, mask, is_causal, fscale, s, isa);
    }
    return true;
  }
  float* qw = s.scores + size_t(block) * n;
  float* ow = qw + q_floats;
  float* kw = ow + q_floats;
  float* vw = kw + kv_floats;
  const ScalarType t = q.scalar_type();
  const size_t es = q.element_size();
  for (int64_t b = 0; b < d.batch; ++b) {
    const char* qb = static_cast<const char*>(q.const_data_ptr()) + b * q_batch * es;
    const char* kb = static_cast<const char*>(k.const_data_ptr()) + b * kv_batch * es;
    const char* vb = static_cast<const char*>(v.const_data_ptr()) + b * kv_batch * es;
    char* ob = static_cast<char*>(out.mutable_data_ptr()) + b * q_batch * es;
    (void)convert_elements(qb, t, 1, qw, ScalarType::Float, 1, int64_t(q_floats));
    (void)convert_elements(kb, t, 1, kw, ScalarType::Float, 1, int64_t(kv_floats));
    (void)convert_elements(vb, t, 1, vw, ScalarType::Float, 1, int64_t(kv_floats));
    // The working copies of k and v hold only the kv_len rows attend reads.
    const BatchView view{qw, kw, vw, ow};
    attend(d, view, start_pos, mask, is_causal, fscale, s, isa);
    (void)convert_elements(ow, ScalarType::Float, 1, ob, t, 1, int64_t(q_floats));
  }
  return true;
}

}  // namespace ember

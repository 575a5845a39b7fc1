#include "kernels/llm/gated_delta_rule.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "kernels/math/gemm.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// Below this many multiply-adds per token pass (B x Hkv x T x K x V) the
// state heads run one after another on the calling thread.
constexpr int64_t kParallelWork = int64_t(1) << 15;

struct Dims {
  int64_t batch, heads, kv_heads, seq, k_dim, v_dim;
  bool scalar_decay;
};

// The tensors' data, all Float and contiguous.
struct Views {
  const float *query, *key, *value, *decay, *beta, *initial_state;
  float *out, *state;
};

Shape make_shape(std::initializer_list<int64_t> sizes) {
  Shape s;
  for (int64_t size : sizes) {
    s.sizes[s.dim++] = SizesType(size);
  }
  return s;
}

bool check_dtypes_and_layout(KernelArgs& a, const GatedDeltaInputs& in, Tensor out,
                             Tensor final_state_out) {
  struct Named {
    Tensor t;
    const char* name;
  };
  const Named all[] = {{in.query, "query"},         {in.key, "key"},
                       {in.value, "value"},         {in.decay, "decay"},
                       {in.beta, "beta"},           {in.initial_state, "initial_state"},
                       {out, "out"},                {final_state_out, "final_state_out"}};
  for (const Named& n : all) {
    if (n.t.scalar_type() != ScalarType::Float) {
      return a.fail(Error::InvalidArgument, "%s must be Float, got %s", n.name,
                    scalar_type_name(n.t.scalar_type()));
    }
    if (!check_contiguous(a, n.t, n.name)) {
      return false;
    }
  }
  return true;
}

bool check_ranks(KernelArgs& a, const GatedDeltaInputs& in) {
  if (in.query.dim() != 4 || in.key.dim() != 4 || in.value.dim() != 4 ||
      in.initial_state.dim() != 4) {
    return a.fail(Error::InvalidArgument,
                  "query, key, value and initial_state must be 4-D, got %zu-D, %zu-D, %zu-D "
                  "and %zu-D",
                  in.query.dim(), in.key.dim(), in.value.dim(), in.initial_state.dim());
  }
  if (in.decay.dim() != 3 && in.decay.dim() != 4) {
    return a.fail(Error::InvalidArgument,
                  "decay must be [B, Hkv, T, K] or [B, Hkv, T], got %zu-D", in.decay.dim());
  }
  if (in.beta.dim() != 3) {
    return a.fail(Error::InvalidArgument, "beta must be [B, Hkv, T], got %zu-D",
                  in.beta.dim());
  }
  return true;
}

// Every shape follows from query's [B, H, T, K], key's Hkv and value's V.
bool check_shapes(KernelArgs& a, const GatedDeltaInputs& in, Dims* d) {
  const Span<const SizesType> q = in.query.sizes();
  *d = Dims{q[0], q[1], in.key.sizes()[1], q[2], q[3], in.value.sizes()[3],
            in.decay.dim() == 3};
  const Shape per_token = make_shape({d->batch, d->kv_heads, d->seq});
  const Shape per_channel = make_shape({d->batch, d->kv_heads, d->seq, d->k_dim});
  if (!check_shape(a, in.key, per_channel, "key") ||
      !check_shape(a, in.value, make_shape({d->batch, d->kv_heads, d->seq, d->v_dim}),
                   "value") ||
      !check_shape(a, in.decay, d->scalar_decay ? per_token : per_channel, "decay") ||
      !check_shape(a, in.beta, per_token, "beta") ||
      !check_shape(a, in.initial_state,
                   make_shape({d->batch, d->kv_heads, d->k_dim, d->v_dim}), "initial_state")) {
    return false;
  }
  if (d->kv_heads == 0 || d->heads % d->kv_heads != 0) {
    return a.fail(Error::InvalidArgument,
                  "query heads %lld are not a positive multiple of key heads %lld",
                  static_cast<long long>(d->heads), static_cast<long long>(d->kv_heads));
  }
  return true;
}

// The final state is computed in place of the initial one's copy, so the
// two must not share bytes (upstream refuses the same).
bool check_state_apart(KernelArgs& a, Tensor initial_state, Tensor final_state_out) {
  const uintptr_t i0 = reinterpret_cast<uintptr_t>(initial_state.const_data_ptr());
  const uintptr_t f0 = reinterpret_cast<uintptr_t>(final_state_out.const_data_ptr());
  const size_t in = initial_state.nbytes(), fn = final_state_out.nbytes();
  if (in == 0 || fn == 0 || i0 + in <= f0 || f0 + fn <= i0) {
    return true;
  }
  return a.fail(Error::InvalidArgument, "final_state_out shares memory with initial_state");
}

// One token of one state head: S (K x V) takes the step in
// gated_delta_rule.h. The gate of key channel i is gate[i * gate_step]
// (gate_step 0: one scalar gate). w and delta are K and V floats.
void advance(const Dims& d, float* s, const float* k, const float* v, const float* gate,
             size_t gate_step, float beta, float* w, float* delta, math::Isa isa) {
  const size_t kd = size_t(d.k_dim), vd = size_t(d.v_dim);
  // The decayed state's prediction with the decay folded into the key:
  // (diag(gate) S)^T k = S^T (gate * k).
  for (size_t i = 0; i < kd; ++i) {
    w[i] = gate[i * gate_step] * k[i];
  }
  math::gemm_f32_inplace(1, vd, kd, w, kd, s, vd, delta, vd, isa);
  for (size_t j = 0; j < vd; ++j) {
    delta[j] = beta * (v[j] - delta[j]);
  }
  for (size_t i = 0; i < kd; ++i) {
    float* row = s + i * vd;
    const float g = gate[i * gate_step], ki = k[i];
    for (size_t j = 0; j < vd; ++j) {
      row[j] = g * row[j] + ki * delta[j];
    }
  }
}

// State head `head` (b * Hkv + g) over every token, with the outputs of
// its query heads; scratch holds K + V floats.
void run_state_head(const Dims& d, const Views& p, int64_t head, float* scratch,
                    math::Isa isa) {
  const size_t kd = size_t(d.k_dim), vd = size_t(d.v_dim), seq = size_t(d.seq);
  const int64_t group = d.heads / d.kv_heads;
  // The group's first query head: b * H + g * group.
  const size_t q_head = size_t(head / d.kv_heads * d.heads + head % d.kv_heads * group);
  float* s = p.state + size_t(head) * kd * vd;
  std::memcpy(s, p.initial_state + size_t(head) * kd * vd, kd * vd * sizeof(float));
  const size_t gate_step = d.scalar_decay ? 0 : 1;
  const size_t gates_per_token = d.scalar_decay ? 1 : kd;
  for (size_t t = 0; t < seq; ++t) {
    const size_t token = size_t(head) * seq + t;
    advance(d, s, p.key + token * kd, p.value + token * vd, p.decay + token * gates_per_token,
            gate_step, p.beta[token], scratch, scratch + kd, isa);
    // The group's query rows are T x K apart in query and their outputs
    // T x V apart in out: one product reads them all.
    const size_t row = q_head * seq + t;
    math::gemm_f32_inplace(size_t(group), vd, kd, p.query + row * kd, seq * kd, s, vd,
                           p.out + row * vd, seq * vd, isa);
  }
}

void compute(const Dims& d, const Views& p, float* scratch, bool parallel) {
  const math::Isa isa = math::best_isa();
  const size_t heads = size_t(d.batch * d.kv_heads), per_head = size_t(d.k_dim + d.v_dim);
  auto task = [&](size_t head) {
    run_state_head(d, p, int64_t(head), scratch + head * per_head, isa);
  };
  if (!parallel) {
    for (size_t head = 0; head < heads; ++head) task(head);
    return;
  }
  parallel_for(heads, [&task](size_t head) { task(head); });
}

// No tokens (the state passes through) or no key or value channels
// (the outputs are zeros, the state empty).
void run_empty(const GatedDeltaInputs& in, Tensor out, Tensor final_state_out) {
  if (in.initial_state.nbytes() != 0) {
    std::memcpy(final_state_out.mutable_data_ptr(), in.initial_state.const_data_ptr(),
                in.initial_state.nbytes());
  }
  if (out.nbytes() != 0) {
    std::memset(out.mutable_data_ptr(), 0, out.nbytes());
  }
}

Views views_of(const GatedDeltaInputs& in, Tensor out, Tensor final_state_out) {
  return Views{in.query.const_data_ptr<float>(), in.key.const_data_ptr<float>(),
               in.value.const_data_ptr<float>(), in.decay.const_data_ptr<float>(),
               in.beta.const_data_ptr<float>(),  in.initial_state.const_data_ptr<float>(),
               out.mutable_data_ptr<float>(),    final_state_out.mutable_data_ptr<float>()};
}

}  // namespace

bool run_gated_delta_rule(KernelArgs& a, KernelContext& ctx, const GatedDeltaInputs& in,
                          Tensor out, Tensor final_state_out) {
  Dims d;
  if (!check_dtypes_and_layout(a, in, out, final_state_out) || !check_ranks(a, in) ||
      !check_shapes(a, in, &d) || !check_state_apart(a, in.initial_state, final_state_out)) {
    return false;
  }
  // With T, K and V nonzero, B x Hkv x (K + V) is at most the elements
  // of key and value: the scratch size cannot overflow.
  const bool empty = d.seq == 0 || d.k_dim == 0 || d.v_dim == 0;
  const size_t bytes =
      empty ? 0 : size_t(d.batch * d.kv_heads * (d.k_dim + d.v_dim)) * sizeof(float);
  float* scratch = bytes == 0 ? nullptr : static_cast<float*>(ctx.allocate_temp(bytes, 64));
  if (bytes != 0 && scratch == nullptr) {
    return a.fail(Error::MemoryAllocationFailed, "needs %zu bytes of temp memory", bytes);
  }
  if (!resize_out(a, out, make_shape({d.batch, d.heads, d.seq, d.v_dim}).span()) ||
      !resize_out(a, final_state_out, in.initial_state.sizes())) {
    return false;
  }
  if (empty) {
    run_empty(in, out, final_state_out);
    return true;
  }
  const bool parallel = in.key.numel() >= kParallelWork / d.v_dim;
  compute(d, views_of(in, out, final_state_out), scratch, parallel);
  return true;
}

}  // namespace ember

// Pooling over the last two dims of a rank-3 (C, H, W) or rank-4
// (N, C, H, W) float tensor, one shader (shaders/pool2d.comp):
//   aten.max_pool2d_with_indices.default(input, kernel, stride, padding,
//       dilation, ceil_mode, ValueList[out, indices])
//       indices (int) as PyTorch computes them: the flat index into H*W.
//   aten.max_pool2d.default(input, kernel, stride, padding, dilation,
//       ceil_mode, out)
//   aten.avg_pool2d.default(input, kernel, stride, padding, ceil_mode,
//       count_include_pad, divisor_override|null, out)
// An empty stride list means stride = kernel; a one-entry list stands for
// both dims. nn.AdaptiveAvgPool2d((1, 1)) reaches the delegate as
// aten.mean.dim (the reduce family), other adaptive sizes stay outside it.
#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

struct PoolPush {
  uint32_t total;
  uint32_t flags;  // bit 0: average (else max), 1: write indices, 2: count_include_pad
  uint32_t h;
  uint32_t w;
  uint32_t oh;
  uint32_t ow;
  int32_t kh;
  int32_t kw;
  int32_t stride_h;
  int32_t stride_w;
  int32_t pad_h;
  int32_t pad_w;
  int32_t dil_h;
  int32_t dil_w;
  int32_t divisor;  // 0: none
};
static_assert(sizeof(PoolPush) <= kMaxPush, "push constants");

constexpr int64_t kMaxIndex = int64_t(1) << 31;
constexpr int64_t kMaxParam = int64_t(1) << 20;

// Two values from an int list of one or two entries; `empty` (if not null)
// stands for an empty list.
Error pair_arg(Builder& b, size_t arg, const int64_t* empty, int64_t lo, const char* what,
               int64_t* out) {
  std::vector<int64_t> v;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(arg, &v));
  if (v.empty() && empty != nullptr) v.assign(empty, empty + 2);
  if (v.size() != 1 && v.size() != 2) return b.invalid(what);
  out[0] = v[0];
  out[1] = v.size() == 2 ? v[1] : v[0];
  if (out[0] < lo || out[1] < lo || out[0] > kMaxParam || out[1] > kMaxParam) {
    return b.invalid(what);
  }
  return Error::Ok;
}

// PyTorch's pooling output size along one dim.
int64_t pooled_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1;
  if (span < 0) return -1;
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  // The last window must start inside the input or the left padding.
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

struct PoolShape {
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  const TensorDesc* indices = nullptr;
  int32_t out_id = -1;
  int32_t indices_id = -1;
};

// Checks in/out (and indices) and fills the shape part of `p`.
Error pool_shape(Builder& b, PoolShape& s, const int64_t* k, const int64_t* st,
                 const int64_t* pad, const int64_t* dil, bool ceil_mode, PoolPush* p) {
  const TensorDesc& in = *s.in;
  const TensorDesc& out = *s.out;
  if (!device_float(in.dtype) || !device_float(out.dtype)) {
    return b.unsupported("pooling of non-float tensors");
  }
  if (in.rank != 3 && in.rank != 4) return b.unsupported("pooling of a rank other than 3 or 4");
  if (out.rank != in.rank) return b.invalid("output rank differs from the input's");
  for (uint32_t d = 0; d + 2 < in.rank; ++d) {
    if (out.sizes[d] != in.sizes[d]) return b.invalid("output batch/channels differ");
  }
  for (int d = 0; d < 2; ++d) {
    if (2 * pad[d] > k[d]) return b.invalid("padding greater than half the kernel");
  }
  const int64_t h = in.sizes[in.rank - 2], w = in.sizes[in.rank - 1];
  const int64_t oh = out.sizes[out.rank - 2], ow = out.sizes[out.rank - 1];
  if (pooled_size(h, k[0], st[0], pad[0], dil[0], ceil_mode) != oh ||
      pooled_size(w, k[1], st[1], pad[1], dil[1], ceil_mode) != ow || oh < 1 || ow < 1) {
    return b.invalid("output spatial size does not match input, kernel, stride, padding, "
                     "dilation and ceil_mode");
  }
  if (s.indices != nullptr) {
    if (s.indices->rank != out.rank || s.indices->numel != out.numel) {
      return b.invalid("indices shape differs from the output's");
    }
    for (uint32_t d = 0; d < out.rank; ++d) {
      if (s.indices->sizes[d] != out.sizes[d]) {
        return b.invalid("indices shape differs from the output's");
      }
    }
    if (device_float(s.indices->dtype)) return b.invalid("float indices");
  }
  if (in.numel >= kMaxIndex || out.numel >= kMaxIndex) {
    return b.unsupported("pooling of tensors of 2^31 elements or more");
  }
  p->total = uint32_t(out.numel);
  p->h = uint32_t(h);
  p->w = uint32_t(w);
  p->oh = uint32_t(oh);
  p->ow = uint32_t(ow);
  p->kh = int32_t(k[0]);
  p->kw = int32_t(k[1]);
  p->stride_h = int32_t(st[0]);
  p->stride_w = int32_t(st[1]);
  p->pad_h = int32_t(pad[0]);
  p->pad_w = int32_t(pad[1]);
  p->dil_h = int32_t(dil[0]);
  p->dil_w = int32_t(dil[1]);
  return Error::Ok;
}

Error add_pool(Builder& b, const PoolShape& s, const PoolPush& p) {
  // Without indices the output is bound in their place (never written).
  const int32_t third = s.indices_id >= 0 ? s.indices_id : s.out_id;
  return b.dispatch("pool2d", {b.arg_id(0), s.out_id, third}, &p, sizeof(p),
                    uint64_t(s.out->numel));
}

Error build_max_pool(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(7));
  PoolShape s;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &s.in));
  const size_t out_arg = b.num_args() - 1;
  const Value& last = b.value(b.arg_id(out_arg));
  if (last.kind == ValueKind::ValueList) {
    std::vector<int32_t> outs;
    EMBER_RETURN_IF_ERROR(b.tensor_list_arg(out_arg, &outs));
    if (outs.empty() || outs.size() > 2) return b.invalid("expected [out, indices] outputs");
    s.out_id = outs[0];
    s.out = &b.value(outs[0]).tensor;
    if (outs.size() == 2) {
      s.indices_id = outs[1];
      s.indices = &b.value(outs[1]).tensor;
    }
  } else {
    EMBER_RETURN_IF_ERROR(b.tensor_arg(out_arg, &s.out));
    s.out_id = b.arg_id(out_arg);
  }
  int64_t k[2], st[2], pad[2], dil[2];
  EMBER_RETURN_IF_ERROR(pair_arg(b, 1, nullptr, 1, "kernel_size must hold 1 or 2 positive "
                                 "values", k));
  EMBER_RETURN_IF_ERROR(pair_arg(b, 2, k, 1, "stride must hold 1 or 2 positive values", st));
  EMBER_RETURN_IF_ERROR(pair_arg(b, 3, nullptr, 0, "padding must hold 1 or 2 non-negative "
                                 "values", pad));
  EMBER_RETURN_IF_ERROR(pair_arg(b, 4, nullptr, 1, "dilation must hold 1 or 2 positive "
                                 "values", dil));
  bool ceil_mode = false;
  EMBER_RETURN_IF_ERROR(b.bool_arg(5, &ceil_mode));
  PoolPush p{};
  EMBER_RETURN_IF_ERROR(pool_shape(b, s, k, st, pad, dil, ceil_mode, &p));
  p.flags = s.indices != nullptr ? 2u : 0u;
  return add_pool(b, s, p);
}

Error build_avg_pool(Builder& b) {
  EMBER_RETURN_IF_ERROR(b.expect_args(8));
  PoolShape s;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &s.in));
  const size_t out_arg = b.num_args() - 1;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(out_arg, &s.out));
  s.out_id = b.arg_id(out_arg);
  int64_t k[2], st[2], pad[2];
  const int64_t dil[2] = {1, 1};
  EMBER_RETURN_IF_ERROR(pair_arg(b, 1, nullptr, 1, "kernel_size must hold 1 or 2 positive "
                                 "values", k));
  EMBER_RETURN_IF_ERROR(pair_arg(b, 2, k, 1, "stride must hold 1 or 2 positive values", st));
  EMBER_RETURN_IF_ERROR(pair_arg(b, 3, nullptr, 0, "padding must hold 1 or 2 non-negative "
                                 "values", pad));
  bool ceil_mode = false, count_include_pad = true;
  EMBER_RETURN_IF_ERROR(b.bool_arg(4, &ceil_mode));
  EMBER_RETURN_IF_ERROR(b.bool_arg(5, &count_include_pad));
  int64_t divisor = 0;
  if (!b.is_null(6)) {
    EMBER_RETURN_IF_ERROR(b.int_arg(6, &divisor));
    if (divisor == 0) return b.invalid("divisor_override of zero");
    if (divisor < -kMaxIndex || divisor >= kMaxIndex) return b.invalid("divisor_override");
  }
  PoolPush p{};
  EMBER_RETURN_IF_ERROR(pool_shape(b, s, k, st, pad, dil, ceil_mode, &p));
  p.flags = 1u | (count_include_pad ? 4u : 0u);
  p.divisor = int32_t(divisor);
  return add_pool(b, s, p);
}

const OpEntry kRows[] = {
    {"aten.max_pool2d_with_indices.default", build_max_pool},
    {"aten.max_pool2d.default", build_max_pool},
    {"aten.avg_pool2d.default", build_avg_pool},
};

}  // namespace

OpFamily pool_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan

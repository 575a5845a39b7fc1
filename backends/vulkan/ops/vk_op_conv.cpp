// Convolution: aten.convolution.default and et_vk.conv_with_clamp.default
// (the same with output_min, output_max: the partitioner fuses a following
// ReLU / ReLU6 / hardtanh into it; either bound may be null). Three shaders
// with one push-constant layout (ConvPush):
//   conv2d_tiled.comp: regular convolutions whose output channels come in
//     blocks of 4 within a group (groups == 1 included): 4 output channels
//     x 4 output columns per invocation;
//   conv2d_cols.comp: the other regular ones (depthwise, grouped): 4
//     output columns of one channel per invocation;
//   conv2d.comp: transposed ones, one invocation per output element (it
//     handles regular ones too).
//
// Arguments, as upstream serializes them (every schema argument in order,
// the output last):
//   convolution:     input, weight, bias|null, stride, padding, dilation,
//                    transposed, output_padding, groups, out
//   conv_with_clamp: the same nine, output_min|null, output_max|null, out
// Covers 2-D (input rank 4, weight OIHW) and 1-D (rank 3, run as H == 1)
// convolutions: regular, pointwise, depthwise, grouped, strided, padded,
// dilated, and transposed (weight [C_in, C_out/groups, KH, KW]). Float only.
#include <cmath>
#include <limits>

#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {
namespace {

struct ConvPush {
  uint32_t total;
  uint32_t flags;  // bit 0: bias, 1: transposed, 2: clamp low, 3: clamp high
  uint32_t c_in;
  uint32_t h;
  uint32_t w;
  uint32_t c_out;
  uint32_t oh;
  uint32_t ow;
  uint32_t kh;
  uint32_t kw;
  uint32_t groups;
  int32_t stride_h;
  int32_t stride_w;
  int32_t pad_h;
  int32_t pad_w;
  int32_t dil_h;
  int32_t dil_w;
  float out_min;
  float out_max;
};
static_assert(sizeof(ConvPush) <= kMaxPush, "push constants");

constexpr int64_t kMaxIndex = int64_t(1) << 31;

// An int list of `dims` entries (a single entry stands for all of them).
Error spatial_list(Builder& b, size_t arg, uint32_t dims, const char* what, int64_t lo,
                   int64_t* out) {
  std::vector<int64_t> v;
  EMBER_RETURN_IF_ERROR(b.int_list_arg(arg, &v));
  if (v.size() != dims && v.size() != 1) return b.invalid(what);
  for (uint32_t d = 0; d < dims; ++d) {
    out[d] = v.size() == 1 ? v[0] : v[d];
    if (out[d] < lo || out[d] > (int64_t(1) << 20)) return b.invalid(what);
  }
  return Error::Ok;
}

// A double bound, or null (no bound). Beyond float's range: no bound.
Error clamp_bound(Builder& b, size_t arg, bool low, bool* has, float* value) {
  *has = false;
  if (b.is_null(arg)) return Error::Ok;
  double d = 0;
  EMBER_RETURN_IF_ERROR(b.double_arg(arg, &d));
  if (std::isnan(d)) return b.invalid("a NaN clamp bound");
  const double fmax = double(std::numeric_limits<float>::max());
  if (low ? d < -fmax : d > fmax) return Error::Ok;
  *has = true;
  *value = d > fmax ? std::numeric_limits<float>::max()
           : d < -fmax ? -std::numeric_limits<float>::max() : float(d);
  return Error::Ok;
}

// A convolution's operands and arguments, as read from the call.
struct ConvCall {
  const TensorDesc* in = nullptr;
  const TensorDesc* wt = nullptr;
  const TensorDesc* bias = nullptr;  // null: no bias
  const TensorDesc* out = nullptr;
  size_t out_arg = 0;
  uint32_t dims = 0;  // spatial dims: 1 or 2
  int64_t stride[2] = {1, 1}, pad[2] = {0, 0}, dil[2] = {1, 1}, out_pad[2] = {0, 0};
  bool transposed = false;
  int64_t groups = 1;
};

// Phase 1: the tensors (float, rank 3 or 4 alike) and the lists.
Error read_conv_call(Builder& b, bool with_clamp, ConvCall* c) {
  EMBER_RETURN_IF_ERROR(b.expect_args(with_clamp ? 12 : 10));
  c->out_arg = b.num_args() - 1;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &c->in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(1, &c->wt));
  if (!b.is_null(2)) EMBER_RETURN_IF_ERROR(b.tensor_arg(2, &c->bias));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(c->out_arg, &c->out));
  if (!device_float(c->in->dtype) || !device_float(c->wt->dtype) ||
      !device_float(c->out->dtype) || (c->bias != nullptr && !device_float(c->bias->dtype))) {
    return b.unsupported("a convolution of non-float tensors");
  }
  if (c->in->rank != 3 && c->in->rank != 4) {
    return b.unsupported("a convolution whose input is not of rank 3 (1-D) or 4 (2-D)");
  }
  if (c->wt->rank != c->in->rank || c->out->rank != c->in->rank) {
    return b.invalid("weight or output rank differs from the input's");
  }
  c->dims = c->in->rank - 2;
  EMBER_RETURN_IF_ERROR(spatial_list(b, 3, c->dims, "stride must hold positive values, one "
                                     "per spatial dim", 1, c->stride));
  EMBER_RETURN_IF_ERROR(spatial_list(b, 4, c->dims, "padding must hold non-negative values, "
                                     "one per spatial dim", 0, c->pad));
  EMBER_RETURN_IF_ERROR(spatial_list(b, 5, c->dims, "dilation must hold positive values, one "
                                     "per spatial dim", 1, c->dil));
  EMBER_RETURN_IF_ERROR(b.bool_arg(6, &c->transposed));
  EMBER_RETURN_IF_ERROR(spatial_list(b, 7, c->dims, "output_padding must hold non-negative "
                                     "values, one per spatial dim", 0, c->out_pad));
  EMBER_RETURN_IF_ERROR(b.int_arg(8, &c->groups));
  if (c->groups < 1) return b.invalid("groups must be positive");
  return Error::Ok;
}

// Phase 2: the shapes agree (viewed as 2-D: [N, C, H, W], a 1-D
// convolution with H == 1 and its one spatial list in W); fills the
// geometry of the push constants.
Error check_conv_shapes(Builder& b, const ConvCall& c, ConvPush* p) {
  const uint32_t dims = c.dims;
  auto hw = [&](const TensorDesc& t, int64_t* h, int64_t* w) {
    *h = dims == 2 ? t.sizes[2] : 1;
    *w = t.sizes[dims == 2 ? 3 : 2];
  };
  auto pick = [&](const int64_t* v, int64_t one, int64_t* vh, int64_t* vw) {
    *vh = dims == 2 ? v[0] : one;
    *vw = dims == 2 ? v[1] : v[0];
  };
  int64_t h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw, oph, opw;
  hw(*c.in, &h, &w);
  hw(*c.out, &oh, &ow);
  hw(*c.wt, &kh, &kw);
  pick(c.stride, 1, &sh, &sw);
  pick(c.pad, 0, &ph, &pw);
  pick(c.dil, 1, &dh, &dw);
  pick(c.out_pad, 0, &oph, &opw);
  const int64_t c_in = c.in->sizes[1], c_out = c.out->sizes[1], groups = c.groups;
  if (c.out->sizes[0] != c.in->sizes[0]) return b.invalid("output batch differs from the input's");
  if (c_in % groups != 0 || c_out % groups != 0) {
    return b.invalid("channels not divisible by groups");
  }
  if (!c.transposed) {
    if (c.wt->sizes[0] != c_out || c.wt->sizes[1] != c_in / groups) {
      return b.invalid("weight shape is not [C_out, C_in/groups, k...]");
    }
    const int64_t eh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    const int64_t ew = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (h + 2 * ph < dh * (kh - 1) + 1 || w + 2 * pw < dw * (kw - 1) + 1 || eh != oh ||
        ew != ow) {
      return b.invalid("output spatial size does not match input, kernel, stride, padding "
                       "and dilation");
    }
  } else {
    if (c.wt->sizes[0] != c_in || c.wt->sizes[1] != c_out / groups) {
      return b.invalid("transposed weight shape is not [C_in, C_out/groups, k...]");
    }
    const int64_t eh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1;
    const int64_t ew = (w - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1;
    if (eh != oh || ew != ow) {
      return b.invalid("transposed output spatial size does not match input, kernel, "
                       "stride, padding, dilation and output_padding");
    }
  }
  if (c.bias != nullptr && c.bias->numel != c_out) return b.invalid("bias size is not C_out");
  if (c.in->numel >= kMaxIndex || c.out->numel >= kMaxIndex || c.wt->numel >= kMaxIndex) {
    return b.unsupported("a convolution with tensors of 2^31 elements or more");
  }
  p->c_in = uint32_t(c_in);
  p->h = uint32_t(h);
  p->w = uint32_t(w);
  p->c_out = uint32_t(c_out);
  p->oh = uint32_t(oh);
  p->ow = uint32_t(ow);
  p->kh = uint32_t(kh);
  p->kw = uint32_t(kw);
  p->groups = uint32_t(groups);
  p->stride_h = int32_t(sh);
  p->stride_w = int32_t(sw);
  p->pad_h = int32_t(ph);
  p->pad_w = int32_t(pw);
  p->dil_h = int32_t(dh);
  p->dil_w = int32_t(dw);
  return Error::Ok;
}

Error build_conv_common(Builder& b, bool with_clamp) {
  ConvCall c;
  EMBER_RETURN_IF_ERROR(read_conv_call(b, with_clamp, &c));
  ConvPush p{};
  EMBER_RETURN_IF_ERROR(check_conv_shapes(b, c, &p));
  p.total = uint32_t(c.out->numel);
  p.flags = (c.bias != nullptr ? 1u : 0u) | (c.transposed ? 2u : 0u);
  if (with_clamp) {
    bool has_lo = false, has_hi = false;
    EMBER_RETURN_IF_ERROR(clamp_bound(b, 9, /*low=*/true, &has_lo, &p.out_min));
    EMBER_RETURN_IF_ERROR(clamp_bound(b, 10, /*low=*/false, &has_hi, &p.out_max));
    if (has_lo && has_hi && p.out_min > p.out_max) {
      return b.invalid("output_min is greater than output_max");
    }
    p.flags |= (has_lo ? 4u : 0u) | (has_hi ? 8u : 0u);
  }
  // Without a bias the weight is bound in its place (the shader skips it).
  const int32_t bias_id = c.bias != nullptr ? b.arg_id(2) : b.arg_id(1);
  const std::vector<int32_t> bound = {b.arg_id(0), b.arg_id(1), bias_id, b.arg_id(c.out_arg)};
  // Regular convolutions: 4 output columns per invocation, times 4 output
  // channels where they come in blocks of 4 within a group.
  if (!c.transposed) {
    const int64_t c_out = p.c_out, groups = c.groups;
    const bool blocks = groups == 1 || (c_out / groups) % 4 == 0;
    const int64_t tc = blocks ? 4 : 1;
    const uint64_t threads = uint64_t(c.in->sizes[0]) * uint64_t((c_out + tc - 1) / tc) *
                             uint64_t(p.oh) * uint64_t((p.ow + 3) / 4);
    p.total = uint32_t(threads);
    return b.dispatch(blocks ? "conv2d_tiled" : "conv2d_cols", bound, &p, sizeof(p), threads);
  }
  return b.dispatch("conv2d", bound, &p, sizeof(p), uint64_t(c.out->numel));
}

Error build_convolution(Builder& b) { return build_conv_common(b, /*with_clamp=*/false); }

Error build_conv_with_clamp(Builder& b) { return build_conv_common(b, /*with_clamp=*/true); }

const OpEntry kRows[] = {
    {"aten.convolution.default", build_convolution},
    {"et_vk.conv_with_clamp.default", build_conv_with_clamp},
};

}  // namespace

OpFamily conv_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan

// Shared by aten::convolution.out and the fused convolution kernels
// (conv_args.h).
#include "kernels/portable/util/conv_args.h"

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/prepared_gemm.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// Reads entry `i` of a per-spatial-dim list that may also hold one value
// for all dims.
bool list_value(KernelArgs& a, Span<int64_t> list, size_t spatial, size_t i,
                const char* what, int64_t min_value, int64_t* out) {
  if (list.size() != 1 && list.size() != spatial) {
    return a.fail(Error::InvalidArgument, "%s has %zu entries; expected 1 or %zu",
                  what, list.size(), spatial);
  }
  *out = list.size() == 1 ? list[0] : list[i];
  // Bounded above too, so geometry arithmetic stays inside int64 and
  // output sizes inside SizesType.
  if (*out > int64_t(1) << 30) {
    return a.fail(Error::InvalidArgument, "%s = %lld is out of range", what,
                  static_cast<long long>(*out));
  }
  if (*out < min_value) {
    return a.fail(Error::InvalidArgument, "%s[%zu] = %lld must be >= %lld", what,
                  i, static_cast<long long>(*out),
                  static_cast<long long>(min_value));
  }
  return true;
}

// Phase 1: sizes from the tensors, stride / padding / dilation /
// output_padding from the lists (a 1-D convolution has a height of one).
bool geometry_lists(KernelArgs& a, const ConvSpec& spec, ConvGeometry& g, int64_t* out_pad_h,
                    int64_t* out_pad_w) {
  const Tensor input = spec.input, weight = spec.weight;
  const size_t ndim = input.dim(), spatial = ndim - 2;
  g = ConvGeometry{};
  g.transposed = spec.transposed;
  g.batch = input.sizes()[0];
  g.in_channels = input.sizes()[1];
  g.groups = spec.groups;
  if (spec.groups < 1 || spec.groups > (int64_t(1) << 30)) {
    return a.fail(Error::InvalidArgument, "groups = %lld is out of range",
                  static_cast<long long>(spec.groups));
  }
  g.out_channels = spec.transposed ? int64_t(weight.sizes()[1]) * spec.groups
                                   : int64_t(weight.sizes()[0]);
  g.in_h = spatial == 2 ? input.sizes()[2] : 1;
  g.in_w = input.sizes()[ndim - 1];
  g.kernel_h = spatial == 2 ? weight.sizes()[2] : 1;
  g.kernel_w = weight.sizes()[ndim - 1];
  g.stride_h = 1;
  g.pad_h = 0;
  g.dilation_h = 1;
  *out_pad_h = *out_pad_w = 0;
  const size_t w_idx = spatial - 1;
  if ((spatial == 2 &&
       (!list_value(a, spec.stride, spatial, 0, "stride", 1, &g.stride_h) ||
        !list_value(a, spec.padding, spatial, 0, "padding", 0, &g.pad_h) ||
        !list_value(a, spec.dilation, spatial, 0, "dilation", 1, &g.dilation_h))) ||
      !list_value(a, spec.stride, spatial, w_idx, "stride", 1, &g.stride_w) ||
      !list_value(a, spec.padding, spatial, w_idx, "padding", 0, &g.pad_w) ||
      !list_value(a, spec.dilation, spatial, w_idx, "dilation", 1, &g.dilation_w)) {
    return false;
  }
  if (spec.transposed &&
      ((spatial == 2 && !list_value(a, spec.output_padding, spatial, 0, "output_padding", 0,
                                    out_pad_h)) ||
       !list_value(a, spec.output_padding, spatial, w_idx, "output_padding", 0, out_pad_w))) {
    return false;
  }
  if (*out_pad_h >= (g.stride_h > g.dilation_h ? g.stride_h : g.dilation_h) ||
      *out_pad_w >= (g.stride_w > g.dilation_w ? g.stride_w : g.dilation_w)) {
    return a.fail(Error::InvalidArgument,
                  "output_padding must be smaller than stride or dilation");
  }
  return true;
}

// Phase 2: channels divide into the groups and match the weight; the bias
// has one element per output channel.
bool geometry_channels(KernelArgs& a, const ConvSpec& spec, const ConvGeometry& g) {
  const Tensor weight = spec.weight;
  const int64_t weight_in = spec.transposed ? int64_t(weight.sizes()[0])
                                            : int64_t(weight.sizes()[1]) * g.groups;
  if (g.in_channels % g.groups != 0 || g.out_channels % g.groups != 0 ||
      weight_in != g.in_channels || g.out_channels > INT32_MAX) {
    return a.fail(Error::InvalidArgument,
                  "groups = %lld does not fit input channels %lld, weight [%d, %d, ...]%s",
                  static_cast<long long>(g.groups), static_cast<long long>(g.in_channels),
                  int(weight.sizes()[0]), int(weight.sizes()[1]),
                  spec.transposed ? " (transposed)" : "");
  }
  if (spec.bias.has_value() && spec.bias.value().numel() != g.out_channels) {
    return a.fail(Error::InvalidArgument, "bias has %lld elements for %lld channels",
                  static_cast<long long>(spec.bias.value().numel()),
                  static_cast<long long>(g.out_channels));
  }
  return true;
}

// Phase 3: the output's height and width, nonempty and inside int32.
bool geometry_output(KernelArgs& a, ConvGeometry& g, int64_t out_pad_h, int64_t out_pad_w) {
  const int64_t span_h = g.dilation_h * (g.kernel_h - 1) + 1;
  const int64_t span_w = g.dilation_w * (g.kernel_w - 1) + 1;
  if (g.kernel_h < 1 || g.kernel_w < 1) {
    return a.fail(Error::InvalidArgument, "kernel must be nonempty");
  }
  if (g.transposed) {
    g.out_h = (g.in_h - 1) * g.stride_h - 2 * g.pad_h + span_h + out_pad_h;
    g.out_w = (g.in_w - 1) * g.stride_w - 2 * g.pad_w + span_w + out_pad_w;
    if (g.in_h < 1 || g.in_w < 1 || g.out_h < 1 || g.out_w < 1) {
      return a.fail(Error::InvalidArgument, "transposed output size %lld x %lld is empty",
                    static_cast<long long>(g.out_h), static_cast<long long>(g.out_w));
    }
  } else {
    const int64_t padded_h = g.in_h + 2 * g.pad_h, padded_w = g.in_w + 2 * g.pad_w;
    if (padded_h < span_h || padded_w < span_w) {
      return a.fail(Error::InvalidArgument,
                    "kernel (%lld x %lld, dilated) is larger than the padded input "
                    "(%lld x %lld)",
                    static_cast<long long>(span_h), static_cast<long long>(span_w),
                    static_cast<long long>(padded_h), static_cast<long long>(padded_w));
    }
    g.out_h = (padded_h - span_h) / g.stride_h + 1;
    g.out_w = (padded_w - span_w) / g.stride_w + 1;
  }
  // Each factor is below 2^31, so each product below is exact in int64.
  if (g.out_h > INT32_MAX || g.out_w > INT32_MAX ||
      g.out_h * g.out_w > INT32_MAX || g.batch * g.out_channels > INT32_MAX ||
      (g.batch * g.out_channels) * (g.out_h * g.out_w) > INT32_MAX) {
    return a.fail(Error::InvalidArgument, "output size %lld x %lld is out of range",
                  static_cast<long long>(g.out_h), static_cast<long long>(g.out_w));
  }
  return true;
}

}  // namespace

bool convolution_geometry(KernelArgs& a, const ConvSpec& spec, ConvGeometry* geometry) {
  const size_t ndim = spec.input.dim();
  if ((ndim != 3 && ndim != 4) || spec.weight.dim() != ndim) {
    return a.fail(Error::InvalidArgument,
                  "input and weight must both have 3 (1-D) or 4 (2-D) dims; got %zu "
                  "and %zu",
                  ndim, spec.weight.dim());
  }
  int64_t out_pad_h = 0, out_pad_w = 0;
  return geometry_lists(a, spec, *geometry, &out_pad_h, &out_pad_w) &&
         geometry_channels(a, spec, *geometry) &&
         geometry_output(a, *geometry, out_pad_h, out_pad_w);
}

namespace {

// convolution.out's arguments other than out (argument 9).
void read_conv_spec(KernelArgs& a, ConvSpec* spec) {
  spec->input = a.tensor(0);
  spec->weight = a.tensor(1);
  spec->bias = a.optional_tensor(2);
  spec->stride = a.int_list(3);
  spec->padding = a.int_list(4);
  spec->dilation = a.int_list(5);
  spec->transposed = a.bool_value(6);
  spec->output_padding = a.int_list(7);
  spec->groups = a.int_value(8);
}

// The shape of a call whose constant weight the pointwise packing takes
// (math::conv2d_packed_weights_floats): Float 2-D, not transposed, the
// weight the contiguous constant itself.
bool packed_weight_shape(Span<EValue*> args, const OperandSource& source,
                         math::Conv2dShape* s) {
  if (source.transposed) return false;
  KernelContext scratch;
  KernelArgs a(scratch, args, "aten::convolution.out", 11);
  ConvSpec spec;
  read_conv_spec(a, &spec);
  if (!a.ok() || spec.transposed || spec.input.dim() != 4 ||
      spec.input.scalar_type() != ScalarType::Float ||
      source.constant.scalar_type() != ScalarType::Float || !source.constant.is_contiguous() ||
      source.constant.numel() != spec.weight.numel()) {
    return false;
  }
  ConvGeometry g;
  if (!convolution_geometry(a, spec, &g)) return false;
  *s = opt_shape(g);
  return math::conv2d_packed_weights_floats(*s) > 0;
}

}  // namespace

size_t conv_weight_operand_bytes(Span<EValue*> args, const OperandSource& source) {
  math::Conv2dShape s;
  return packed_weight_shape(args, source, &s) ? prepared_b_bytes(s.in_c, s.out_c) : 0;
}

void prepare_conv_weight_operand(Span<EValue*> args, const OperandSource& source, void* out) {
  math::Conv2dShape s;
  if (!packed_weight_shape(args, source, &s)) return;
  math::conv2d_pack_weights(s, source.constant.const_data_ptr<float>(),
                           prepared_b_panels(out, s.in_c, s.out_c));
}

bool prepare_convolution(KernelArgs& a, ConvCall* call) {
  ConvSpec spec;
  read_conv_spec(a, &spec);
  const Tensor out = a.tensor(9);
  if (!a.ok()) {
    return false;
  }
  const Tensor input = spec.input, weight = spec.weight;
  const Optional<Tensor> bias = spec.bias;
  const ScalarType type = input.scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    a.fail(Error::NotSupported, "dtype %s is not supported (Float or Double)",
           scalar_type_name(type));
    return false;
  }
  if (weight.scalar_type() != type || out.scalar_type() != type ||
      (bias.has_value() && bias.value().scalar_type() != type)) {
    a.fail(Error::InvalidArgument, "input, weight, bias and out must share dtype %s",
           scalar_type_name(type));
    return false;
  }
  if (!check_contiguous(a, input, "input") ||
      !check_contiguous(a, weight, "weight") ||
      !check_contiguous(a, out, "out") ||
      (bias.has_value() && !check_contiguous(a, bias.value(), "bias"))) {
    return false;
  }
  if (!convolution_geometry(a, spec, &call->g)) {
    return false;
  }
  const ConvGeometry& g = call->g;
  const size_t ndim = input.dim();
  const size_t spatial = ndim - 2;
  SizesType sizes[4] = {SizesType(g.batch), SizesType(g.out_channels), 0, 0};
  if (spatial == 2) {
    sizes[2] = SizesType(g.out_h);
    sizes[3] = SizesType(g.out_w);
  } else {
    sizes[2] = SizesType(g.out_w);
  }
  if (!resize_out(a, out, {sizes, ndim})) {
    return false;
  }
  call->input = input;
  call->weight = weight;
  call->bias = bias;
  call->out = out;
  call->type = type;
  return true;
}

math::Conv2dShape opt_shape(const ConvGeometry& g) {
  math::Conv2dShape s;
  s.batch = size_t(g.batch), s.in_c = size_t(g.in_channels), s.out_c = size_t(g.out_channels);
  s.groups = size_t(g.groups);
  s.in_h = size_t(g.in_h), s.in_w = size_t(g.in_w), s.out_h = size_t(g.out_h);
  s.out_w = size_t(g.out_w), s.kernel_h = size_t(g.kernel_h), s.kernel_w = size_t(g.kernel_w);
  s.stride_h = size_t(g.stride_h), s.stride_w = size_t(g.stride_w);
  s.pad_h = size_t(g.pad_h), s.pad_w = size_t(g.pad_w);
  s.dilation_h = size_t(g.dilation_h), s.dilation_w = size_t(g.dilation_w);
  return s;
}

bool run_convolution_f32(KernelContext& ctx, const ConvGeometry& g, const float* in,
                         const float* weight, const float* bias, float* out,
                         const math::ConvEpilogue* epilogue) {
  const math::Conv2dShape s = opt_shape(g);
  const bool depthwise = g.in_channels == g.groups;
  // The weights packed at load (prepare_conv_weight_operand), when the
  // call has them for this shape and ISA.
  const float* packed = math::conv2d_packed_weights_floats(s) > 0
                            ? prepared_gemm_b(ctx, g.in_channels, g.out_channels)
                            : nullptr;
  auto floats = [&](size_t workers) {
    return depthwise ? math::conv2d_depthwise_workspace_floats(s, workers)
                     : math::conv2d_nchw_workspace_floats(s, workers, math::best_isa(),
                                                         packed != nullptr);
  };
  size_t workers = num_threads();
  float* ws = static_cast<float*>(ctx.allocate_temp(floats(workers) * sizeof(float), 64));
  if (ws == nullptr && workers > 1) {
    workers = 1;
    ws = static_cast<float*>(ctx.allocate_temp(floats(1) * sizeof(float), 64));
  }
  if (ws == nullptr) {
    return false;
  }
  if (depthwise) {
    math::conv2d_depthwise_nchw_f32(s, in, weight, bias, out, ws, workers, math::best_isa(),
                                   epilogue);
  } else {
    math::conv2d_nchw_f32(s, in, weight, bias, out, ws, workers, math::best_isa(), epilogue,
                         packed);
  }
  return true;
}

}  // namespace ember

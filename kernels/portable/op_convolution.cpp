// aten::convolution.out(Tensor input, Tensor weight, Tensor? bias,
//     SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed,
//     SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
//
// 1-D ([N, C, L]) and 2-D ([N, C, H, W]) convolution with stride, zero
// padding, dilation and groups; Float or Double, contiguous. Transposed
// convolution is not implemented (NotSupported).
//
// Formulation: no im2col. For each output plane, every (input channel,
// kernel tap) pair adds weight * (a shifted input row) to each output row.
// The shifted-row update is a unit-stride axpy when stride is 1, which
// vectorizes, and the output plane stays in cache across the taps.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct ConvGeometry {
  int64_t batch, in_channels, out_channels, groups;
  int64_t in_h, in_w, out_h, out_w, kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
};

// The ow range whose input column ow * stride + offset lies in [0, width).
void valid_range(int64_t offset, int64_t stride, int64_t width, int64_t out,
                 int64_t* lo, int64_t* hi) {
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = width - 1 - offset;  // ow * stride <= last
  *hi = last < 0 ? 0 : last / stride + 1;
  *hi = *hi < out ? *hi : out;
}

template <typename T>
void conv2d(const ConvGeometry& g, const T* in, const T* weight,
            const T* bias, T* out) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t ocg = g.out_channels / g.groups;
  const int64_t in_plane = g.in_h * g.in_w;
  const int64_t out_plane = g.out_h * g.out_w;
  const int64_t taps = g.kernel_h * g.kernel_w;
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      const int64_t group = oc / ocg;
      T* op = out + (n * g.out_channels + oc) * out_plane;
      const T init = bias != nullptr ? bias[oc] : T(0);
      for (int64_t i = 0; i < out_plane; ++i) {
        op[i] = init;
      }
      for (int64_t ic = 0; ic < icg; ++ic) {
        const T* ip = in + (n * g.in_channels + group * icg + ic) * in_plane;
        const T* wp = weight + (oc * icg + ic) * taps;
        for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
          for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
            const T w = wp[kh * g.kernel_w + kw];
            const int64_t col_off = kw * g.dilation_w - g.pad_w;
            int64_t lo, hi;
            valid_range(col_off, g.stride_w, g.in_w, g.out_w, &lo, &hi);
            if (lo >= hi) {
              continue;
            }
            for (int64_t oh = 0; oh < g.out_h; ++oh) {
              const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
              if (ih < 0 || ih >= g.in_h) {
                continue;
              }
              const T* irow = ip + ih * g.in_w + col_off;
              T* orow = op + oh * g.out_w;
              if (g.stride_w == 1) {
                for (int64_t ow = lo; ow < hi; ++ow) {
                  orow[ow] += w * irow[ow];
                }
              } else {
                for (int64_t ow = lo; ow < hi; ++ow) {
                  orow[ow] += w * irow[ow * g.stride_w];
                }
              }
            }
          }
        }
      }
    }
  }
}

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

void convolution_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::convolution.out", 11);
  const Tensor input = a.tensor(0), weight = a.tensor(1);
  const Optional<Tensor> bias = a.optional_tensor(2);
  const Span<int64_t> stride = a.int_list(3), padding = a.int_list(4),
                      dilation = a.int_list(5);
  const bool transposed = a.bool_value(6);
  (void)a.int_list(7);
  const int64_t groups = a.int_value(8);
  const Tensor out = a.tensor(9);
  if (!a.ok()) {
    return;
  }
  if (transposed) {
    a.fail(Error::NotSupported, "transposed convolution is not implemented");
    return;
  }
  const ScalarType type = input.scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    a.fail(Error::NotSupported, "dtype %s is not supported (Float or Double)",
           scalar_type_name(type));
    return;
  }
  if (weight.scalar_type() != type || out.scalar_type() != type ||
      (bias.has_value() && bias.value().scalar_type() != type)) {
    a.fail(Error::InvalidArgument, "input, weight, bias and out must share dtype %s",
           scalar_type_name(type));
    return;
  }
  if (!check_contiguous(a, input, "input") ||
      !check_contiguous(a, weight, "weight") ||
      !check_contiguous(a, out, "out") ||
      (bias.has_value() && !check_contiguous(a, bias.value(), "bias"))) {
    return;
  }
  const size_t ndim = input.dim();
  if ((ndim != 3 && ndim != 4) || weight.dim() != ndim) {
    a.fail(Error::InvalidArgument,
           "input and weight must both have 3 (1-D) or 4 (2-D) dims; got %zu "
           "and %zu",
           ndim, weight.dim());
    return;
  }
  const size_t spatial = ndim - 2;
  ConvGeometry g{};
  g.batch = input.sizes()[0];
  g.in_channels = input.sizes()[1];
  g.out_channels = weight.sizes()[0];
  g.groups = groups;
  g.in_h = spatial == 2 ? input.sizes()[2] : 1;
  g.in_w = input.sizes()[ndim - 1];
  g.kernel_h = spatial == 2 ? weight.sizes()[2] : 1;
  g.kernel_w = weight.sizes()[ndim - 1];
  g.stride_h = 1;  // 1-D convolution: a height of one
  g.pad_h = 0;
  g.dilation_h = 1;
  const size_t w_idx = spatial - 1;
  if ((spatial == 2 &&
       (!list_value(a, stride, spatial, 0, "stride", 1, &g.stride_h) ||
        !list_value(a, padding, spatial, 0, "padding", 0, &g.pad_h) ||
        !list_value(a, dilation, spatial, 0, "dilation", 1, &g.dilation_h))) ||
      !list_value(a, stride, spatial, w_idx, "stride", 1, &g.stride_w) ||
      !list_value(a, padding, spatial, w_idx, "padding", 0, &g.pad_w) ||
      !list_value(a, dilation, spatial, w_idx, "dilation", 1, &g.dilation_w)) {
    return;
  }
  if (groups < 1 || g.in_channels % groups != 0 ||
      g.out_channels % groups != 0 ||
      weight.sizes()[1] != g.in_channels / groups) {
    a.fail(Error::InvalidArgument,
           "groups = %lld does not fit input channels %lld, weight [%d, %d, ...]",
           static_cast<long long>(groups), static_cast<long long>(g.in_channels),
           int(weight.sizes()[0]), int(weight.sizes()[1]));
    return;
  }
  if (bias.has_value() && bias.value().numel() != g.out_channels) {
    a.fail(Error::InvalidArgument, "bias has %lld elements for %lld channels",
           static_cast<long long>(bias.value().numel()),
           static_cast<long long>(g.out_channels));
    return;
  }
  const int64_t span_h = g.dilation_h * (g.kernel_h - 1) + 1;
  const int64_t span_w = g.dilation_w * (g.kernel_w - 1) + 1;
  const int64_t padded_h = g.in_h + 2 * g.pad_h, padded_w = g.in_w + 2 * g.pad_w;
  if (g.kernel_h < 1 || g.kernel_w < 1 || padded_h < span_h ||
      padded_w < span_w) {
    a.fail(Error::InvalidArgument,
           "kernel (%lld x %lld, dilated) is larger than the padded input "
           "(%lld x %lld)",
           static_cast<long long>(span_h), static_cast<long long>(span_w),
           static_cast<long long>(padded_h), static_cast<long long>(padded_w));
    return;
  }
  g.out_h = (padded_h - span_h) / g.stride_h + 1;
  g.out_w = (padded_w - span_w) / g.stride_w + 1;

  if (g.out_h > INT32_MAX || g.out_w > INT32_MAX) {
    a.fail(Error::InvalidArgument, "output size %lld x %lld is out of range",
           static_cast<long long>(g.out_h), static_cast<long long>(g.out_w));
    return;
  }
  SizesType sizes[4] = {SizesType(g.batch), SizesType(g.out_channels), 0, 0};
  if (spatial == 2) {
    sizes[2] = SizesType(g.out_h);
    sizes[3] = SizesType(g.out_w);
  } else {
    sizes[2] = SizesType(g.out_w);
  }
  if (!resize_out(a, out, {sizes, ndim})) {
    return;
  }
  visit_float_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    conv2d<T>(g, input.const_data_ptr<T>(), weight.const_data_ptr<T>(),
              bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
              out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::convolution.out", convolution_out_boxed);

}  // namespace ember

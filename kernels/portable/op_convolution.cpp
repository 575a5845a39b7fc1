// aten::convolution.out(Tensor input, Tensor weight, Tensor? bias,
//     SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed,
//     SymInt[] output_padding, SymInt groups, *, Tensor(a!) out)
//
// 1-D ([N, C, L]) and 2-D ([N, C, H, W]) convolution, plain and transposed,
// with stride, zero padding, dilation, groups and (transposed)
// output_padding; Float or Double, contiguous.
//
// Formulation (util/conv_gemm.h): im2col of a tile of output pixels into
// temp memory, then the blocked GEMM weight[oc, ic*kh*kw] x col, split
// across the thread pool; 1x1 stride-1 unpadded convolutions multiply the
// input directly. Transposed convolution is the GEMM weight^T x input into
// a column tile followed by col2im (scatter-add), parallel over output
// channels. Depthwise convolution (one input channel per group) and the
// no-temp-memory fallback use a direct per-plane kernel (a shifted-row
// axpy that vectorizes), parallel over planes.
#include "kernels/portable/util/conv_gemm.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"
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

// False when transposed convolution finds no temp memory (it has no
// scratch-free fallback).
template <typename T>
bool run_convolution(KernelContext& ctx, const ConvGeometry& g, const T* in,
                     const T* weight, const T* bias, T* out) {
  if (g.transposed) {
    const int64_t icg = g.in_channels / g.groups;
    const int64_t rows = g.out_channels / g.groups * g.kernel_h * g.kernel_w;
    const int64_t need = icg * rows + rows * conv_transposed_tile<T>(g);
    T* scratch = static_cast<T*>(ctx.allocate_temp(size_t(need) * sizeof(T)));
    if (scratch == nullptr) {
      return false;
    }
    conv_transposed_gemm<T>(g, in, weight, bias, out, scratch, scratch + icg * rows);
    return true;
  }
  const bool depthwise = g.in_channels == g.groups;
  const int64_t need = conv_gemm_scratch<T>(g);
  T* col = nullptr;
  int64_t workers = int64_t(num_threads());
  if (!depthwise && need > 0) {
    // One column tile per thread; settle for one if memory is short.
    col = static_cast<T*>(ctx.allocate_temp(size_t(need * workers) * sizeof(T)));
    if (col == nullptr && workers > 1) {
      workers = 1;
      col = static_cast<T*>(ctx.allocate_temp(size_t(need) * sizeof(T)));
    }
  }
  if (depthwise || (need > 0 && col == nullptr)) {
    conv_direct<T>(g, in, weight, bias, out);
  } else {
    conv_gemm<T>(g, in, weight, bias, out, col, workers);
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
  const Span<int64_t> output_padding = a.int_list(7);
  const int64_t groups = a.int_value(8);
  const Tensor out = a.tensor(9);
  if (!a.ok()) {
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
  g.transposed = transposed;
  g.batch = input.sizes()[0];
  g.in_channels = input.sizes()[1];
  g.groups = groups;
  if (groups < 1 || groups > (int64_t(1) << 30)) {
    a.fail(Error::InvalidArgument, "groups = %lld is out of range",
           static_cast<long long>(groups));
    return;
  }
  g.out_channels = transposed ? int64_t(weight.sizes()[1]) * groups
                              : int64_t(weight.sizes()[0]);
  g.in_h = spatial == 2 ? input.sizes()[2] : 1;
  g.in_w = input.sizes()[ndim - 1];
  g.kernel_h = spatial == 2 ? weight.sizes()[2] : 1;
  g.kernel_w = weight.sizes()[ndim - 1];
  g.stride_h = 1;  // 1-D convolution: a height of one
  g.pad_h = 0;
  g.dilation_h = 1;
  int64_t out_pad_h = 0, out_pad_w = 0;
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
  if (transposed &&
      ((spatial == 2 && !list_value(a, output_padding, spatial, 0, "output_padding",
                                    0, &out_pad_h)) ||
       !list_value(a, output_padding, spatial, w_idx, "output_padding", 0,
                   &out_pad_w))) {
    return;
  }
  if (out_pad_h >= (g.stride_h > g.dilation_h ? g.stride_h : g.dilation_h) ||
      out_pad_w >= (g.stride_w > g.dilation_w ? g.stride_w : g.dilation_w)) {
    a.fail(Error::InvalidArgument,
           "output_padding must be smaller than stride or dilation");
    return;
  }
  const int64_t weight_in = transposed ? int64_t(weight.sizes()[0])
                                       : int64_t(weight.sizes()[1]) * groups;
  if (g.in_channels % groups != 0 || g.out_channels % groups != 0 ||
      weight_in != g.in_channels || g.out_channels > INT32_MAX) {
    a.fail(Error::InvalidArgument,
           "groups = %lld does not fit input channels %lld, weight [%d, %d, ...]%s",
           static_cast<long long>(groups), static_cast<long long>(g.in_channels),
           int(weight.sizes()[0]), int(weight.sizes()[1]),
           transposed ? " (transposed)" : "");
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
  if (g.kernel_h < 1 || g.kernel_w < 1) {
    a.fail(Error::InvalidArgument, "kernel must be nonempty");
    return;
  }
  if (transposed) {
    g.out_h = (g.in_h - 1) * g.stride_h - 2 * g.pad_h + span_h + out_pad_h;
    g.out_w = (g.in_w - 1) * g.stride_w - 2 * g.pad_w + span_w + out_pad_w;
    if (g.in_h < 1 || g.in_w < 1 || g.out_h < 1 || g.out_w < 1) {
      a.fail(Error::InvalidArgument,
             "transposed output size %lld x %lld is empty",
             static_cast<long long>(g.out_h), static_cast<long long>(g.out_w));
      return;
    }
  } else {
    const int64_t padded_h = g.in_h + 2 * g.pad_h, padded_w = g.in_w + 2 * g.pad_w;
    if (padded_h < span_h || padded_w < span_w) {
      a.fail(Error::InvalidArgument,
             "kernel (%lld x %lld, dilated) is larger than the padded input "
             "(%lld x %lld)",
             static_cast<long long>(span_h), static_cast<long long>(span_w),
             static_cast<long long>(padded_h), static_cast<long long>(padded_w));
      return;
    }
    g.out_h = (padded_h - span_h) / g.stride_h + 1;
    g.out_w = (padded_w - span_w) / g.stride_w + 1;
  }
  // Each factor is below 2^31, so each product below is exact in int64.
  if (g.out_h > INT32_MAX || g.out_w > INT32_MAX ||
      g.out_h * g.out_w > INT32_MAX || g.batch * g.out_channels > INT32_MAX ||
      (g.batch * g.out_channels) * (g.out_h * g.out_w) > INT32_MAX) {
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
  if (out.numel() == 0) {
    return;
  }
  bool ok = true;
  visit_float_or_double_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    ok = run_convolution<T>(ctx, g, input.const_data_ptr<T>(), weight.const_data_ptr<T>(),
                       bias.has_value() ? bias.value().const_data_ptr<T>() : nullptr,
                       out.mutable_data_ptr<T>());
  });
  if (!ok) {
    a.fail(Error::MemoryAllocationFailed,
           "transposed convolution needs temp memory (temp allocator absent "
           "or full)");
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::convolution.out", convolution_out_boxed);

}  // namespace ember

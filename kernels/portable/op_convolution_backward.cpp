// aten::convolution_backward.out(Tensor grad_output, Tensor input,
//     Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding,
//     SymInt[] dilation, bool transposed, SymInt[] output_padding,
//     SymInt groups, bool[3] output_mask, *, Tensor(a!) out0,
//     Tensor(b!) out1, Tensor(c!) out2) -> (Tensor(a!), Tensor(b!), Tensor(c!))
//
// The gradients of convolution.out with respect to its input (out0, input's
// shape), weight (out1, weight's shape) and bias (out2, bias_sizes or
// [out_channels]), each computed only where output_mask says so; an out
// whose mask entry is false is neither checked nor written. 1-D and 2-D,
// plain and transposed, with stride, padding, dilation, groups and
// output_padding checked as convolution.out checks them
// (util/conv_args.h); grad_output must have the forward's output shape.
// Float or Double, contiguous. Boxed: 14 arguments and the returned
// tuple as one value (15) or three (17).
//
// Formulation. Swapping a convolution's input and output sides (channels
// and spatial sizes) and its kind gives its adjoint: the input gradient of
// a plain convolution is the transposed convolution of grad_output with
// the same weight, and the other way round. So out0 runs the forward
// engines (util/conv_args.h run_convolution: kernels/math for Float
// plain convolutions, util/conv_gemm.h otherwise) on the swapped geometry.
// The weight gradient sums, over the batch, the product of the "output
// side" and the im2col of the "input side" of whichever of the two
// geometries is plain (the forward one, or the swapped one for a
// transposed forward): gw[oc, (ic, tap)] += A[oc, p] col[(ic, tap), p],
// tile by tile of pixels, each tile transposed (kernels/math
// transpose) and multiplied on the GEMM (util/matmul.h). The bias gradient
// sums grad_output per channel in double. Temp memory: the forward
// engines' scratch, and two column tiles for the weight gradient (smaller
// tiles when temp memory is short; MemoryAllocationFailed when even one
// pixel's do not fit).
#include "kernels/math/transpose.h"
#include "kernels/portable/util/conv_args.h"
#include "kernels/portable/util/conv_gemm.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The adjoint geometry: input and output sides exchanged, kind flipped.
ConvGeometry swapped(const ConvGeometry& g) {
  ConvGeometry s = g;
  s.in_channels = g.out_channels;
  s.out_channels = g.in_channels;
  s.in_h = g.out_h;
  s.in_w = g.out_w;
  s.out_h = g.in_h;
  s.out_w = g.in_w;
  s.transposed = !g.transposed;
  return s;
}

// gw = sum over the batch of out_side x im2col(in_side)^T per group, for a
// plain geometry h: in_side [N, h.in_channels, h.in_h, h.in_w], out_side
// [N, h.out_channels, h.out_h, h.out_w], gw [h.out_channels,
// h.in_channels / groups, kh, kw].
// scratch holds two tiles of `tile` pixels: a column tile and its
// transpose.
template <typename T>
void weight_gradient(const ConvGeometry& h, const T* in_side, const T* out_side, T* gw,
                     T* scratch, int64_t tile) {
  const int64_t icg = h.in_channels / h.groups, ocg = h.out_channels / h.groups;
  const int64_t rows = icg * h.kernel_h * h.kernel_w;
  const int64_t pixels = h.out_h * h.out_w;
  T* col = scratch;
  T* col_t = scratch + rows * tile;
  for (int64_t i = 0; i < h.out_channels * rows; ++i) {
    gw[i] = T(0);
  }
  for (int64_t n = 0; n < h.batch; ++n) {
    for (int64_t grp = 0; grp < h.groups; ++grp) {
      const T* src = in_side + (n * h.in_channels + grp * icg) * h.in_h * h.in_w;
      const T* a = out_side + (n * h.out_channels + grp * ocg) * pixels;
      T* dst = gw + grp * ocg * rows;
      for (int64_t p0 = 0; p0 < pixels; p0 += tile) {
        const int64_t p1 = p0 + tile < pixels ? p0 + tile : pixels;
        const int64_t width = p1 - p0;
        detail::im2col_tile(h, src, p0, p1, col);
        const size_t dims[2] = {size_t(rows), size_t(width)};
        const size_t perm[2] = {1, 0};
        math::transpose(sizeof(T), 2, dims, perm, col, col_t);
        gemm_parallel<T>(ocg, rows, width, T(1), a + p0, pixels, col_t, rows, T(1), dst,
                         rows);
      }
    }
  }
}

template <typename T>
void bias_gradient(const ConvGeometry& g, const T* grad, T* gb) {
  const int64_t pixels = g.out_h * g.out_w;
  for (int64_t oc = 0; oc < g.out_channels; ++oc) {
    double sum = 0.0;
    for (int64_t n = 0; n < g.batch; ++n) {
      const T* p = grad + (n * g.out_channels + oc) * pixels;
      for (int64_t i = 0; i < pixels; ++i) {
        sum += double(p[i]);
      }
    }
    gb[oc] = T(sum);
  }
}

bool same_sizes(Tensor t, const SizesType* sizes, size_t ndim) {
  if (t.dim() != ndim) {
    return false;
  }
  for (size_t d = 0; d < ndim; ++d) {
    if (t.sizes()[d] != sizes[d]) {
      return false;
    }
  }
  return true;
}

// One call's arguments: grad_output, the forward's spec, bias_sizes, the
// mask and the outs it asks for (the others stay empty).
struct BackwardArgs {
  Tensor grad;
  ConvSpec spec;
  Optional<Span<int64_t>> bias_sizes;
  Span<bool> mask;
  Tensor outs[3];
};

const char* const kOutNames[3] = {"out0 (grad_input)", "out1 (grad_weight)",
                                  "out2 (grad_bias)"};

// Parse: the 11 arguments, then the outs the mask asks for (the others may
// be unbound).
bool read_arguments(KernelArgs& a, BackwardArgs* b) {
  b->grad = a.tensor(0);
  b->spec.input = a.tensor(1);
  b->spec.weight = a.tensor(2);
  b->bias_sizes = a.optional_int_list(3);
  b->spec.stride = a.int_list(4);
  b->spec.padding = a.int_list(5);
  b->spec.dilation = a.int_list(6);
  b->spec.transposed = a.bool_value(7);
  b->spec.output_padding = a.int_list(8);
  b->spec.groups = a.int_value(9);
  b->mask = a.bool_list(10);
  if (!a.ok()) {
    return false;
  }
  if (b->mask.size() != 3) {
    return a.fail(Error::InvalidArgument, "output_mask has %zu entries; expected 3",
                  b->mask.size());
  }
  for (size_t k = 0; k < 3; ++k) {
    if (b->mask[k]) {
      b->outs[k] = a.tensor(11 + k);
    }
  }
  return a.ok();
}

// Check: one dtype (Float or Double) for every tensor used, all contiguous.
bool check_dtypes_and_layout(KernelArgs& a, const BackwardArgs& b) {
  const Tensor input = b.spec.input, weight = b.spec.weight;
  const ScalarType type = input.scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double) {
    return a.fail(Error::NotSupported, "dtype %s is not supported (Float or Double)",
                  scalar_type_name(type));
  }
  if (b.grad.scalar_type() != type || weight.scalar_type() != type) {
    return a.fail(Error::InvalidArgument, "grad_output, input and weight must share dtype %s",
                  scalar_type_name(type));
  }
  for (size_t k = 0; k < 3; ++k) {
    if (b.mask[k] && b.outs[k].scalar_type() != type) {
      return a.fail(Error::InvalidArgument, "%s must be %s, got %s", kOutNames[k],
                    scalar_type_name(type), scalar_type_name(b.outs[k].scalar_type()));
    }
    if (b.mask[k] && !check_contiguous(a, b.outs[k], kOutNames[k])) {
      return false;
    }
  }
  return check_contiguous(a, b.grad, "grad_output") && check_contiguous(a, input, "input") &&
         check_contiguous(a, weight, "weight");
}

// Shapes: grad_output has the forward's output shape; bias_sizes, when
// given for an asked-for bias gradient, is [out_channels].
bool check_grad_and_bias_shapes(KernelArgs& a, const BackwardArgs& b, const ConvGeometry& g) {
  const size_t ndim = b.spec.input.dim();
  SizesType out_sizes[4] = {SizesType(g.batch), SizesType(g.out_channels), 0, 0};
  out_sizes[2] = SizesType(ndim == 4 ? g.out_h : g.out_w);
  out_sizes[3] = SizesType(g.out_w);
  if (!same_sizes(b.grad, out_sizes, ndim)) {
    return a.fail(
        Error::InvalidArgument,
        "grad_output must have the convolution's output shape [%lld, %lld, %lld, %lld] "
        "(the last %zu dims)",
        static_cast<long long>(g.batch), static_cast<long long>(g.out_channels),
        static_cast<long long>(g.out_h), static_cast<long long>(g.out_w), ndim - 2);
  }
  const Optional<Span<int64_t>>& bias_sizes = b.bias_sizes;
  if (b.mask[2] && bias_sizes.has_value() &&
      (bias_sizes.value().size() != 1 || bias_sizes.value()[0] != g.out_channels)) {
    return a.fail(Error::InvalidArgument, "bias_sizes must be [%lld]",
                  static_cast<long long>(g.out_channels));
  }
  return true;
}

// Outs: input's shape, weight's shape and [out_channels], where asked for.
bool resize_outs(KernelArgs& a, const BackwardArgs& b, const ConvGeometry& g) {
  const SizesType bias_size = SizesType(g.out_channels);
  if (b.mask[0] && !resize_out(a, b.outs[0], b.spec.input.sizes())) {
    return false;
  }
  if (b.mask[1] && !resize_out(a, b.outs[1], b.spec.weight.sizes())) {
    return false;
  }
  return !b.mask[2] || resize_out(a, b.outs[2], {&bias_size, 1});
}

// out0: the adjoint convolution of grad_output (zeros when grad_output is
// empty). False when the engine finds no temp memory.
template <typename T>
bool input_gradient(KernelContext& ctx, const ConvGeometry& s, Tensor grad, Tensor weight,
                    Tensor out) {
  const T* go = grad.const_data_ptr<T>();
  T* gi = out.mutable_data_ptr<T>();
  if (go == nullptr || grad.numel() == 0) {
    for (int64_t i = 0; i < out.numel(); ++i) {
      gi[i] = T(0);
    }
    return true;
  }
  return run_convolution<T>(ctx, s, go, weight.const_data_ptr<T>(), nullptr, gi);
}

// Temp memory for two column tiles of `rows` x *tile pixels: about 512 KiB
// each, fewer pixels per tile when temp memory is short, down to one.
// Null when even one pixel's do not fit.
template <typename T>
T* allocate_column_tiles(KernelContext& ctx, const ConvGeometry& plain, int64_t rows,
                         int64_t* tile_out) {
  int64_t tile = detail::conv_tile_pixels(rows, plain.out_h * plain.out_w, sizeof(T));
  tile = tile < 1 ? 1 : tile;
  T* scratch = nullptr;
  while (tile > 0 && scratch == nullptr) {
    scratch = static_cast<T*>(ctx.allocate_temp(size_t(2 * rows * tile) * sizeof(T)));
    tile = scratch == nullptr ? tile / 2 : tile;
  }
  *tile_out = tile;
  return scratch;
}

// out1, on the plain one of the forward and adjoint geometries. False when
// temp memory is short.
template <typename T>
bool weight_gradient_out(KernelContext& ctx, const ConvGeometry& g, const ConvGeometry& plain,
                         const T* go, const T* in, Tensor out) {
  T* gw = out.mutable_data_ptr<T>();
  const int64_t rows = plain.in_channels / plain.groups * plain.kernel_h * plain.kernel_w;
  int64_t tile = 0;
  T* scratch = allocate_column_tiles<T>(ctx, plain, rows, &tile);
  if (scratch == nullptr) {
    return false;
  }
  weight_gradient<T>(plain, g.transposed ? go : in, g.transposed ? in : go, gw, scratch, tile);
  return true;
}

// Compute: the gradients the mask asks for (the bias gradient even when
// another ran out of temp memory). False when temp memory is short.
template <typename T>
bool compute_gradients(KernelContext& ctx, const BackwardArgs& b, const ConvGeometry& g) {
  const ConvGeometry s = swapped(g);
  const ConvGeometry& plain = g.transposed ? s : g;
  const T* go = b.grad.const_data_ptr<T>();
  const T* in = b.spec.input.const_data_ptr<T>();
  bool ok = true;
  if (b.mask[0] && b.outs[0].numel() > 0) {
    ok = input_gradient<T>(ctx, s, b.grad, b.spec.weight, b.outs[0]);
  }
  if (ok && b.mask[1] && b.outs[1].numel() > 0) {
    ok = weight_gradient_out<T>(ctx, g, plain, go, in, b.outs[1]);
  }
  if (b.mask[2] && b.outs[2].numel() > 0) {
    bias_gradient<T>(g, go, b.outs[2].mutable_data_ptr<T>());
  }
  return ok;
}

void convolution_backward_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 15 ? 15 : 17;
  KernelArgs a(ctx, args, "aten::convolution_backward.out", count);
  BackwardArgs b;
  ConvGeometry g;
  if (!read_arguments(a, &b) || !check_dtypes_and_layout(a, b) ||
      !convolution_geometry(a, b.spec, &g) || !check_grad_and_bias_shapes(a, b, g) ||
      !resize_outs(a, b, g)) {
    return;
  }
  bool ok = true;
  visit_float_or_double_dtype(b.spec.input.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    ok = compute_gradients<T>(ctx, b, g);
  });
  if (!ok) {
    a.fail(Error::MemoryAllocationFailed,
           "convolution_backward needs temp memory (temp allocator absent or full)");
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::convolution_backward.out", convolution_backward_out_boxed);

}  // namespace ember

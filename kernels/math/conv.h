// 2-D convolution on raw fp32 pointers, NCHW, over the packed GEMM.
//
// conv2d_nchw_f32: input [batch, in_c, in_h, in_w], weights OIHW
// [out_c, in_c / groups, kernel_h, kernel_w], output [batch, out_c,
// out_h, out_w], bias [out_c] or null. For each image and group the
// output is the GEMM weights[out_c/groups x K] x columns[K x pixels]
// with K = in_c/groups * kernel_h * kernel_w: the weights are read in
// place as A, and im2col writes a block of pixel columns straight into
// the GEMM's packed-panel layout (zeros for padding), so nothing is
// copied twice. The bias is the GEMM's row epilogue.
//
// conv2d_depthwise_nchw_f32: groups == in_c (each output channel reads
// one input channel): a direct per-plane kernel, one vector of output
// pixels per multiply-add, parallel over planes. Input rows are copied,
// as they are reached, into a small zero-bordered ring in the workspace
// (split into even and odd columns at stride 2), never a whole plane.
//
// Both give the same bits for every thread count; the caller has checked
// the geometry (out_h/out_w follow from the rest, all sizes positive).
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels/math/isa.h"

namespace ember::math {

struct Conv2dShape {
  size_t batch = 1, in_c = 0, in_h = 0, in_w = 0;
  size_t out_c = 0, out_h = 0, out_w = 0;
  size_t kernel_h = 1, kernel_w = 1, stride_h = 1, stride_w = 1;
  size_t pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
  size_t groups = 1;
};

// What both convolutions apply to each output of channel c after the
// bias: x = x * scale[c] + shift[c] (with scale; shift must be set too),
// then clamp to [lo, hi]. This is an inference batch norm and a ReLU or
// hardtanh following the convolution, fused.
struct ConvEpilogue {
  const float* scale = nullptr;
  const float* shift = nullptr;
  float lo = -INFINITY, hi = INFINITY;
};

// Pointwise convolutions of few pixels (1x1, stride 1, unpadded, one
// group, at most kPackedWeightsPixels pixels per image: the 7x7 and 14x14
// layers of a classifier's last stages) run as the transposed product
//   out^T [pixels x out_c] = in^T [pixels x in_c] x weight^T [in_c x out_c]
// over weights packed once as the GEMM's B (gemm.h's pack_gemm_bt): their
// weights, which outweigh the activations there, are then streamed front
// to back once per call, and the output channels fill whole panels where
// 49 or 196 pixels would not. Each task's result is transposed into NCHW
// from a block in the workspace.
constexpr size_t kPackedWeightsPixels = 256;
// Floats of that packing for `s`, 0 when `s` does not take it.
size_t conv2d_packed_weights_floats(const Conv2dShape& s, Isa isa = best_isa());
// Packs weight [out_c, in_c, 1, 1] for `isa` (conv2d_packed_weights_floats
// long).
void conv2d_pack_weights(const Conv2dShape& s, const float* weight, float* packed,
                         Isa isa = best_isa());

// Floats of workspace conv2d_nchw_f32 needs for `workers` workers, with
// or without packed weights.
size_t conv2d_nchw_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa = best_isa(),
                                    bool packed_weights = false);

// Spreads (image, group, pixel block, channel block) tasks over at most
// `workers` workers, each with its own part of `workspace`.
// `packed_weights`: conv2d_pack_weights' packing of `weight` for the same
// `isa`, or null; used when the shape takes it (weight is then not read).
void conv2d_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                     const float* bias, float* out, float* workspace, size_t workers,
                     Isa isa = best_isa(), const ConvEpilogue* epilogue = nullptr,
                     const float* packed_weights = nullptr);

// groups == in_c and out_c a multiple of in_c (channel multiplier
// out_c / in_c). Each worker keeps the few input rows it is reading in
// its part of `workspace` (a few rows' worth, not a plane), with a zero
// border, so the inner loop has no bounds checks. `out` must not overlap
// `in`.
size_t conv2d_depthwise_workspace_floats(const Conv2dShape& s, size_t workers,
                                         Isa isa = best_isa());
void conv2d_depthwise_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, float* workspace, size_t workers,
                               Isa isa = best_isa(), const ConvEpilogue* epilogue = nullptr);

// Channels-last depthwise convolution with channel multiplier 1 (the
// XNNPACK delegate's layout): input [batch, in_h, in_w, c], weight
// [kernel_h, kernel_w, c], bias [c] or null, output [batch, out_h, out_w,
// c]; in_c == out_c == groups. pad_h / pad_w are the top and left padding;
// the bottom and right padding are whatever out_h / out_w imply (they may
// differ from the top and left). Taps outside the input are skipped, so
// any kernel size runs without a padded copy or a workspace. Parallel over
// (image, output row); the same bits at every thread count. `out` must not
// overlap `in`.
void conv2d_depthwise_nhwc_f32(const Conv2dShape& s, const float* in, const float* weight,
                               const float* bias, float* out, Isa isa = best_isa(),
                               const ConvEpilogue* epilogue = nullptr);

}  // namespace ember::math

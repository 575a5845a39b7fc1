// Convolution engines for op_convolution.cpp (see that file's overview):
// im2col + blocked GEMM, transposed GEMM + col2im, and a direct per-plane
// kernel. 1-D convolution is 2-D with a height of one.
//
// Threading: the GEMMs split rows (output channels) or columns (pixels)
// across the shared pool (gemm_parallel), im2col splits its rows, col2im
// and the direct kernel split output planes. No element's arithmetic
// depends on the split, so results are identical for any thread count.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/portable/util/matmul.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/platform/threadpool.h"

namespace ember {

struct ConvGeometry {
  int64_t batch, in_channels, out_channels, groups;
  int64_t in_h, in_w, out_h, out_w, kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  bool transposed;
};

namespace detail {

// The ow range whose input column ow * stride + offset lies in [0, width).
inline void conv_valid_range(int64_t offset, int64_t stride, int64_t width,
                             int64_t out, int64_t* lo, int64_t* hi) {
  *lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = width - 1 - offset;  // ow * stride <= last
  *hi = last < 0 ? 0 : last / stride + 1;
  *hi = *hi < out ? *hi : out;
}

// Direct convolution of one output plane (n, oc).
template <typename T>
void conv_plane_direct(const ConvGeometry& g, const T* in, const T* weight,
                       const T* bias, T* out, int64_t n, int64_t oc) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t ocg = g.out_channels / g.groups;
  const int64_t in_plane = g.in_h * g.in_w;
  const int64_t out_plane = g.out_h * g.out_w;
  const int64_t taps = g.kernel_h * g.kernel_w;
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
        conv_valid_range(col_off, g.stride_w, g.in_w, g.out_w, &lo, &hi);
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

// col[r][p - p0] for r = (ic, kh, kw) of one group and output pixels
// [p0, p1): the input value under that tap, or 0 in the padding.
template <typename T>
void im2col_tile(const ConvGeometry& g, const T* in_group, int64_t p0,
                 int64_t p1, T* col) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t taps = g.kernel_h * g.kernel_w;
  const int64_t width = p1 - p0;
  for (int64_t row = 0; row < icg * taps; ++row) {
    const int64_t ic = row / taps, tap = row % taps;
    const int64_t kh = tap / g.kernel_w, kw = tap % g.kernel_w;
    const T* ip = in_group + ic * g.in_h * g.in_w;
    T* dst = col + row * width;
    int64_t oh = p0 / g.out_w, ow = p0 % g.out_w;
    int64_t p = p0;
    while (p < p1) {
      const int64_t run = (g.out_w - ow) < (p1 - p) ? (g.out_w - ow) : (p1 - p);
      const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
      T* d = dst + (p - p0);
      if (ih < 0 || ih >= g.in_h) {
        for (int64_t i = 0; i < run; ++i) {
          d[i] = T(0);
        }
      } else {
        const T* irow = ip + ih * g.in_w;
        const int64_t off = kw * g.dilation_w - g.pad_w;
        for (int64_t i = 0; i < run; ++i) {
          const int64_t iw = (ow + i) * g.stride_w + off;
          d[i] = (iw >= 0 && iw < g.in_w) ? irow[iw] : T(0);
        }
      }
      p += run;
      ow = 0;
      ++oh;
    }
  }
}

// Pixels per column tile: about 512 KiB of col, at least 64 pixels.
inline int64_t conv_tile_pixels(int64_t rows, int64_t pixels, size_t es) {
  int64_t tile = int64_t(512 * 1024 / (size_t(rows > 0 ? rows : 1) * es));
  tile = tile < 64 ? 64 : tile;
  return tile < pixels ? tile : pixels;
}

}  // namespace detail

// out = conv(in, weight) + bias by the direct kernel, parallel over
// output planes (depthwise, and the fallback without temp memory).
template <typename T>
void conv_direct(const ConvGeometry& g, const T* in, const T* weight,
                 const T* bias, T* out) {
  parallel_for(size_t(g.batch * g.out_channels), [&](size_t i) {
    detail::conv_plane_direct(g, in, weight, bias, out,
                              int64_t(i) / g.out_channels,
                              int64_t(i) % g.out_channels);
  });
}

// Scratch elements conv_gemm() needs per worker (0: none): one column
// tile. conv_gemm() takes `workers` such tiles, one per thread.
template <typename T>
int64_t conv_gemm_scratch(const ConvGeometry& g) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t rows = icg * g.kernel_h * g.kernel_w;
  const bool pointwise = g.kernel_h == 1 && g.kernel_w == 1 &&
                         g.stride_h == 1 && g.stride_w == 1 && g.pad_h == 0 &&
                         g.pad_w == 0;
  if (pointwise) {
    return 0;
  }
  return rows * detail::conv_tile_pixels(rows, g.out_h * g.out_w, sizeof(T));
}

// out = conv(in, weight) + bias by im2col + GEMM; col holds `workers`
// tiles of conv_gemm_scratch() elements (null for a pointwise
// convolution). Column tiles of output pixels are spread over the pool,
// each worker building its tile in its own buffer and multiplying it with
// the single-threaded GEMM; a single tile uses the row-split GEMM instead.
template <typename T>
void conv_gemm(const ConvGeometry& g, const T* in, const T* weight,
               const T* bias, T* out, T* col, int64_t workers) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t ocg = g.out_channels / g.groups;
  const int64_t rows = icg * g.kernel_h * g.kernel_w;
  const int64_t pixels = g.out_h * g.out_w;
  const int64_t tile = col == nullptr ? pixels
                                      : detail::conv_tile_pixels(rows, pixels, sizeof(T));
  const int64_t tiles = (pixels + tile - 1) / tile;
  const int64_t tasks = workers < tiles ? workers : tiles;
  for (int64_t n = 0; n < g.batch; ++n) {
    T* on = out + n * g.out_channels * pixels;
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      const T init = bias != nullptr ? bias[oc] : T(0);
      T* op = on + oc * pixels;
      for (int64_t i = 0; i < pixels; ++i) {
        op[i] = init;
      }
    }
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* in_group = in + (n * g.in_channels + grp * icg) * g.in_h * g.in_w;
      const T* w_group = weight + grp * ocg * rows;
      T* out_group = on + grp * ocg * pixels;
      if (col == nullptr) {  // pointwise: the input is already the column matrix
        gemm_parallel<T>(ocg, pixels, rows, T(1), w_group, rows, in_group, pixels,
                         T(1), out_group, pixels);
        continue;
      }
      if (tasks <= 1) {
        for (int64_t p0 = 0; p0 < pixels; p0 += tile) {
          const int64_t p1 = p0 + tile < pixels ? p0 + tile : pixels;
          detail::im2col_tile(g, in_group, p0, p1, col);
          gemm_parallel<T>(ocg, p1 - p0, rows, T(1), w_group, rows, col, p1 - p0,
                           T(1), out_group + p0, pixels);
        }
        continue;
      }
      parallel_for(size_t(tasks), [&](size_t t) {
        T* own = col + int64_t(t) * rows * tile;
        for (int64_t i = int64_t(t) * tiles / tasks; i < (int64_t(t) + 1) * tiles / tasks;
             ++i) {
          const int64_t p0 = i * tile;
          const int64_t p1 = p0 + tile < pixels ? p0 + tile : pixels;
          detail::im2col_tile(g, in_group, p0, p1, own);
          gemm<T>(ocg, p1 - p0, rows, T(1), w_group, rows, own, p1 - p0, T(1),
                  out_group + p0, pixels);
        }
      });
    }
  }
}

// Transposed convolution. weight is [in_channels, out_channels / groups,
// kh, kw]; wt (scratch, icg * ocg * taps) receives one group's weight
// transposed to [ocg * taps, icg]; col (scratch, ocg * taps * tile input
// pixels) the GEMM result before col2im.
template <typename T>
int64_t conv_transposed_tile(const ConvGeometry& g) {
  const int64_t ocg = g.out_channels / g.groups;
  return detail::conv_tile_pixels(ocg * g.kernel_h * g.kernel_w, g.in_h * g.in_w,
                                  sizeof(T));
}

template <typename T>
void conv_transposed_gemm(const ConvGeometry& g, const T* in, const T* weight,
                          const T* bias, T* out, T* wt, T* col) {
  const int64_t icg = g.in_channels / g.groups;
  const int64_t ocg = g.out_channels / g.groups;
  const int64_t taps = g.kernel_h * g.kernel_w;
  const int64_t rows = ocg * taps;
  const int64_t in_pixels = g.in_h * g.in_w;
  const int64_t out_pixels = g.out_h * g.out_w;
  const int64_t tile = conv_transposed_tile<T>(g);
  for (int64_t n = 0; n < g.batch; ++n) {
    T* on = out + n * g.out_channels * out_pixels;
    for (int64_t oc = 0; oc < g.out_channels; ++oc) {
      const T init = bias != nullptr ? bias[oc] : T(0);
      for (int64_t i = 0; i < out_pixels; ++i) {
        on[oc * out_pixels + i] = init;
      }
    }
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const T* w_group = weight + grp * icg * rows;  // [icg, rows]
      for (int64_t ic = 0; ic < icg; ++ic) {
        for (int64_t r = 0; r < rows; ++r) {
          wt[r * icg + ic] = w_group[ic * rows + r];
        }
      }
      const T* in_group = in + (n * g.in_channels + grp * icg) * in_pixels;
      T* out_group = on + grp * ocg * out_pixels;
      for (int64_t p0 = 0; p0 < in_pixels; p0 += tile) {
        const int64_t p1 = p0 + tile < in_pixels ? p0 + tile : in_pixels;
        const int64_t width = p1 - p0;
        gemm_parallel<T>(rows, width, icg, T(1), wt, icg, in_group + p0, in_pixels,
                         T(0), col, width);
        // col2im: each output channel's taps land only in its own plane.
        parallel_for(size_t(ocg), [&](size_t oc) {
          T* op = out_group + int64_t(oc) * out_pixels;
          for (int64_t tap = 0; tap < taps; ++tap) {
            const int64_t kh = tap / g.kernel_w, kw = tap % g.kernel_w;
            const T* src = col + (int64_t(oc) * taps + tap) * width;
            int64_t ih = p0 / g.in_w, iw = p0 % g.in_w;
            for (int64_t p = 0; p < width; ++p) {
              const int64_t oh = ih * g.stride_h - g.pad_h + kh * g.dilation_h;
              const int64_t ow = iw * g.stride_w - g.pad_w + kw * g.dilation_w;
              if (oh >= 0 && oh < g.out_h && ow >= 0 && ow < g.out_w) {
                op[oh * g.out_w + ow] += src[p];
              }
              if (++iw == g.in_w) {
                iw = 0;
                ++ih;
              }
            }
          }
        });
      }
    }
  }
}

}  // namespace ember

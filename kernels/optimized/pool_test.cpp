// pool.h against the one-pass reference (PyTorch's rule) on every ISA
// path, over strides, padding, dilation, odd sizes, NaN, -inf and ties.
#include "kernels/optimized/pool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/optimized/test_util.h"

namespace ember::opt {
namespace {

MaxPool2dShape make(size_t planes, size_t h, size_t w, size_t k, size_t stride, size_t pad,
                    size_t dilation) {
  MaxPool2dShape s;
  s.planes = planes, s.in_h = h, s.in_w = w, s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad;
  s.dilation_h = s.dilation_w = dilation;
  s.out_h = (h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  s.out_w = (w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  return s;
}

void reference(const MaxPool2dShape& s, const std::vector<float>& in, std::vector<float>* out,
               std::vector<int64_t>* idx) {
  out->assign(s.planes * s.out_h * s.out_w, 0);
  idx->assign(out->size(), 0);
  for (size_t p = 0; p < s.planes; ++p) {
    for (size_t oy = 0; oy < s.out_h; ++oy) {
      for (size_t ox = 0; ox < s.out_w; ++ox) {
        float best = -INFINITY;
        int64_t bi = -1;
        for (size_t ky = 0; ky < s.kernel_h; ++ky) {
          for (size_t kx = 0; kx < s.kernel_w; ++kx) {
            const long y = long(oy * s.stride_h + ky * s.dilation_h) - long(s.pad_h);
            const long x = long(ox * s.stride_w + kx * s.dilation_w) - long(s.pad_w);
            if (y < 0 || x < 0 || y >= long(s.in_h) || x >= long(s.in_w)) continue;
            const float v = in[p * s.in_h * s.in_w + size_t(y) * s.in_w + size_t(x)];
            if (bi < 0 || v > best || std::isnan(v)) best = v, bi = y * long(s.in_w) + x;
          }
        }
        const size_t o = (p * s.out_h + oy) * s.out_w + ox;
        (*out)[o] = best;
        (*idx)[o] = bi;
      }
    }
  }
}

TEST(MaxPool, MatchesOnePassRuleOnEveryIsa) {
  const MaxPool2dShape shapes[] = {make(3, 112, 112, 3, 2, 1, 1), make(2, 37, 41, 3, 2, 1, 1),
                                   make(2, 20, 50, 3, 1, 1, 1),   make(1, 30, 33, 2, 2, 0, 1),
                                   make(2, 19, 70, 3, 1, 0, 2),   make(1, 9, 9, 5, 3, 2, 1),
                                   make(1, 4, 5, 3, 1, 1, 1)};
  for (Isa isa : testing::supported_isas()) {
    for (const MaxPool2dShape& s : shapes) {
      // Few distinct values, so windows hold ties; some NaN and -inf.
      auto in = testing::random_floats(s.planes * s.in_h * s.in_w, 3, 0.0f, 8.0f);
      for (size_t i = 0; i < in.size(); ++i) {
        in[i] = std::floor(in[i]);
        if (i % 97 == 5) in[i] = NAN;
        if (i % 89 == 7) in[i] = -INFINITY;
      }
      std::vector<float> want;
      std::vector<int64_t> want_idx;
      reference(s, in, &want, &want_idx);
      for (size_t threads : testing::thread_counts()) {
        testing::Threads pool(threads);
        std::vector<float> out(want.size(), -1.0f);
        std::vector<int64_t> idx(want.size(), -7);
        max_pool2d_f32(s, in.data(), out.data(), idx.data(), isa);
        for (size_t i = 0; i < out.size(); ++i) {
          ASSERT_EQ(idx[i], want_idx[i]) << isa_name(isa) << " output " << i << " of "
                                         << s.in_h << "x" << s.in_w << " k" << s.kernel_h;
          if (std::isnan(want[i])) {
            ASSERT_TRUE(std::isnan(out[i]));
          } else {
            ASSERT_EQ(out[i], want[i]);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::opt

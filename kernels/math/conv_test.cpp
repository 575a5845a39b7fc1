// conv.h against a double-precision direct convolution, on every ISA
// path and at 1, 2 and 3 threads (identical bits across thread counts).
#include "kernels/math/conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define EMBER_TEST_GUARD_PAGE 1
#endif

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

using testing::random_floats;
using testing::supported_isas;
using testing::thread_counts;
using testing::Threads;

Conv2dShape make(size_t batch, size_t in_c, size_t out_c, size_t groups, size_t h, size_t w,
                 size_t kh, size_t kw, size_t stride, size_t pad, size_t dilation) {
  Conv2dShape s;
  s.batch = batch, s.in_c = in_c, s.out_c = out_c, s.groups = groups;
  s.in_h = h, s.in_w = w, s.kernel_h = kh, s.kernel_w = kw;
  s.stride_h = s.stride_w = stride, s.pad_h = s.pad_w = pad;
  s.dilation_h = s.dilation_w = dilation;
  s.out_h = (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1;
  s.out_w = (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1;
  return s;
}

// Direct convolution in double; `mag` gets each output's sum of |terms|.
void reference(const Conv2dShape& s, const std::vector<float>& in, const std::vector<float>& wt,
               const float* bias, std::vector<double>* out, std::vector<double>* mag) {
  const size_t icg = s.in_c / s.groups, ocg = s.out_c / s.groups;
  out->assign(s.batch * s.out_c * s.out_h * s.out_w, 0.0);
  mag->assign(out->size(), 0.0);
  for (size_t n = 0; n < s.batch; ++n) {
    for (size_t oc = 0; oc < s.out_c; ++oc) {
      const size_t g = oc / ocg;
      for (size_t oy = 0; oy < s.out_h; ++oy) {
        for (size_t ox = 0; ox < s.out_w; ++ox) {
          double sum = bias ? bias[oc] : 0.0, m = bias ? std::fabs(bias[oc]) : 0.0;
          for (size_t ic = 0; ic < icg; ++ic) {
            for (size_t ky = 0; ky < s.kernel_h; ++ky) {
              for (size_t kx = 0; kx < s.kernel_w; ++kx) {
                const long iy = long(oy * s.stride_h + ky * s.dilation_h) - long(s.pad_h);
                const long ix = long(ox * s.stride_w + kx * s.dilation_w) - long(s.pad_w);
                if (iy < 0 || ix < 0 || iy >= long(s.in_h) || ix >= long(s.in_w)) continue;
                const double x =
                    in[((n * s.in_c + g * icg + ic) * s.in_h + iy) * s.in_w + ix];
                const double w = wt[((oc * icg + ic) * s.kernel_h + ky) * s.kernel_w + kx];
                sum += x * w;
                m += std::fabs(x * w);
              }
            }
          }
          const size_t o = ((n * s.out_c + oc) * s.out_h + oy) * s.out_w + ox;
          (*out)[o] = sum;
          (*mag)[o] = m;
        }
      }
    }
  }
}

void check(const std::vector<float>& got, const std::vector<double>& want,
           const std::vector<double>& mag, size_t terms) {
  const double tol = 2e-7 * double(terms + 4);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_LE(std::fabs(got[i] - want[i]), tol * mag[i] + 1e-30)
        << "element " << i << ": " << got[i] << " vs " << want[i];
  }
}

TEST(ConvNchw, MatchesDirectReference) {
  const Conv2dShape shapes[] = {
      make(1, 3, 8, 1, 9, 11, 3, 3, 1, 1, 1),    // small 3x3, padded
      make(2, 4, 20, 1, 10, 7, 1, 1, 1, 0, 1),   // pointwise, batch 2
      make(1, 3, 16, 1, 23, 23, 7, 7, 2, 3, 1),  // ResNet stem-like
      make(1, 6, 12, 3, 8, 9, 3, 3, 2, 1, 1),    // grouped, strided
      make(1, 5, 7, 1, 12, 12, 3, 3, 1, 2, 2),   // dilated
      make(1, 40, 70, 1, 6, 6, 3, 3, 1, 1, 1),   // deep: K = 360 spans two chunks
      make(1, 8, 9, 1, 1, 1, 1, 1, 1, 0, 1),     // one pixel
      make(1, 2, 3, 1, 5, 30, 1, 5, 1, 0, 1),    // 1x5 (a 1-D convolution)
      make(1, 16, 96, 1, 20, 20, 1, 1, 2, 0, 1), // strided pointwise
      // Pointwise packed (not read in place): panel copies of input rows.
      make(1, 300, 24, 1, 9, 11, 1, 1, 1, 0, 1),  // K = 300 > 256: two chunks
      make(2, 8, 300, 1, 10, 9, 1, 1, 1, 0, 1),   // 300 channels of 90 pixels
      make(1, 4, 270, 2, 7, 7, 1, 1, 1, 0, 1),    // grouped, 49 pixels in one part panel
      // Rows mode (stride 1, dilation 1, output rows filling panels):
      make(2, 6, 20, 1, 10, 16, 3, 3, 1, 1, 1),  // 16 wide
      make(1, 4, 12, 2, 9, 24, 3, 3, 1, 1, 1),   // grouped, a half panel per row
      make(1, 40, 70, 1, 8, 8, 3, 3, 1, 1, 1),   // K = 360: two chunks
      make(1, 3, 5, 1, 12, 32, 5, 5, 1, 2, 1),   // 5x5
      make(1, 8, 80, 1, 23, 56, 3, 3, 1, 1, 1),  // ResNet-like, more than one panel group
      // Rows mode at stride 2 (copied rows split into even and odd
      // columns), each shape filling some ISA's panels:
      make(1, 3, 16, 1, 63, 63, 3, 3, 2, 1, 1),  // 32 wide: MobileNetV2's stem
      make(1, 3, 20, 1, 57, 57, 7, 7, 2, 3, 1),  // 29 wide, odd input: ResNet's stem
      make(2, 5, 12, 1, 32, 31, 3, 3, 2, 1, 1),  // 16 wide, batch 2
      make(1, 4, 9, 1, 16, 16, 3, 3, 2, 0, 1),   // 7 wide, unpadded
      make(1, 6, 8, 2, 30, 29, 5, 5, 2, 2, 1),   // grouped 5x5, 15 wide
      make(1, 3, 8, 1, 20, 40, 2, 4, 2, 1, 1),   // even 2x4 window, 20 wide
      // Rows mode where every panel is narrow (at most half a panel):
      // the taller tile, with row counts that leave partial tiles.
      make(1, 20, 40, 1, 14, 14, 3, 3, 1, 1, 1),  // AVX-512 (a 14x14 ResNet layer)
      make(1, 9, 27, 1, 8, 8, 3, 3, 1, 1, 1),     // AVX2: 8 of 16
      make(1, 5, 13, 1, 4, 4, 3, 3, 1, 1, 1),     // baseline: 4 of 8
  };
  for (Isa isa : supported_isas()) {
    for (const Conv2dShape& s : shapes) {
      const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, 1);
      const auto wt = random_floats(s.out_c * s.in_c / s.groups * s.kernel_h * s.kernel_w, 2);
      const auto bias = random_floats(s.out_c, 3);
      for (bool with_bias : {false, true}) {
        std::vector<double> want, mag;
        reference(s, in, wt, with_bias ? bias.data() : nullptr, &want, &mag);
        std::vector<float> first;
        for (size_t threads : thread_counts()) {
          Threads pool(threads);
          std::vector<float> ws(conv2d_nchw_workspace_floats(s, threads, isa));
          std::vector<float> out(want.size(), NAN);
          conv2d_nchw_f32(s, in.data(), wt.data(), with_bias ? bias.data() : nullptr,
                          out.data(), ws.data(), threads, isa);
          SCOPED_TRACE(::testing::Message()
                       << isa_name(isa) << " in_c " << s.in_c << " out_c " << s.out_c << " k "
                       << s.kernel_h << " threads " << threads << " bias " << with_bias);
          check(out, want, mag, s.in_c / s.groups * s.kernel_h * s.kernel_w);
          if (first.empty()) first = out;
          ASSERT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(float)));
        }
      }
    }
  }
}

TEST(ConvDepthwise, MatchesDirectReference) {
  const Conv2dShape shapes[] = {
      make(1, 8, 8, 8, 40, 40, 3, 3, 1, 1, 1),    // MobileNet stride 1
      make(2, 5, 5, 5, 41, 37, 3, 3, 2, 1, 1),    // stride 2, odd sizes
      make(1, 4, 4, 4, 30, 35, 5, 5, 1, 2, 1),    // 5x5
      make(1, 3, 6, 3, 19, 50, 3, 3, 1, 1, 1),    // channel multiplier 2
      make(1, 3, 3, 3, 20, 44, 3, 3, 1, 2, 2),    // dilated
      make(1, 2, 2, 2, 4, 4, 3, 3, 1, 1, 1),      // narrower than a vector
      make(1, 2, 2, 2, 9, 70, 3, 3, 3, 0, 1),     // stride 3: scalar columns
      make(1, 2, 2, 2, 33, 67, 3, 3, 2, 0, 1),    // stride 2 reaching the row end
  };
  for (Isa isa : supported_isas()) {
    for (const Conv2dShape& s : shapes) {
      const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, 4);
      const auto wt = random_floats(s.out_c * s.kernel_h * s.kernel_w, 5);
      const auto bias = random_floats(s.out_c, 6);
      std::vector<double> want, mag;
      reference(s, in, wt, bias.data(), &want, &mag);
      std::vector<float> first;
      for (size_t threads : thread_counts()) {
        Threads pool(threads);
        std::vector<float> out(want.size(), NAN);
        std::vector<float> ws(conv2d_depthwise_workspace_floats(s, threads, isa));
        conv2d_depthwise_nchw_f32(s, in.data(), wt.data(), bias.data(), out.data(), ws.data(),
                                  threads, isa);
        SCOPED_TRACE(::testing::Message() << isa_name(isa) << " " << s.in_h << "x" << s.in_w
                                          << " k " << s.kernel_h << " stride " << s.stride_w
                                          << " threads " << threads);
        check(out, want, mag, s.kernel_h * s.kernel_w);
        if (first.empty()) first = out;
        ASSERT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(float)));
      }
    }
  }
}

// A depthwise shape with each axis's stride, padding and dilation.
Conv2dShape make_dw(size_t batch, size_t c, size_t mult, size_t h, size_t w, size_t kh,
                    size_t kw, size_t sh, size_t sw, size_t ph, size_t pw, size_t dh,
                    size_t dw) {
  Conv2dShape s;
  s.batch = batch, s.in_c = c, s.out_c = c * mult, s.groups = c;
  s.in_h = h, s.in_w = w, s.kernel_h = kh, s.kernel_w = kw;
  s.stride_h = sh, s.stride_w = sw, s.pad_h = ph, s.pad_w = pw;
  s.dilation_h = dh, s.dilation_w = dw;
  s.out_h = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
  s.out_w = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  return s;
}

// A copy of some floats that ends flush against an unreadable page (where
// mmap exists), so a kernel reading past the end faults.
class GuardedFloats {
 public:
  explicit GuardedFloats(const std::vector<float>& v) {
#ifdef EMBER_TEST_GUARD_PAGE
    const size_t page = size_t(sysconf(_SC_PAGESIZE)), bytes = v.size() * sizeof(float);
    size_ = (bytes + page - 1) / page * page + page;
    void* base = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      size_ = 0;
    } else {
      base_ = static_cast<char*>(base);
      (void)mprotect(base_ + size_ - page, page, PROT_NONE);
      data_ = reinterpret_cast<float*>(base_ + size_ - page - bytes);
      std::memcpy(data_, v.data(), bytes);
      return;
    }
#endif
    copy_ = v;
    data_ = copy_.data();
  }
  ~GuardedFloats() {
#ifdef EMBER_TEST_GUARD_PAGE
    if (base_ != nullptr) munmap(base_, size_);
#endif
  }
  GuardedFloats(const GuardedFloats&) = delete;
  GuardedFloats& operator=(const GuardedFloats&) = delete;
  const float* data() const { return data_; }

 private:
  char* base_ = nullptr;
  size_t size_ = 0;
  float* data_ = nullptr;
  std::vector<float> copy_;
};

// The depthwise kernel's paths: 3x3 windows at vertical stride 1 and 2
// (four output rows at a time, and the 1-3 rows a plane ends with), any
// horizontal stride (phase lines split by vectors, narrower vectors and
// single columns); other windows, dilations and strides a row at a time;
// rows narrower than a vector (stores spilling into the next rows) and
// wider ones not a multiple of 4, 8 or 16 (a last vector overlapping the
// one before). Checked against the double reference with and without
// the epilogue, at 1-3 threads (same bits), with a dirty workspace, the
// input ending at an unreadable page and guard values after the output.
TEST(ConvDepthwise, RowRingPaths) {
  const Conv2dShape shapes[] = {
      // MobileNetV2's planes (one channel each), stride 1 then stride 2.
      make_dw(1, 1, 1, 112, 112, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 56, 56, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 28, 28, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 3, 1, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 5, 1, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 1, 1, 112, 112, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 56, 56, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 28, 28, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 3, 1, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1),
      // 3x3, stride 1: widths around 4, 8, 16 and 32, heights leaving
      // 0-3 rows after the blocks of four, pads 0-2.
      make_dw(1, 2, 1, 9, 1, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 6, 3, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 7, 5, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 10, 9, 3, 3, 1, 1, 0, 0, 1, 1),
      make_dw(1, 2, 1, 11, 15, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 5, 16, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 1, 13, 17, 3, 3, 1, 1, 2, 2, 1, 1),
      make_dw(1, 2, 1, 8, 31, 3, 3, 1, 1, 0, 0, 1, 1),
      make_dw(2, 3, 1, 12, 33, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 1, 1, 3, 3, 3, 3, 1, 1, 0, 0, 1, 1),
      // 3x3, stride 2: odd and even widths below 8, 16 and 32 and above.
      make_dw(1, 2, 1, 9, 2, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 10, 7, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 11, 13, 3, 3, 2, 2, 0, 0, 1, 1),
      make_dw(1, 2, 1, 14, 23, 3, 3, 2, 2, 2, 2, 1, 1),
      make_dw(1, 2, 1, 17, 33, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 15, 65, 3, 3, 2, 2, 1, 1, 1, 1),
      make_dw(1, 2, 1, 12, 70, 3, 3, 2, 2, 0, 0, 1, 1),
      // Channel multipliers and batches.
      make_dw(2, 3, 2, 13, 21, 3, 3, 1, 1, 1, 1, 1, 1),
      make_dw(1, 2, 3, 15, 19, 3, 3, 2, 2, 1, 1, 1, 1),
      // Unequal strides and pads across the axes; stride 3 across.
      make_dw(1, 2, 1, 14, 29, 3, 3, 1, 2, 1, 0, 1, 1),
      make_dw(1, 2, 1, 17, 26, 3, 3, 2, 1, 0, 2, 1, 1),
      make_dw(1, 2, 1, 13, 40, 3, 3, 2, 3, 1, 1, 1, 1),
      make_dw(1, 2, 1, 12, 25, 3, 3, 1, 3, 2, 1, 1, 1),
      // Row at a time: stride 3 down, dilation, other windows.
      make_dw(1, 2, 1, 16, 22, 3, 3, 3, 3, 1, 1, 1, 1),
      make_dw(1, 2, 1, 19, 27, 3, 3, 1, 1, 2, 2, 2, 2),
      make_dw(1, 2, 1, 18, 31, 3, 3, 2, 2, 2, 1, 2, 1),
      make_dw(1, 2, 2, 21, 37, 5, 5, 1, 1, 2, 2, 1, 1),
      make_dw(1, 2, 1, 20, 35, 5, 5, 2, 2, 2, 2, 1, 1),
      make_dw(1, 3, 1, 9, 11, 1, 1, 1, 1, 0, 0, 1, 1),
      make_dw(1, 2, 1, 9, 19, 1, 1, 2, 2, 0, 0, 1, 1),
      make_dw(1, 2, 1, 6, 45, 1, 4, 1, 3, 0, 1, 1, 2),
      make_dw(1, 2, 1, 14, 12, 5, 3, 3, 1, 2, 1, 1, 1),
      make_dw(1, 2, 1, 5, 7, 7, 7, 1, 1, 3, 3, 1, 1),
  };
  // Thread counts outermost: one pool each (starting one costs more than
  // these convolutions); every case's result at the first count is kept.
  std::vector<std::vector<float>> first;
  for (size_t threads : thread_counts()) {
    Threads pool(threads);
    size_t index = 0;
    for (Isa isa : supported_isas()) {
      for (const Conv2dShape& s : shapes) {
        const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, 12);
        const auto wt = random_floats(s.out_c * s.kernel_h * s.kernel_w, 13);
        const auto bias = random_floats(s.out_c, 14);
        const auto scale = random_floats(s.out_c, 15, 0.5f, 2.0f);
        const auto shift = random_floats(s.out_c, 16);
        const GuardedFloats guarded(in);
        for (bool with_epilogue : {false, true}) {
          const bool with_bias = !with_epilogue || s.in_w % 2 == 0;
          std::vector<double> want, mag;
          reference(s, in, wt, with_bias ? bias.data() : nullptr, &want, &mag);
          ConvEpilogue ep;
          ep.scale = scale.data(), ep.shift = shift.data(), ep.lo = -0.4f, ep.hi = 0.6f;
          if (with_epilogue) {
            const size_t plane = s.out_h * s.out_w;
            for (size_t i = 0; i < want.size(); ++i) {
              const size_t c = i / plane % s.out_c;
              want[i] = std::min(std::max(want[i] * scale[c] + shift[c], -0.4), 0.6);
              mag[i] = mag[i] * scale[c] + std::fabs(shift[c]);
            }
          }
          std::vector<float> out(want.size() + 64, NAN);
          std::vector<float> ws(conv2d_depthwise_workspace_floats(s, threads, isa), NAN);
          conv2d_depthwise_nchw_f32(s, guarded.data(), wt.data(),
                                    with_bias ? bias.data() : nullptr, out.data(), ws.data(),
                                    threads, isa, with_epilogue ? &ep : nullptr);
          SCOPED_TRACE(::testing::Message()
                       << isa_name(isa) << " " << s.out_c << "x" << s.in_h << "x" << s.in_w
                       << " k " << s.kernel_h << "x" << s.kernel_w << " stride " << s.stride_h
                       << "," << s.stride_w << " pad " << s.pad_h << "," << s.pad_w
                       << " dilation " << s.dilation_h << "," << s.dilation_w << " threads "
                       << threads << " epilogue " << with_epilogue);
          for (size_t i = want.size(); i < out.size(); ++i) ASSERT_TRUE(std::isnan(out[i])) << i;
          out.resize(want.size());
          check(out, want, mag, s.kernel_h * s.kernel_w);
          if (first.size() == index) first.push_back(out);
          ASSERT_EQ(0, std::memcmp(first[index].data(), out.data(), out.size() * sizeof(float)));
          ++index;
        }
      }
    }
  }
}

// Pointwise convolutions of few pixels with packed weights (the
// transposed product): against the reference with bias and the batch-norm
// epilogue, on every ISA and thread count (identical bits), and the
// unpacked weights never read (they are NaN here).
TEST(ConvNchw, PackedWeightsPointwiseMatchesReference) {
  const Conv2dShape shapes[] = {
      make(1, 64, 96, 1, 7, 7, 1, 1, 1, 0, 1),     // 49 pixels: MobileNetV2's last stage
      make(2, 20, 45, 1, 14, 14, 1, 1, 1, 0, 1),   // 196 pixels, batch 2, a part panel
      make(1, 300, 70, 1, 3, 5, 1, 1, 1, 0, 1),    // K = 300: two chunks
      make(1, 8, 300, 1, 16, 16, 1, 1, 1, 0, 1),   // 256 pixels (the limit), many blocks
      make(1, 5, 9, 1, 1, 1, 1, 1, 1, 0, 1),       // one pixel
      make(1, 16, 33, 1, 2, 2, 1, 1, 1, 0, 1),     // small enough to run inline
      make(1, 160, 960, 1, 7, 7, 1, 1, 1, 0, 1),   // a MobileNetV2 expand layer
  };
  for (Isa isa : supported_isas()) {
    for (const Conv2dShape& s : shapes) {
      ASSERT_GT(conv2d_packed_weights_floats(s, isa), 0u);
      const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, 21);
      const auto wt = random_floats(s.out_c * s.in_c, 22);
      const auto bias = random_floats(s.out_c, 23);
      const auto scale = random_floats(s.out_c, 24, 0.5f, 2.0f);
      const auto shift = random_floats(s.out_c, 25);
      std::vector<float> packed(conv2d_packed_weights_floats(s, isa));
      conv2d_pack_weights(s, wt.data(), packed.data(), isa);
      const std::vector<float> unread(wt.size(), NAN);
      for (int variant = 0; variant < 3; ++variant) {
        ConvEpilogue ep;
        ep.scale = scale.data(), ep.shift = shift.data(), ep.lo = 0.0f, ep.hi = 0.8f;
        const float* b = variant == 0 ? nullptr : bias.data();
        const ConvEpilogue* epp = variant == 2 ? &ep : nullptr;
        std::vector<double> want, mag;
        reference(s, in, wt, b, &want, &mag);
        if (epp) {
          const size_t plane = s.out_h * s.out_w;
          for (size_t i = 0; i < want.size(); ++i) {
            const size_t c = i / plane % s.out_c;
            want[i] = std::min(std::max(want[i] * scale[c] + shift[c], 0.0), 0.8);
            mag[i] = mag[i] * scale[c] + std::fabs(shift[c]);
          }
        }
        std::vector<float> first;
        for (size_t threads : thread_counts()) {
          Threads pool(threads);
          std::vector<float> ws(conv2d_nchw_workspace_floats(s, threads, isa, true));
          std::vector<float> out(want.size(), NAN);
          conv2d_nchw_f32(s, in.data(), unread.data(), b, out.data(), ws.data(), threads, isa,
                          epp, packed.data());
          SCOPED_TRACE(::testing::Message() << isa_name(isa) << " in_c " << s.in_c << " out_c "
                                            << s.out_c << " pixels " << s.out_h * s.out_w
                                            << " variant " << variant << " threads "
                                            << threads);
          check(out, want, mag, s.in_c);
          if (first.empty()) first = out;
          ASSERT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(float)));
        }
      }
    }
  }
}

TEST(ConvNchw, PackedWeightsOnlyForFewPixelPointwise) {
  const Conv2dShape others[] = {
      make(1, 16, 32, 1, 17, 17, 1, 1, 1, 0, 1),  // 289 pixels
      make(1, 16, 32, 1, 7, 7, 1, 1, 1, 1, 1),    // padded
      make(1, 16, 32, 1, 14, 14, 1, 1, 2, 0, 1),  // strided
      make(1, 16, 32, 1, 7, 7, 3, 3, 1, 1, 1),    // 3x3
      make(1, 16, 32, 2, 7, 7, 1, 1, 1, 0, 1),    // grouped
  };
  for (const Conv2dShape& s : others) {
    EXPECT_EQ(conv2d_packed_weights_floats(s), 0u) << s.in_h << " pad " << s.pad_h;
  }
}

TEST(ConvEpilogue, ScaleShiftAndClampOnBothKernels) {
  const Conv2dShape shapes[] = {make(1, 6, 10, 1, 12, 12, 3, 3, 1, 1, 1),
                                make(1, 12, 12, 12, 17, 19, 3, 3, 2, 1, 1),
                                make(1, 6, 10, 1, 12, 16, 3, 3, 1, 1, 1),    // rows mode
                                make(2, 16, 24, 1, 9, 13, 1, 1, 1, 0, 1),    // in place
                                make(1, 16, 80, 1, 9, 13, 1, 1, 1, 0, 1)};  // packed
  for (Isa isa : supported_isas()) {
    for (const Conv2dShape& s : shapes) {
      const bool depthwise = s.groups == s.in_c;
      const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, 7);
      const auto wt = random_floats(s.out_c * s.in_c / s.groups * s.kernel_h * s.kernel_w, 8);
      const auto bias = random_floats(s.out_c, 9);
      const auto scale = random_floats(s.out_c, 10, 0.5f, 2.0f);
      const auto shift = random_floats(s.out_c, 11);
      ConvEpilogue ep;
      ep.scale = scale.data(), ep.shift = shift.data(), ep.lo = 0.0f, ep.hi = 0.8f;
      std::vector<double> want, mag;
      reference(s, in, wt, bias.data(), &want, &mag);
      const size_t plane = s.out_h * s.out_w;
      for (size_t i = 0; i < want.size(); ++i) {
        const size_t c = i / plane % s.out_c;
        want[i] = std::min(std::max(want[i] * scale[c] + shift[c], 0.0), 0.8);
        mag[i] = mag[i] * scale[c] + std::fabs(shift[c]);
      }
      std::vector<float> ws(depthwise ? conv2d_depthwise_workspace_floats(s, 2, isa)
                                      : conv2d_nchw_workspace_floats(s, 2, isa));
      std::vector<float> out(want.size(), NAN);
      Threads pool(2);
      if (depthwise) {
        conv2d_depthwise_nchw_f32(s, in.data(), wt.data(), bias.data(), out.data(), ws.data(),
                                  2, isa, &ep);
      } else {
        conv2d_nchw_f32(s, in.data(), wt.data(), bias.data(), out.data(), ws.data(), 2, isa,
                        &ep);
      }
      SCOPED_TRACE(::testing::Message() << isa_name(isa) << " depthwise " << depthwise);
      check(out, want, mag, s.in_c / s.groups * s.kernel_h * s.kernel_w);
    }
  }
}

// Channels-last depthwise (conv2d_depthwise_nhwc_f32) against the same
// double reference, through NCHW <-> NHWC copies of the data.
std::vector<float> to_nhwc(const std::vector<float>& nchw, size_t n, size_t c, size_t h,
                           size_t w) {
  std::vector<float> out(nchw.size());
  for (size_t b = 0; b < n; ++b)
    for (size_t ch = 0; ch < c; ++ch)
      for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x)
          out[((b * h + y) * w + x) * c + ch] = nchw[((b * c + ch) * h + y) * w + x];
  return out;
}

void check_nhwc(const Conv2dShape& s, Isa isa, const ConvEpilogue* ep, uint32_t seed) {
  const auto in = random_floats(s.batch * s.in_c * s.in_h * s.in_w, seed);
  const auto wt = random_floats(s.out_c * s.kernel_h * s.kernel_w, seed + 1);  // [c, kh, kw]
  const auto bias = random_floats(s.out_c, seed + 2);
  std::vector<double> want, mag;
  reference(s, in, wt, bias.data(), &want, &mag);
  if (ep != nullptr) {
    const size_t plane = s.out_h * s.out_w;
    for (size_t i = 0; i < want.size(); ++i) {
      const size_t c = i / plane % s.out_c;
      const double scale = ep->scale ? ep->scale[c] : 1.0, shift = ep->scale ? ep->shift[c] : 0.0;
      want[i] = std::min(std::max(want[i] * scale + shift, double(ep->lo)), double(ep->hi));
      mag[i] = mag[i] * scale + std::fabs(shift);
    }
  }
  // Weight [c, kh, kw] is [kh * kw] planes of c in NHWC terms: [kh, kw, c].
  const auto in_nhwc = to_nhwc(in, s.batch, s.in_c, s.in_h, s.in_w);
  const auto wt_hwc = to_nhwc(wt, 1, s.out_c, s.kernel_h, s.kernel_w);
  std::vector<float> first;
  for (size_t threads : thread_counts()) {
    Threads pool(threads);
    std::vector<float> out(want.size(), NAN);
    conv2d_depthwise_nhwc_f32(s, in_nhwc.data(), wt_hwc.data(), bias.data(), out.data(), isa, ep);
    SCOPED_TRACE(::testing::Message() << isa_name(isa) << " c " << s.in_c << " " << s.in_h << "x"
                                      << s.in_w << " k " << s.kernel_h << "x" << s.kernel_w
                                      << " stride " << s.stride_h << " threads " << threads);
    // Back to NCHW to compare with the reference.
    std::vector<float> got(out.size());
    for (size_t b = 0; b < s.batch; ++b)
      for (size_t c = 0; c < s.out_c; ++c)
        for (size_t y = 0; y < s.out_h; ++y)
          for (size_t x = 0; x < s.out_w; ++x)
            got[((b * s.out_c + c) * s.out_h + y) * s.out_w + x] =
                out[((b * s.out_h + y) * s.out_w + x) * s.out_c + c];
    check(got, want, mag, s.kernel_h * s.kernel_w);
    if (first.empty()) first = out;
    ASSERT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(float)));
  }
}

TEST(ConvDepthwiseNhwc, MatchesDirectReference) {
  std::vector<Conv2dShape> shapes = {
      make(1, 96, 96, 96, 14, 14, 7, 7, 1, 3, 1),  // ConvNeXt's 7x7 (whole vectors)
      make(2, 37, 37, 37, 11, 9, 7, 7, 1, 3, 1),   // channels past the last vector, batch 2
      make(1, 37, 37, 37, 6, 20, 7, 7, 1, 3, 1),   // blocks of pixels with a channel tail
      make(1, 20, 20, 20, 13, 17, 3, 3, 2, 1, 1),  // stride 2
      make(1, 19, 19, 19, 12, 12, 5, 5, 1, 4, 2),  // dilated, padding past the kernel's reach
      make(1, 3, 3, 3, 4, 4, 7, 7, 1, 3, 1),       // smaller than the kernel, narrow channels
      make(1, 16, 16, 16, 9, 10, 2, 3, 1, 0, 1),   // rectangular kernel, no padding
  };
  // Asymmetric padding (TensorFlow SAME at stride 2: nothing on top/left,
  // one row/column at the bottom/right): out_h / out_w carry it.
  Conv2dShape same = make(1, 24, 24, 24, 10, 12, 3, 3, 2, 0, 1);
  same.out_h = 5, same.out_w = 6;
  shapes.push_back(same);
  for (Isa isa : supported_isas()) {
    for (const Conv2dShape& s : shapes) check_nhwc(s, isa, nullptr, 21);
  }
}

TEST(ConvDepthwiseNhwc, EpilogueScaleShiftAndClamp) {
  const Conv2dShape s = make(1, 21, 21, 21, 9, 9, 7, 7, 1, 3, 1);
  const auto scale = random_floats(s.out_c, 31, 0.5f, 2.0f);
  const auto shift = random_floats(s.out_c, 32);
  ConvEpilogue ep;
  ep.scale = scale.data(), ep.shift = shift.data(), ep.lo = -0.3f, ep.hi = 0.8f;
  ConvEpilogue clamp_only;
  clamp_only.lo = 0.0f, clamp_only.hi = 6.0f;
  for (Isa isa : supported_isas()) {
    check_nhwc(s, isa, &ep, 33);
    check_nhwc(s, isa, &clamp_only, 34);  // scale/shift null: what the XNNPACK step passes
  }
}

}  // namespace
}  // namespace ember::math

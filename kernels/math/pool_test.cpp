// pool.h against the one-pass reference (PyTorch's rule) on every ISA
// path, over strides, padding, dilation, odd sizes, NaN, -inf and ties:
// border rows and columns, partial vectors, planes too small for a vector,
// inputs that end at an unreadable page.
#include "kernels/math/pool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#if defined(__linux__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define EMBER_POOL_TEST_GUARD_PAGES 1
#endif

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

MaxPool2dShape make(size_t planes, size_t h, size_t w, size_t kh, size_t kw, size_t sh,
                    size_t sw, size_t ph, size_t pw, size_t dilation) {
  MaxPool2dShape s;
  s.planes = planes, s.in_h = h, s.in_w = w, s.kernel_h = kh, s.kernel_w = kw;
  s.stride_h = sh, s.stride_w = sw, s.pad_h = ph, s.pad_w = pw;
  s.dilation_h = s.dilation_w = dilation;
  s.out_h = (h + 2 * ph - dilation * (kh - 1) - 1) / sh + 1;
  s.out_w = (w + 2 * pw - dilation * (kw - 1) - 1) / sw + 1;
  return s;
}

MaxPool2dShape make(size_t planes, size_t h, size_t w, size_t k, size_t stride, size_t pad,
                    size_t dilation) {
  return make(planes, h, w, k, k, stride, stride, pad, pad, dilation);
}

std::string describe(const MaxPool2dShape& s, Isa isa) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%s %zux%zu k%zux%zu s%zux%zu p%zux%zu d%zu", isa_name(isa),
                s.in_h, s.in_w, s.kernel_h, s.kernel_w, s.stride_h, s.stride_w, s.pad_h,
                s.pad_w, s.dilation_h);
  return buf;
}

// False when some window holds no element of the plane (a geometry the
// caller rejects).
bool reference(const MaxPool2dShape& s, const float* in, std::vector<float>* out,
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
        if (bi < 0) return false;
        const size_t o = (p * s.out_h + oy) * s.out_w + ox;
        (*out)[o] = best;
        (*idx)[o] = bi;
      }
    }
  }
  return true;
}

// Few distinct values, so windows hold ties; NaN of both signs, -inf,
// and zeros of both signs.
std::vector<float> tricky_input(size_t n, uint32_t seed) {
  auto in = testing::random_floats(n, seed, 0.0f, 8.0f);
  for (size_t i = 0; i < n; ++i) {
    in[i] = std::floor(in[i]);
    if (in[i] == 0.0f && i % 2) in[i] = -0.0f;
    if (i % 97 == 5) in[i] = NAN;
    if (i % 101 == 50) in[i] = -NAN;
    if (i % 89 == 7) in[i] = -INFINITY;
  }
  return in;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

// Runs s on `in` and checks values (bit for bit: the chosen element
// itself, NaN payloads and signed zeros included) and indices.
void expect_matches(const MaxPool2dShape& s, const float* in, Isa isa, size_t threads) {
  std::vector<float> want;
  std::vector<int64_t> want_idx;
  ASSERT_TRUE(reference(s, in, &want, &want_idx)) << describe(s, isa);
  testing::Threads pool(threads);
  // One slot past the end, which must stay untouched.
  std::vector<float> out(want.size() + 1, -1.0f);
  std::vector<int64_t> idx(want.size() + 1, -7);
  max_pool2d_f32(s, in, out.data(), idx.data(), isa);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(idx[i], want_idx[i]) << describe(s, isa) << " output " << i;
    ASSERT_EQ(bits(out[i]), bits(want[i])) << describe(s, isa) << " output " << i;
  }
  EXPECT_EQ(out.back(), -1.0f) << describe(s, isa);
  EXPECT_EQ(idx.back(), -7) << describe(s, isa);
}

TEST(MaxPool, MatchesOnePassRuleOnEveryIsa) {
  const MaxPool2dShape shapes[] = {make(3, 112, 112, 3, 2, 1, 1), make(2, 37, 41, 3, 2, 1, 1),
                                   make(2, 20, 50, 3, 1, 1, 1),   make(1, 30, 33, 2, 2, 0, 1),
                                   make(2, 19, 70, 3, 1, 0, 2),   make(1, 9, 9, 5, 3, 2, 1),
                                   make(1, 4, 5, 3, 1, 1, 1),     make(3, 56, 56, 3, 2, 1, 1),
                                   make(2, 40, 75, 3, 2, 1, 2),   make(2, 23, 130, 5, 1, 2, 1),
                                   make(2, 17, 61, 3, 2, 3, 2, 1, 0, 1),
                                   make(2, 20, 45, 2, 3, 1, 2, 0, 1, 1)};
  for (Isa isa : testing::supported_isas()) {
    for (const MaxPool2dShape& s : shapes) {
      const auto in = tricky_input(s.planes * s.in_h * s.in_w, 3);
      for (size_t threads : testing::thread_counts()) expect_matches(s, in.data(), isa, threads);
    }
  }
}

// Widths around the vector widths (4, 8, 16 lanes; 2x that read at stride
// 2), every kernel size, stride and padding up to half the kernel, on
// short planes (so the top and bottom border rows, and loads near the
// plane's end, are most of the work) and on plain data without NaN.
TEST(MaxPool, SweepsWidthsAndBordersOnEveryIsa) {
  const size_t widths[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 19, 23, 31, 32, 33,
                           34, 35, 36, 40, 47, 48, 63, 64, 65, 66, 67, 70, 97, 100};
  for (Isa isa : testing::supported_isas()) {
    for (size_t w : widths) {
      for (size_t h : {1, 2, 3, 6}) {
        for (size_t k : {1, 2, 3, 4, 5}) {
          for (size_t stride : {1, 2, 3}) {
            for (size_t pad = 0; pad <= k / 2; ++pad) {
              for (size_t dilation : {1, 2}) {
                if (h + 2 * pad < dilation * (k - 1) + 1) continue;
                if (w + 2 * pad < dilation * (k - 1) + 1) continue;
                const MaxPool2dShape s = make(2, h, w, k, stride, pad, dilation);
                auto in = tricky_input(s.planes * h * w, uint32_t(w * 31 + h));
                // Skip geometries with a window wholly in the padding.
                std::vector<float> want;
                std::vector<int64_t> want_idx;
                if (!reference(s, in.data(), &want, &want_idx)) continue;
                expect_matches(s, in.data(), isa, 1);
                for (float& v : in) v = std::isnan(v) ? 1.0f : v;
                expect_matches(s, in.data(), isa, 1);
                if (::testing::Test::HasFatalFailure()) return;
              }
            }
          }
        }
      }
    }
  }
}

// All ties: every window picks its first element inside the plane, also
// where the rest of the window is padding; all -inf the same.
TEST(MaxPool, TiesPickTheFirstElementInsideThePlane) {
  for (Isa isa : testing::supported_isas()) {
    for (float fill : {2.0f, -INFINITY, -0.0f}) {
      for (const MaxPool2dShape& s : {make(2, 9, 45, 3, 2, 1, 1), make(1, 7, 40, 3, 1, 1, 1),
                                      make(1, 6, 33, 4, 2, 2, 1), make(1, 8, 70, 5, 1, 2, 1)}) {
        const std::vector<float> in(s.planes * s.in_h * s.in_w, fill);
        expect_matches(s, in.data(), isa, 1);
      }
    }
  }
}

#ifdef EMBER_POOL_TEST_GUARD_PAGES
// Each plane placed right after and right before an unreadable page: a
// load outside the input faults.
TEST(MaxPool, ReadsNothingOutsideTheInput) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  const MaxPool2dShape shapes[] = {make(1, 112, 112, 3, 2, 1, 1), make(1, 13, 37, 3, 2, 1, 1),
                                   make(1, 9, 50, 3, 1, 1, 1),    make(1, 5, 67, 2, 2, 0, 1),
                                   make(1, 5, 20, 3, 1, 0, 2),    make(1, 2, 33, 5, 1, 2, 1),
                                   make(2, 11, 30, 3, 2, 1, 1)};
  for (const MaxPool2dShape& s : shapes) {
    const size_t n = s.planes * s.in_h * s.in_w;
    const size_t data_pages = (n * sizeof(float) + page - 1) / page;
    const size_t total = (data_pages + 2) * page;
    void* map = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(map, MAP_FAILED);
    char* base = static_cast<char*>(map);
    ASSERT_EQ(mprotect(base, page, PROT_NONE), 0);
    ASSERT_EQ(mprotect(base + total - page, page, PROT_NONE), 0);
    const auto data = tricky_input(n, 11);
    float* after_guard = reinterpret_cast<float*>(base + page);
    float* before_guard = reinterpret_cast<float*>(base + total - page) - n;
    for (float* in : {after_guard, before_guard}) {
      std::memcpy(in, data.data(), n * sizeof(float));
      for (Isa isa : testing::supported_isas()) expect_matches(s, in, isa, 1);
    }
    munmap(map, total);
  }
}
#endif

}  // namespace
}  // namespace ember::math

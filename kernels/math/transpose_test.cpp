// transpose.h against an index-by-index reference, for every element size
// the dispatch distinguishes and ranks with size-1 and mergeable dims.
#include "kernels/math/transpose.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

std::vector<uint8_t> reference(size_t es, const std::vector<size_t>& dims,
                               const std::vector<size_t>& perm, const std::vector<uint8_t>& in) {
  const size_t rank = dims.size();
  std::vector<size_t> istride(rank, 1), odims(rank);
  for (size_t d = rank; d-- > 1;) istride[d - 1] = istride[d] * dims[d];
  for (size_t d = 0; d < rank; ++d) odims[d] = dims[perm[d]];
  std::vector<uint8_t> out(in.size());
  std::vector<size_t> idx(rank, 0);
  const size_t total = in.size() / es;
  for (size_t o = 0; o < total; ++o) {
    size_t src = 0;
    for (size_t d = 0; d < rank; ++d) src += idx[d] * istride[perm[d]];
    std::memcpy(&out[o * es], &in[src * es], es);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < odims[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

TEST(Transpose, MatchesReference) {
  const std::vector<std::vector<size_t>> shapes = {
      {5}, {3, 4}, {33, 17}, {2, 3, 4}, {1, 7, 1, 9}, {4, 5, 6, 7}, {2, 1, 3, 64, 3},
      {197, 6, 64}, {3, 100}};
  std::mt19937 gen(3);
  for (size_t es : {1, 2, 3, 4, 8}) {
    for (const auto& dims : shapes) {
      std::vector<size_t> perm(dims.size());
      std::iota(perm.begin(), perm.end(), 0);
      for (int trial = 0; trial < 6; ++trial) {
        if (trial > 0) std::shuffle(perm.begin(), perm.end(), gen);
        size_t total = 1;
        for (size_t d : dims) total *= d;
        std::vector<uint8_t> in(total * es);
        for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 131 + i / 7);
        const auto want = reference(es, dims, perm, in);
        for (size_t threads : testing::thread_counts()) {
          testing::Threads pool(threads);
          std::vector<uint8_t> out(in.size(), 0xee);
          transpose(es, dims.size(), dims.data(), perm.data(), in.data(), out.data());
          ASSERT_EQ(want, out) << "element size " << es << " rank " << dims.size()
                               << " trial " << trial << " threads " << threads;
        }
      }
    }
  }
}

TEST(Transpose, TwoDimensionalFloatTiles) {
  const size_t ni = 37, nj = 21, ss = 40, ds = 25;
  std::vector<float> src(nj * ss), dst(ni * ds, -1.0f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i);
  transpose_2d_f32(ni, nj, src.data(), ss, dst.data(), ds);
  for (size_t i = 0; i < ni; ++i) {
    for (size_t j = 0; j < nj; ++j) ASSERT_EQ(dst[i * ds + j], src[i + j * ss]);
  }
}

}  // namespace
}  // namespace ember::math

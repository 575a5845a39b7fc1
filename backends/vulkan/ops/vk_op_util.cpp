#include "backends/vulkan/ops/vk_op_util.h"

#include <cmath>
#include <limits>

namespace ember::vulkan {

Error broadcast_strides(const Builder& b, const TensorDesc& in, const TensorDesc& out,
                        uint32_t* strides) {
  if (in.rank > out.rank) return b.invalid("an operand of higher rank than the result");
  int64_t contiguous[kMaxRank];
  contiguous_strides(in, contiguous);
  const uint32_t lead = out.rank - in.rank;
  for (uint32_t d = 0; d < out.rank; ++d) {
    if (d < lead) {
      strides[d] = 0;
      continue;
    }
    const int64_t s = in.sizes[d - lead];
    if (s != out.sizes[d] && s != 1) return b.invalid("operand shapes that do not broadcast");
    strides[d] = s == 1 ? 0 : uint32_t(contiguous[d - lead]);
  }
  return Error::Ok;
}

Error normalize_dim(const Builder& b, int64_t dim, uint32_t rank, uint32_t* out) {
  const int64_t r = rank == 0 ? 1 : rank;
  if (dim < -r || dim >= r) return b.invalid("a dim outside the tensor's rank");
  *out = uint32_t(dim < 0 ? dim + r : dim);
  return Error::Ok;
}

bool checked_mul(int64_t a, int64_t b, int64_t* out) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r) || r < -kMaxExtent || r > kMaxExtent) return false;
  *out = r;
  return true;
}

bool checked_add(int64_t a, int64_t b, int64_t* out) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r) || r < -kMaxExtent || r > kMaxExtent) return false;
  *out = r;
  return true;
}

Error mul_or_fail(const Builder& b, int64_t x, int64_t y, const char* what, int64_t* out) {
  return checked_mul(x, y, out) ? Error::Ok : b.invalid(what);
}

Error add_or_fail(const Builder& b, int64_t x, int64_t y, const char* what, int64_t* out) {
  return checked_add(x, y, out) ? Error::Ok : b.invalid(what);
}

Error checked_product(const Builder& b, const int64_t* v, size_t n, const char* what,
                      int64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    if (v[i] == 0) {
      *out = 0;
      return Error::Ok;
    }
  }
  int64_t p = 1;
  for (size_t i = 0; i < n; ++i) {
    if (!checked_mul(p, v[i], &p)) return b.invalid(what);
  }
  *out = p;
  return Error::Ok;
}

Error check_tensor_extent(const Builder& b, const TensorDesc& t) {
  int64_t extent = 1;
  for (uint32_t d = 0; d < t.rank && d < kMaxRank; ++d) {
    const int64_t s = t.sizes[d];
    if (s < 0 || s > (int64_t(1) << 31)) return b.invalid("a tensor dim outside [0, 2^31]");
    if (s != 0 && !checked_mul(extent, s, &extent)) {
      return b.invalid("a tensor whose non-zero dims multiply past 2^40");
    }
  }
  if (t.rank > kMaxRank) return b.invalid("a tensor of too many dims");
  return Error::Ok;
}

Error check_range(const Builder& b, int64_t v, int64_t lo, int64_t hi, const char* what) {
  return v >= lo && v <= hi ? Error::Ok : b.invalid(what);
}

float to_float(double d) {
  constexpr double kMax = double(std::numeric_limits<float>::max());
  if (d > kMax) return std::numeric_limits<float>::infinity();
  if (d < -kMax) return -std::numeric_limits<float>::infinity();
  return float(d);  // NaN, or in range: rounds to a neighbour
}

Error to_int32(const Builder& b, double d, const char* what, int32_t* out) {
  // In (-2^31 - 1, 2^31): truncation lands in int32. NaN fails both tests.
  if (!(d > -2147483649.0 && d < 2147483648.0)) return b.invalid(what);
  *out = int32_t(d);
  return Error::Ok;
}

}  // namespace ember::vulkan

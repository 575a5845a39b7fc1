#include "backends/vulkan/ops/vk_op_util.h"

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

}  // namespace ember::vulkan

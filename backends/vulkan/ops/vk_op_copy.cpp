// Copies that keep the element order: et_vk.prepack (a constant into the
// tensor the graph computes with, once at init), view_copy / _unsafe_view
// / clone / alias_copy / unsqueeze_copy / squeeze_copy (a contiguous
// buffer is its own view). Casts (_to_copy) are unary operators.
#include "backends/vulkan/ops/vk_op_copy.h"

#include "backends/vulkan/ops/vk_ops.h"

namespace ember::vulkan {

CopyPush contiguous_copy(const TensorDesc& out) {
  CopyPush p{};
  p.total = uint32_t(out.numel);
  p.rank = 1;
  p.sizes[0] = uint32_t(out.numel);
  p.in_strides[0] = 1;
  p.out_strides[0] = 1;
  return p;
}

Error add_copy(Builder& b, int32_t in_id, int32_t out_id, const CopyPush& p, bool once) {
  return b.dispatch("copy", std::vector<int32_t>{in_id, out_id}, &p, sizeof(p), p.total, once);
}

namespace {

Error same_count_copy(Builder& b, bool once) {
  EMBER_RETURN_IF_ERROR(b.expect_args(2));
  const TensorDesc* in = nullptr;
  const TensorDesc* out = nullptr;
  EMBER_RETURN_IF_ERROR(b.tensor_arg(0, &in));
  EMBER_RETURN_IF_ERROR(b.tensor_arg(b.num_args() - 1, &out));
  if (in->numel != out->numel) return b.invalid("input and output sizes differ");
  if (device_float(in->dtype) != device_float(out->dtype)) {
    return b.unsupported("a copy between float and integer types");
  }
  return add_copy(b, b.arg_id(0), b.arg_id(b.num_args() - 1), contiguous_copy(*out), once);
}

Error build_prepack(Builder& b) { return same_count_copy(b, /*once=*/true); }

Error build_view(Builder& b) { return same_count_copy(b, /*once=*/false); }

const OpEntry kRows[] = {
    {"et_vk.prepack.default", build_prepack},
    {"aten.view_copy.default", build_view},
    {"aten._unsafe_view.default", build_view},
    {"aten.clone.default", build_view},
    {"aten.alias_copy.default", build_view},
    {"aten.unsqueeze_copy.default", build_view},
    {"aten.squeeze_copy.dims", build_view},
    {"aten.squeeze_copy.dim", build_view},
    {"aten.squeeze_copy.default", build_view},
};

}  // namespace

OpFamily copy_ops() { return {kRows, sizeof(kRows) / sizeof(kRows[0])}; }

}  // namespace ember::vulkan

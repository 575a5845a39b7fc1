#include "backends/vulkan/ops/vk_ops.h"

#include <cstring>

namespace ember::vulkan {
namespace {

using FamilyFn = OpFamily (*)();

const FamilyFn kFamilies[] = {binary_ops, copy_ops,   conv_ops,   pool_ops,   matmul_ops,
                              norm_ops,   reduce_ops, unary_ops,  layout_ops, gather_ops,
                              llm_ops,    symint_ops, quant_ops};

}  // namespace

const OpEntry* find_op(const char* name) {
  for (FamilyFn family : kFamilies) {
    const OpFamily f = family();
    for (size_t i = 0; i < f.count; ++i) {
      if (std::strcmp(f.rows[i].name, name) == 0) return &f.rows[i];
    }
  }
  return nullptr;
}

void for_each_op(void (*visit)(const OpEntry& row, void* context), void* context) {
  for (FamilyFn family : kFamilies) {
    const OpFamily f = family();
    for (size_t i = 0; i < f.count; ++i) visit(f.rows[i], context);
  }
}

}  // namespace ember::vulkan

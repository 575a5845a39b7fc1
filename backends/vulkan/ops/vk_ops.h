// The operators the Vulkan delegate runs: the name upstream writes into the
// VkGraph chain ("aten.add.Tensor") mapped to the builder that turns a call
// into dispatches (vk_builder.h). Each family file (vk_op_<family>.cpp)
// holds its builders and its own rows; vk_op_table.cpp joins the families.
// Adding an operator is one row in its family's table and one builder.
#pragma once

#include <cstddef>

#include "backends/vulkan/vk_builder.h"

namespace ember::vulkan {

using BuildFn = Error (*)(Builder& b);

struct OpEntry {
  const char* name;
  BuildFn build;
};

struct OpFamily {
  const OpEntry* rows;
  size_t count;
};

// The row for `name`, or null when the delegate cannot run it.
const OpEntry* find_op(const char* name);
// Calls `visit` for every row (listings: docs, tests).
void for_each_op(void (*visit)(const OpEntry& row, void* context), void* context);

// The families (one per file).
OpFamily binary_ops();     // vk_op_binary.cpp: add, sub, mul, div, comparisons
OpFamily copy_ops();       // vk_op_copy.cpp: prepack, views, clone
OpFamily conv_ops();       // vk_op_conv.cpp: convolution, conv_with_clamp
OpFamily pool_ops();       // vk_op_pool.cpp: max/avg pooling
OpFamily matmul_ops();     // vk_op_matmul.cpp: linear, mm, bmm, addmm
OpFamily norm_ops();       // vk_op_norm.cpp: layer_norm, rms_norm, softmax
OpFamily reduce_ops();     // vk_op_reduce.cpp: mean, sum, amax
OpFamily unary_ops();      // vk_op_unary.cpp: activations and maths
OpFamily layout_ops();     // vk_op_layout.cpp: permute, slice, select, cat, expand
OpFamily gather_ops();     // vk_op_gather.cpp: embedding, full, arange, where
OpFamily llm_ops();        // vk_op_llm.cpp: select_as_symint, sdpa_with_kv_cache, rope
OpFamily symint_ops();     // vk_op_symint.cpp: sym_size, SymInt arithmetic (host)
OpFamily quant_ops();      // vk_op_quant.cpp: choose_qparams_affine, 8da4w / 4-bit linear

}  // namespace ember::vulkan

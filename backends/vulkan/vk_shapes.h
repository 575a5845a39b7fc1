// Shapes that change at run time. A program exported with dynamic shapes
// stores each tensor's largest shape and placeholder SymInts; before the
// builders run, propagate_shapes() walks the chain with the shapes of the
// actual inputs and gives every tensor its current shape and every SymInt
// the value the host can know:
//   - sym_size.int and SymInt arithmetic (add, sub, mul, floordiv) from
//     shapes and other SymInts;
//   - et_vk.select_as_symint from the element of a graph input (the input
//     position of a Llama), read from the host tensor.
// Each operator's rule is a row of one table (vk_shapes.cpp). An operator
// without a rule keeps its stored shapes, which is right only when its
// inputs have theirs: otherwise propagation fails with NotSupported naming
// it. Every shape must keep its stored rank and fit the memory planned for
// the stored one (InvalidArgument otherwise).
#pragma once

#include <cstdint>

#include "backends/vulkan/vk_graph.h"
#include "runtime/core/tensor.h"

namespace ember::vulkan {

struct ShapeInputs {
  // The host tensor of graph value `id` into *out when it is a graph
  // input; false otherwise.
  bool (*tensor)(void* context, uint32_t id, Tensor* out) = nullptr;
  void* context = nullptr;
};

// Whether the graph has values whose shape or value is decided at run time
// (any SymInt), so shapes must be propagated before building.
bool has_runtime_shapes(const Graph& graph);

// Updates `graph` (a copy of `bounds` whose input tensors already hold the
// shapes of this call) in place.
Error propagate_shapes(const Graph& bounds, const ShapeInputs& inputs, Graph* graph);

}  // namespace ember::vulkan

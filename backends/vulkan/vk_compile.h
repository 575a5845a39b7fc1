// From blob bytes to the list of dispatches, without a device: the header
// and graph checked (vk_payload.h, vk_graph.h), every operator looked up
// (an unknown one fails with NotSupported naming all of them) and its
// builder run. What the backend's init does before it touches Vulkan, and
// what the payload fuzz target exercises.
#pragma once

#include <cstddef>
#include <vector>

#include "backends/vulkan/vk_builder.h"
#include "backends/vulkan/vk_graph.h"

namespace ember::vulkan {

// `bounds` gets the graph as stored (each tensor's largest shape);
// `current` the same with shapes propagated from the stored input shapes
// (vk_shapes.h) when the program has run-time shapes; the dispatches are
// built from `current`.
Error compile_blob(const void* data, size_t size, Graph* bounds, Graph* current,
                   std::vector<Dispatch>* dispatches);

// Runs every operator's builder over `graph` (shapes already current).
Error build_dispatches(const Graph& graph, std::vector<Dispatch>* dispatches);

}  // namespace ember::vulkan

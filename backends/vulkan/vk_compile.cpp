#include "backends/vulkan/vk_compile.h"

#include <algorithm>
#include <string>
#include <vector>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/vk_payload.h"
#include "backends/vulkan/vk_shapes.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

Error check_operators(const Graph& graph) {
  std::vector<std::string> missing;
  for (const OpCall& op : graph.chain) {
    if (find_op(op.name.c_str()) != nullptr) continue;
    const std::string shown = PrintableName(op.name.c_str()).c_str();
    if (std::find(missing.begin(), missing.end(), shown) == missing.end()) {
      missing.push_back(shown);
    }
  }
  if (missing.empty()) return Error::Ok;
  std::string list;
  for (const std::string& name : missing) list += (list.empty() ? "'" : ", '") + name + "'";
  EMBER_CHECK_OR_RETURN(false, Error::NotSupported,
                        "VulkanBackend does not run %zu operator(s) of this program: %s",
                        missing.size(), list.c_str());
}

// Every tensor a dispatch binds must have a place; inputs and outputs too.
Error build_all(Builder& builder) {
  const Graph& graph = builder.graph();
  for (size_t i = 0; i < graph.chain.size(); ++i) {
    builder.begin_op(i);
    const OpEntry* row = find_op(graph.chain[i].name.c_str());
    EMBER_CHECK_OR_RETURN(row != nullptr, Error::NotSupported,
                          "VulkanBackend operator %zu has no builder", i);
    EMBER_RETURN_IF_ERROR(row->build(builder));
  }
  return Error::Ok;
}

}  // namespace

Error build_dispatches(const Graph& graph, std::vector<Dispatch>* dispatches) {
  Builder builder(graph);
  EMBER_RETURN_IF_ERROR(build_all(builder));
  *dispatches = std::move(builder.dispatches());
  return Error::Ok;
}

Error compile_blob(const void* data, size_t size, Graph* bounds, Graph* current,
                   std::vector<Dispatch>* dispatches) {
  Payload payload;
  EMBER_RETURN_IF_ERROR(parse_payload(data, size, &payload));
  EMBER_RETURN_IF_ERROR(parse_graph(payload, bounds));
  EMBER_RETURN_IF_ERROR(check_operators(*bounds));
  *current = *bounds;
  if (has_runtime_shapes(*bounds)) {
    EMBER_RETURN_IF_ERROR(propagate_shapes(*bounds, ShapeInputs(), current));
  }
  return build_dispatches(*current, dispatches);
}

}  // namespace ember::vulkan

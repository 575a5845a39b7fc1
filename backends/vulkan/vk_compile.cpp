#include "backends/vulkan/vk_compile.h"

#include <string>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/vk_payload.h"
#include "runtime/platform/error_message.h"

namespace ember::vulkan {
namespace {

Error check_operators(const Graph& graph) {
  std::string missing;
  size_t count = 0;
  for (const OpCall& op : graph.chain) {
    if (find_op(op.name.c_str()) != nullptr) continue;
    const std::string shown = PrintableName(op.name.c_str()).c_str();
    if ((", " + missing + ", ").find(", " + shown + ", ") != std::string::npos) continue;
    missing += (count++ == 0 ? "" : ", ") + shown;
  }
  EMBER_CHECK_OR_RETURN(count == 0, Error::NotSupported,
                        "VulkanBackend does not run %zu operator(s) of this program: %s", count,
                        missing.c_str());
  return Error::Ok;
}

// Every tensor a dispatch binds must have a place; inputs and outputs too.
Error build_all(Builder& builder) {
  const Graph& graph = builder.graph();
  for (size_t i = 0; i < graph.chain.size(); ++i) {
    builder.begin_op(i);
    EMBER_RETURN_IF_ERROR(find_op(graph.chain[i].name.c_str())->build(builder));
  }
  return Error::Ok;
}

}  // namespace

Error compile_blob(const void* data, size_t size, Graph* graph,
                   std::vector<Dispatch>* dispatches) {
  Payload payload;
  EMBER_RETURN_IF_ERROR(parse_payload(data, size, &payload));
  EMBER_RETURN_IF_ERROR(parse_graph(payload, graph));
  EMBER_RETURN_IF_ERROR(check_operators(*graph));
  Builder builder(*graph);
  EMBER_RETURN_IF_ERROR(build_all(builder));
  *dispatches = std::move(builder.dispatches());
  return Error::Ok;
}

}  // namespace ember::vulkan

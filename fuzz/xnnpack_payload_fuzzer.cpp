// Fuzz target: the XNNPACK delegate's processed blob (backends/xnnpack):
// the XH00 header split (parse_payload), then the graph flatbuffer checked
// and turned into the validated Graph (build_graph), as the backend's init
// does before compiling, then which nodes run natively and their init-time
// checks (xnn_native_ops.h). Compiling with libxnnpack is not fuzzed here.
#include <cstddef>
#include <cstdint>

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_native_ops.h"
#include "backends/xnnpack/xnn_payload.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(data, size);
  ember::xnnpack::Payload payload;
  if (ember::xnnpack::parse_payload(bytes.get(), size, &payload) != ember::Error::Ok) return 0;
  ember::xnnpack::Graph graph;
  if (ember::xnnpack::build_graph(payload, nullptr, &graph) != ember::Error::Ok) return 0;
  for (const ember::xnnpack::Node& node : graph.nodes) {
    if (ember::xnnpack::is_native_node(graph, node)) {
      (void)ember::xnnpack::check_native_node(graph, node);
    }
  }
  return 0;
}

// Fuzz target: the XNNPACK delegate's processed blob (backends/xnnpack),
// through everything the backend's init and execute do with it:
//   1. the XH00 header split (parse_payload), the graph flatbuffer checked
//      and turned into the validated Graph (build_graph);
//   2. the plan compiled: routing, native steps' init checks, and for the
//      XNNPACK steps xnn_define_* of every value and node and
//      xnn_create_runtime;
//   3. xnn_reshape_runtime and xnn_setup_runtime_v2 with buffers for the
//      graph inputs and outputs (setup_plan);
//   4. when the graph is small enough to run in microseconds, the steps
//      themselves (run_plan) on zeroed inputs.
// Every Error is an expected outcome; a crash, sanitizer report or an
// abort inside XNNPACK is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "backends/xnnpack/xnn_compiler.h"
#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_payload.h"
#include "fuzz/fuzz_util.h"

namespace {

namespace xnn = ember::xnnpack;

// Harness bounds, not the runtime's: a blob may describe gigabytes.
constexpr size_t kMaxGraphBytes = size_t(16) << 20;
constexpr uint64_t kMaxRunWork = uint64_t(1) << 24;

size_t graph_bytes(const xnn::Graph& g) {
  size_t total = 0;
  for (const xnn::Value& v : g.values) {
    if (v.nbytes() > kMaxGraphBytes - total) return kMaxGraphBytes + 1;
    total += v.nbytes();
  }
  return total;
}

// A crude bound on a node's multiply-adds: output elements times the
// elements of its second operand (a filter or weight matrix).
bool small_enough_to_run(const xnn::Graph& g) {
  uint64_t work = 0;
  for (const xnn::Node& n : g.nodes) {
    uint64_t per = 1;
    if (n.num_inputs > 1 && n.inputs[1] != xnn::kInvalidId) per += g.values[n.inputs[1]].numel;
    const uint64_t out = g.values[n.output].numel;
    if (per > kMaxRunWork || out > kMaxRunWork / per) return false;
    work += out * per;
    if (work > kMaxRunWork) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(data, size);
  xnn::Payload payload;
  if (xnn::parse_payload(bytes.get(), size, &payload) != ember::Error::Ok) return 0;
  auto plan = std::make_unique<xnn::Plan>();
  if (xnn::build_graph(payload, nullptr, &plan->graph) != ember::Error::Ok) return 0;
  if (graph_bytes(plan->graph) > kMaxGraphBytes) return 0;
  if (xnn::compile_plan(plan.get()) != ember::Error::Ok) return 0;
  // Zeroed buffers for the graph's inputs and outputs, with the tail
  // XNNPACK may read past the end.
  std::vector<ember::fuzz::Bytes> io;
  auto bind = [&](uint32_t v) {
    const size_t n = plan->graph.values[v].nbytes() + XNN_EXTRA_BYTES;
    io.emplace_back(static_cast<uint8_t*>(std::aligned_alloc(64, (n + 63) / 64 * 64)));
    std::memset(io.back().get(), 0, (n + 63) / 64 * 64);
    plan->ptrs[v] = io.back().get();
  };
  for (uint32_t v : plan->graph.inputs) bind(v);
  for (uint32_t v : plan->graph.outputs) bind(v);
  if (xnn::setup_plan(plan.get()) != ember::Error::Ok) return 0;
  if (small_enough_to_run(plan->graph)) (void)xnn::run_plan(plan.get());
  return 0;
}

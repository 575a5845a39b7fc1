// Turns a validated Graph into an execution plan: runs of nodes that the
// distribution's XNNPACK (early 2022) can define become one XNNPACK
// subgraph and runtime each (weights packed once, here); nodes it lacks
// become native steps (xnn_native_ops.h). Values that cross a step
// boundary get a buffer of their own; graph inputs and outputs are bound
// to the DelegateCall's tensors at execute.
//
// Phases: compile_plan() at init (may allocate; every failure names the
// node index and type), run_plan() per execution (binds pointers, calls
// xnn_setup_runtime only when a pointer changed, invokes).
#pragma once

#include <xnnpack.h>

#include <vector>

#include "backends/xnnpack/xnn_graph.h"

namespace ember::xnnpack {

struct Step {
  bool native = false;
  size_t first_node = 0;  // nodes [first_node, end_node)
  size_t end_node = 0;
  xnn_runtime_t runtime = nullptr;
  std::vector<uint32_t> external_values;  // value index per external slot
  std::vector<xnn_external_value> externals;
  bool bound = false;  // xnn_setup_runtime has run with `externals`
  void* scratch = nullptr;  // native steps: native_scratch_bytes(), owned by the Plan
};

// Owns the XNNPACK runtimes and the intermediate buffers.
struct Plan {
  Graph graph;
  std::vector<Step> steps;
  std::vector<void*> ptrs;   // data of each value; graph I/O set per execute
  std::vector<void*> owned;  // buffers to free
  pthreadpool* pool = nullptr;  // the pool the runtimes were created with

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();
};

// Builds plan->steps from plan->graph. Error messages name the node.
Error compile_plan(Plan* plan);

// Runs every step; plan->ptrs must hold the graph inputs' and outputs'
// data.
Error run_plan(Plan* plan);

}  // namespace ember::xnnpack

// Turns a validated Graph into an execution plan. Each node goes where the
// routing table sends it (xnn_routing.h): consecutive nodes that XNNPACK
// runs become one XNNPACK subgraph and runtime (one xnn_define_* call per
// serialized node, as upstream's compiler maps them; weights packed once,
// when the runtime is created, and read in place from the program's data
// until then); a node with a native route becomes a native step. Values
// that cross a step boundary get a buffer of their own; graph inputs and
// outputs are bound to the DelegateCall's tensors at execute.
//
// Phases: compile_plan() at init (may allocate; every failure names the
// node index and type), reshape_plan() when a bounded-dynamic input's
// shape changed, run_plan() per execution (binds pointers, calls
// xnn_setup_runtime_v2 only when a pointer changed, invokes).
#pragma once

#include <xnnpack.h>

#include <memory>
#include <vector>

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_routing.h"
#include "backends/xnnpack/xnn_weights_cache.h"

namespace ember::xnnpack {

struct Step {
  const NativeRoute* native = nullptr;  // null: an XNNPACK runtime
  size_t first_node = 0;  // nodes [first_node, end_node)
  size_t end_node = 0;
  xnn_runtime_t runtime = nullptr;
  std::vector<uint32_t> external_values;  // value index per external slot
  std::vector<xnn_external_value> externals;
  bool bound = false;  // xnn_setup_runtime_v2 has run with `externals`
  // For the method's event tracer (xnn_trace.h), filled by describe_steps():
  char trace_name[96] = {};         // "xnn_runtime 0: nodes 0-51"
  std::vector<uint32_t> outputs;    // values written for later steps or the graph
  std::vector<char> op_names;       // "<operator> #<i>" per XNNPACK operator, NUL-ended
  std::vector<uint64_t> op_times;   // XNNPACK's per-operator microseconds (scratch)
};

// Owns the XNNPACK runtimes, their packed weights and the intermediate
// buffers.
struct Plan {
  Graph graph;
  std::vector<Step> steps;
  std::vector<void*> ptrs;   // data of each value; graph I/O set per execute
  std::vector<void*> owned;  // buffers to free
  pthreadpool* pool = nullptr;  // the pool the runtimes were created with
  // Bounded-dynamic shapes: set before compile_plan() when a call argument
  // is dynamic. The plan is then one XNNPACK runtime (no native steps) and
  // reshape_plan() follows the inputs' shapes.
  bool dynamic_shapes = false;
  // The shape of each graph input the runtime is shaped for.
  std::vector<Shape> input_shapes;
  xnn_workspace_t workspace = nullptr;  // shared by the runtimes
  // Set before compile_plan() to share the workspace with the method's
  // other plans, and the weights cache with its other static plans
  // (xnn_shared_workspace.h): the method's key.
  const void* method_key = nullptr;
  // Packed weights of the runtimes (xnn_weights_cache.h), the method's
  // cache for a static plan with a method key; the constants only a packing
  // node reads are released from the program once packed. packed_bytes and
  // released_bytes: what this plan's runtimes added to the cache.
  std::shared_ptr<WeightsCache> weights;
  size_t packed_bytes = 0;
  size_t released_bytes = 0;
  // Set before compile_plan() to create the runtimes with per-operator
  // timing (XNN_FLAG_BASIC_PROFILING): when a tracer is attached at load.
  bool profiling = false;

  Plan() = default;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();
};

// Builds plan->steps from plan->graph. Error messages name the node.
Error compile_plan(Plan* plan);

// Reshapes a dynamic plan's runtime for graph input shapes `in` (one per
// input, any rank XNNPACK takes) and writes each graph output's new shape
// into `out` (one per output). Only for plans with dynamic_shapes; costs
// an XNNPACK reshape, so the caller calls it only when an input's shape
// changed.
Error reshape_plan(Plan* plan, const Shape* in, Shape* out);

// Reshapes (first time) and sets up every XNNPACK step for plan->ptrs,
// which must hold the graph inputs' and outputs' data; run_plan() does
// the same before each step, so this is for callers that want the
// reshape and setup errors without running (the fuzz target).
Error setup_plan(Plan* plan);

// Runs every step; plan->ptrs must hold the graph inputs' and outputs'
// data.
Error run_plan(Plan* plan);

// The pieces of run_plan(), for the traced run (xnn_trace.h): the pool
// check once per run, then per step prepare_step() (an XNNPACK step's
// setup when a pointer changed; nothing for a native step) and
// invoke_step() (runs it).
Error check_plan_pool(const Plan& plan);
Error prepare_step(Plan* plan, Step* step);
Error invoke_step(Plan* plan, Step* step);

// The external slot of value `v` in an XNNPACK step (which must have one).
uint32_t external_slot(const Step& step, uint32_t v);

}  // namespace ember::xnnpack

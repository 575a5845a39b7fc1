// The XNNPACK delegate: runs the blobs upstream's XnnpackPartitioner
// writes (backend id "XnnpackBackend") on a modern XNNPACK (2024-11
// snapshot or newer; third-party/dependencies.cmake).
//
// Linking the ember_xnnpack_backend object library registers the backend
// (static initializer); nothing needs to be called.
//
// init(): parses and validates the blob (xnn_payload.h, xnn_graph.h),
// routes each node (xnn_routing.h), builds one XNNPACK runtime per run of
// nodes XNNPACK runs and a native step for each of the others
// (xnn_compiler.h), packing weights once; each runtime is reshaped for the
// blob's shapes and must compute the shapes the blob declares. Constants
// are read in place from the blob or the program's named data, which must
// outlive the Method (the runtime keeps the blob; the backend keeps the
// named-data buffers). Any node, dtype or parameter it cannot run fails
// init with a message naming the node index and type.
//
// Threads: runtimes use the process-wide pool (runtime/platform/
// threadpool.h) as it is at init; set the thread count before loading
// methods (execute fails with InvalidState if the pool changed since).
// XNNPACK flushes subnormals to zero on every pool thread for the
// duration of each operator and restores the state after.
//
// Shapes: a static delegate takes exactly the element counts the blob was
// built for. When the DelegateCall passes a bounded-dynamic tensor, the
// plan is one XNNPACK runtime: execute reshapes it (xnn_reshape_runtime)
// only when an input's shape differs from the last one, checking each dim
// against the blob's upper bound, and resizes the outputs to what XNNPACK
// computes (InvalidArgument past a bound or an output's capacity).
//
// Memory: the delegate state, XNNPACK runtimes, packed weights and
// buffers for values that cross between XNNPACK and native steps come
// from the heap (XNNPACK allocates its own memory); destroy() releases
// them. Weights are packed into the delegate's own cache
// (xnn_weights_cache.h): one copy per filter across the delegate's
// runtimes, and a named-data constant whose only reader is a packed
// operand is released from the program as soon as it is packed (the mmap
// loader gives its pages back, the file loader frees its copy), so the
// weights are resident once. memory_stats() sums what live delegates hold. A graph input or
// output without memory (a program that leaves them to the application)
// is InvalidState at execute, before XNNPACK sees it.
//
// Tracing: with an EventTracer on the method, execute reports each step,
// each XNNPACK operator's time (when the tracer was attached at load) and,
// at the intermediate-outputs level, each step's outputs (xnn_trace.h).
// Without one, execute pays one null check.
#pragma once

#include <cstddef>

namespace ember::xnnpack {

// The backend id programs use.
constexpr const char* kXnnpackBackendId = "XnnpackBackend";

// What the XNNPACK delegates alive in this process hold, for memory
// reports (executor_runner --memory_report): summed over delegate
// instances initialized and not yet destroyed.
struct MemoryStats {
  size_t delegates = 0;
  size_t packed_weight_bytes = 0;       // the delegates' packed weights
  size_t released_constant_bytes = 0;   // program constants released once packed
  size_t workspaces = 0;                // XNNPACK workspaces (a method's delegates share one)
};
MemoryStats memory_stats();

}  // namespace ember::xnnpack

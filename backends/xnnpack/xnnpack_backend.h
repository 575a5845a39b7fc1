// The XNNPACK delegate: runs the blobs upstream's XnnpackPartitioner
// writes (backend id "XnnpackBackend") on the distribution's XNNPACK.
//
// Linking the ember_xnnpack_backend object library registers the backend
// (static initializer); nothing needs to be called.
//
// init(): parses and validates the blob (xnn_payload.h, xnn_graph.h),
// builds one XNNPACK runtime per run of supported nodes and native steps
// for the rest (xnn_compiler.h), packing weights once. Constants are read
// in place from the blob or the program's named data, which must outlive
// the Method (the runtime keeps the blob; the backend keeps the named-data
// buffers). Any node, dtype or parameter it cannot run fails init with a
// message naming the node index and type.
//
// Threads: runtimes use the process-wide pool (runtime/platform/
// threadpool.h) as it is at init; set the thread count before loading
// methods (execute fails with InvalidState if the pool changed since).
//
// Shapes: static. Inputs and outputs must have the element count and
// dtype the blob was built for; a bounded-dynamic input resized to another
// shape is refused at execute with InvalidArgument (XNNPACK 2022 cannot
// reshape a runtime), never computed wrongly.
//
// Memory: the delegate state, XNNPACK runtimes and buffers for values
// that cross between XNNPACK and native steps come from the heap (XNNPACK
// allocates its own memory); destroy() releases them.
#pragma once

namespace ember::xnnpack {

// The backend id programs use.
constexpr const char* kXnnpackBackendId = "XnnpackBackend";

}  // namespace ember::xnnpack

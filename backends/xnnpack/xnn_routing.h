// Which engine runs each node of an XNNPACK blob.
//
// XNNPACK runs every node, except those that match a row of one table
// (kNativeRoutes in xnn_routing.cpp): node type plus a condition on
// datatypes and shapes -> one of the delegate's own native steps. A row
// exists only when the pinned XNNPACK cannot compute the node the way
// upstream's runtime does (different rounding, a missing node type), or
// when a native step was measured faster than XNNPACK on real models at 1
// and 2 threads; each row says which, with the measurement. Adding a
// native step is adding a row; nothing else decides the route.
//
// Phases: route_node() at init, once per node; the row's check() at init
// (InvalidProgram naming the node when the node's shapes or datatypes do
// not fit the step); run() per execution, with value pointers only (it
// cannot fail; every bound it relies on was checked).
#pragma once

#include "backends/xnnpack/xnn_graph.h"
#include "runtime/core/error.h"

namespace ember::xnnpack {

struct NativeRoute {
  const char* name;                              // for logs and tests
  ember_xnn_fb::XNodeUnion type;                 // node type of the row
  bool (*applies)(const Graph&, const Node&);    // datatype / shape condition
  Error (*check)(const Graph&, const Node&);     // init-time validation
  void (*run)(const Graph&, const Node&, void* const* ptrs);
  const char* reason;                            // why the row exists
};

// The row that runs `node` natively, or nullptr when XNNPACK runs it.
const NativeRoute* route_node(const Graph& graph, const Node& node);

// Every row, in table order (tests, documentation).
const NativeRoute* native_routes_begin();
const NativeRoute* native_routes_end();

}  // namespace ember::xnnpack

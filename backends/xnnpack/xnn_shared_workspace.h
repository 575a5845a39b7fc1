// One XNNPACK workspace (the memory of a runtime's intermediate values) for
// all the static-shape delegates of one loaded method. A method runs its
// delegates one after another, so they can take turns in one workspace
// sized for the largest, instead of one each: a program the partitioner
// split into 30 delegates (a ViT) held 30 workspaces.
//
// The key is the method's allocator (BackendInitContext::allocator()),
// which each loaded method has to itself. Methods that share one method
// allocator share the workspace and so must not execute concurrently.
// Dynamic-shape plans keep their own workspace: they reshape at execute,
// which may grow the workspace under a delegate already set up.
//
// The same key gives the method's static plans one weights cache
// (xnn_weights_cache.h): a weight read by several delegates (a recurrent
// layer's time steps, each its own delegate) is packed once, when its
// bytes are the same bytes (the mmap and buffer loaders give every
// delegate the program's own; the file loader gives copies, which pack
// separately as before).
#pragma once

#include <xnnpack.h>

#include <memory>

#include "backends/xnnpack/xnn_weights_cache.h"

namespace ember::xnnpack {

// The workspace of `method`, created on first use; each call counts a
// user. Null when XNNPACK cannot create one.
xnn_workspace_t acquire_method_workspace(const void* method);
// One user of `method`'s workspace is gone (after its runtimes were
// deleted); the last one releases it.
void release_method_workspace(const void* method);

// The weights cache of `method`, created on first use; it lives as long
// as a plan holds it.
std::shared_ptr<WeightsCache> acquire_method_weights(const void* method);

}  // namespace ember::xnnpack

// One XNNPACK workspace (the memory of a runtime's intermediate values) for
// all the delegates of one loaded method. A method runs its
// delegates one after another, so they can take turns in one workspace
// sized for the largest, instead of one each: a program the partitioner
// split into 30 delegates (a ViT) held 30 workspaces.
//
// The key is the method's allocator (BackendInitContext::allocator()),
// which each loaded method has to itself. Methods that share one method
// allocator share the workspace and so must not execute concurrently.
// Dynamic-shape plans share it too: when one grows the workspace at a
// reshape, XNNPACK moves every other user's pointers and sets them up again.
//
// The same key gives the method's static plans one weights cache
// (xnn_weights_cache.h): a weight read by several delegates (a recurrent
// layer's time steps, each its own delegate) is packed once, when its
// bytes are the same bytes (the mmap and buffer loaders give every
// delegate the program's own; the file loader gives copies, which pack
// separately as before).
#pragma once

#include <xnnpack.h>

#include <cstddef>
#include <memory>

#include "backends/xnnpack/xnn_weights_cache.h"

namespace ember::xnnpack {

// The workspace of `method`, created on first use; each call counts a
// user. A null `method` gets a workspace of its own. Null when XNNPACK
// cannot create one.
xnn_workspace_t acquire_workspace(const void* method);
// One user of `workspace` (acquired for `method`) is gone, after its
// runtimes were deleted; the last one releases it.
void release_workspace(const void* method, xnn_workspace_t workspace);
// Workspaces alive in this process (memory reports, tests).
size_t live_workspaces();

// The weights cache of `method`, created on first use; it lives as long
// as a plan holds it.
std::shared_ptr<WeightsCache> acquire_method_weights(const void* method);

}  // namespace ember::xnnpack

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
#pragma once

#include <xnnpack.h>

namespace ember::xnnpack {

// The workspace of `method`, created on first use; each call counts a
// user. Null when XNNPACK cannot create one.
xnn_workspace_t acquire_method_workspace(const void* method);
// One user of `method`'s workspace is gone (after its runtimes were
// deleted); the last one releases it.
void release_method_workspace(const void* method);

}  // namespace ember::xnnpack

// The kernel registry: operator name -> boxed kernel function.
//
// Kernels are registered under the exact upstream name and overload joined
// by a dot ("aten::add.out", "executorch_prim::add.Scalar"). A registration
// may carry a key string (for example a dtype/dim-order specialization);
// lookups without a key find the entry registered without one.
//
// The registry is a fixed-size static table (no heap). Registration happens
// from static initializers in each kernel file (EMBER_REGISTER_KERNEL), so
// kernel libraries are linked as object libraries.
//
// Thread safety: register only at static-initialization time (or before
// any second thread uses the runtime); lookups are then reads of a table
// nobody writes and may run on any number of threads. Kernels themselves
// are called concurrently from different Methods: they keep no mutable
// state outside their arguments and the KernelContext (temp memory is the
// calling Method's).
//
// Boxed calling convention: `args` holds the operator's arguments in schema
// order followed by its return value(s). For out-variants the out tensor
// thus appears twice (as the `out` argument and as the return value).
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

using OpFunction = void (*)(KernelContext& context, Span<EValue*> args);

struct Kernel {
  const char* name;  // "aten::add.out"
  OpFunction fn;
  const char* key = "";  // optional specialization key; "" for the default
  // The kernel takes KernelContext's Prepare and Prepared modes
  // (EMBER_REGISTER_PREPARED_KERNEL): it stops after its checks and output
  // sizing when preparing, and skips them when prepared.
  bool prepares = false;
};

// The registry's capacity, a build option (CMake EMBER_MAX_KERNELS): a
// firmware with a selective build registers a few dozen kernels and need
// not pay for 2,048 slots.
#ifndef EMBER_MAX_KERNELS
#define EMBER_MAX_KERNELS 2048
#endif
constexpr size_t kMaxRegisteredKernels = EMBER_MAX_KERNELS;

// Adds a kernel. Fails with InvalidArgument for a duplicate (name, key) and
// Internal when the table is full.
Error register_kernel(const Kernel& kernel);

// Finds the kernel for `name` + "." + `overload` (overload may be empty, in
// which case the name alone is matched) with the default key. Null if none.
OpFunction find_kernel(const char* name, const char* overload);

// Whether the kernel find_kernel() gives for `name` and `overload` takes
// the Prepare and Prepared modes (false when there is none).
bool kernel_prepares(const char* name, const char* overload);

// Whether Method load runs the Prepare step (on by default). Turning it off
// runs every kernel call in Run mode, as a kernel library without prepare
// would: for measuring what prepare saves, and for tests. Set it before
// loading methods; methods loaded earlier keep what they were loaded with.
void set_kernel_prepare_enabled(bool enabled);
bool kernel_prepare_enabled();

size_t num_registered_kernels();
const Kernel& registered_kernel(size_t index);

}  // namespace ember

#define EMBER_CONCAT_INNER(a, b) a##b
#define EMBER_CONCAT(a, b) EMBER_CONCAT_INNER(a, b)

// Registers `fn` under `name` at static-initialization time.
#define EMBER_REGISTER_KERNEL(name, fn)                                      \
  static const bool EMBER_CONCAT(ember_kernel_registered_, __LINE__) =       \
      (::ember::register_kernel(::ember::Kernel{name, fn}) == ::ember::Error::Ok)

// The same for a kernel that takes the Prepare and Prepared modes
// (kernel_context.h): in Prepare it returns right after
// KernelArgs::prepared_stop(), having written nothing but its outputs'
// shapes; in Prepared it skips only checks of tags, dtypes and shapes.
#define EMBER_REGISTER_PREPARED_KERNEL(name, fn)                             \
  static const bool EMBER_CONCAT(ember_kernel_registered_, __LINE__) =       \
      (::ember::register_kernel(::ember::Kernel{name, fn, "", true}) ==      \
       ::ember::Error::Ok)

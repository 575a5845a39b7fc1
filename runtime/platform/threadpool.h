// The process-wide thread pool shared by threaded kernels and the XNNPACK
// delegate.
//
// The application sets the thread count (set_num_threads) before loading
// or executing methods; the library default is 1, which runs everything on
// the calling thread with no pool at all. Creating a pool allocates (once,
// in set_num_threads); parallel_for never does.
//
// Not thread-safe against concurrent set_num_threads/parallel_for: set the
// count at start-up, or between executions.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"

struct pthreadpool;

namespace ember {

// Resizes the shared pool. 0 means "the number of cores, capped at 8".
// Returns MemoryAllocationFailed if the pool cannot be created (the old
// pool stays).
Error set_num_threads(size_t threads);
size_t num_threads();

// The underlying pthreadpool (null when running single-threaded), for
// backends such as XNNPACK that take one.
pthreadpool* shared_pthreadpool();

// Calls fn(context, i) for every i in [0, range), spread over the pool;
// returns when all calls are done. Runs inline when the pool is absent or
// range is 1.
using ParallelTask = void (*)(void* context, size_t index);
void parallel_for(size_t range, ParallelTask fn, void* context);

// Convenience for lambdas: parallel_for(n, [&](size_t i) { ... }).
template <typename F>
void parallel_for(size_t range, F&& f) {
  parallel_for(
      range, [](void* ctx, size_t i) { (*static_cast<F*>(ctx))(i); },
      static_cast<void*>(&f));
}

}  // namespace ember

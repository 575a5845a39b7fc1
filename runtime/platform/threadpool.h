// The process-wide thread pool shared by threaded kernels and the XNNPACK
// delegate.
//
// The application sets the thread count (set_num_threads) before loading
// or executing methods; the library default is 1, which runs everything on
// the calling thread with no pool at all. Creating a pool allocates (once,
// in set_num_threads); parallel_for never does.
//
// Thread safety (the contract README.md's "Thread safety" summarizes):
//   - parallel_for (and XNNPACK, which takes shared_pthreadpool()) may be
//     called from several threads at once: methods executing concurrently
//     on different threads share the pool. pthreadpool runs one
//     parallelize call at a time (each call holds the pool's own mutex
//     until its tasks are done; the calling thread works as one of the
//     pool's threads), so concurrent callers' parallel sections are
//     serialized, not interleaved, and each section still has every pool
//     thread. Results do not depend on which caller ran first. A task must
//     not call parallel_for itself (that mutex is not recursive).
//   - set_num_threads must not run while any method is loading or
//     executing, on any thread: it destroys the old pool, which a
//     concurrent parallel_for may be using, and the XNNPACK delegate keeps
//     the pool it was loaded with (InvalidState at execute if it changed).
//     Set the count at start-up, or between executions with every thread
//     quiet. num_threads() and shared_pthreadpool() may be read anywhere
//     under that rule.
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

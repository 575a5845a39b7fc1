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
//     on different threads share the pool. The pool serves one parallel
//     section at a time (the calling thread works as one of its threads);
//     with Ember's pthreadpool (third-party/patches/pthreadpool-shared-
//     callers.patch) a section that finds the pool busy runs on its own
//     calling thread instead of waiting, and ExecutionInFlight below sends
//     every section to its calling thread while the executions in flight
//     leave the pool no free cores. Within a section the caller never
//     waits for a pool thread that has not started on it (a thread another
//     process keeps off its core), and a pool whose threads keep missing
//     sections runs them on the caller for a few milliseconds before trying
//     them again (third-party/patches/pthreadpool-unjoined-workers.patch).
//     A section's tasks are independent, so the results are the same bits
//     whichever threads run them. A task must not call parallel_for itself.
//   - set_num_threads must not run while any method is loading or
//     executing, on any thread: it destroys the old pool, which a
//     concurrent parallel_for may be using, and the XNNPACK delegate keeps
//     the pool it was loaded with (InvalidState at execute if it changed).
//     Set the count at start-up, or between executions with every thread
//     quiet. num_threads() and shared_pthreadpool() may be read anywhere
//     under that rule.
#pragma once

#include <cstddef>

#include "runtime/platform/error.h"

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

// Marks one execution in flight for as long as it lives (Method::execute
// holds one), so that concurrent executions share the cores instead of
// fighting over the pool:
//   - one execution in flight: its parallel sections use the whole pool,
//     or as many pool threads as the other cores (a pool larger than the
//     cores gains nothing and its extra threads would take turns with the
//     caller);
//   - several, with cores left beside them (executions in flight < usable
//     cores): a section takes the pool when it is free, with as many pool
//     threads as there are cores left (usable cores - executions in
//     flight), and otherwise runs on its calling thread;
//   - several, with no core left: every section runs on its calling
//     thread, so no pool thread spins on a core another execution needs;
//     when enough executions have left, sections stay inline 2 ms more
//     (an application thread between two executions keeps its core), then
//     the pool serves them again, at the next parallel_for or
//     refresh_pool_sharing() (the XNNPACK delegate calls it before each
//     runtime it invokes; an XNNPACK runtime already running stays inline
//     to its end).
// Does nothing in a build without threads (executions_in_flight() is
// then 0). Not copyable.
class ExecutionInFlight {
 public:
  ExecutionInFlight();
  ~ExecutionInFlight();
  ExecutionInFlight(const ExecutionInFlight&) = delete;
  ExecutionInFlight& operator=(const ExecutionInFlight&) = delete;
};

// The state that rule reads, for tests and reports: executions in flight
// now, the cores this process may run on (its CPU affinity), and whether
// parallel sections run on their calling threads now.
size_t executions_in_flight();
size_t usable_cores();
bool parallel_sections_inline();

// Ends a grace that has run out (see ExecutionInFlight): for callers that
// hand the pool to code that does not call parallel_for (XNNPACK).
void refresh_pool_sharing();

// Convenience for lambdas: parallel_for(n, [&](size_t i) { ... }).
template <typename F>
void parallel_for(size_t range, F&& f) {
  parallel_for(
      range, [](void* ctx, size_t i) { (*static_cast<F*>(ctx))(i); },
      static_cast<void*>(&f));
}

}  // namespace ember

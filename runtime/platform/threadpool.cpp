#include "runtime/platform/threadpool.h"

#include <pthreadpool.h>
#include <unistd.h>

// ThreadSanitizer (EMBER_TSAN) does not see the prebuilt pthreadpool's
// handoff to its workers (atomics and futexes in uninstrumented code), so
// parallel_for states the two orderings pthreadpool guarantees: the call
// happens before each task, each task happens before the call returns.
// Two sync addresses, so that tasks are not ordered among themselves and
// a race between two tasks is still reported.
#if defined(__SANITIZE_THREAD__)
#define EMBER_TSAN_ANNOTATE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EMBER_TSAN_ANNOTATE 1
#endif
#endif
#ifdef EMBER_TSAN_ANNOTATE
#include <sanitizer/tsan_interface.h>
#endif

namespace ember {
namespace {

pthreadpool_t g_pool = nullptr;
size_t g_threads = 1;

struct Trampoline {
  ParallelTask fn;
  void* context;
  char start;  // sync addresses for the TSan annotations
  char end;
};

void run_one(void* arg, size_t index) {
  Trampoline* t = static_cast<Trampoline*>(arg);
#ifdef EMBER_TSAN_ANNOTATE
  __tsan_acquire(&t->start);
#endif
  t->fn(t->context, index);
#ifdef EMBER_TSAN_ANNOTATE
  __tsan_release(&t->end);
#endif
}

}  // namespace

Error set_num_threads(size_t threads) {
  if (threads == 0) {
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores > 0 ? size_t(cores) : 1;
    threads = threads > 8 ? 8 : threads;
  }
  if (threads == g_threads) {
    return Error::Ok;
  }
  pthreadpool_t pool = nullptr;
  if (threads > 1) {
    pool = pthreadpool_create(threads);
    if (pool == nullptr) {
      set_error_message("cannot create a pool of %zu threads", threads);
      return Error::MemoryAllocationFailed;
    }
  }
  if (g_pool != nullptr) {
    pthreadpool_destroy(g_pool);
  }
  g_pool = pool;
  g_threads = threads;
  return Error::Ok;
}

size_t num_threads() { return g_threads; }

pthreadpool* shared_pthreadpool() { return g_pool; }

void parallel_for(size_t range, ParallelTask fn, void* context) {
  if (g_pool == nullptr || range <= 1) {
    for (size_t i = 0; i < range; ++i) {
      fn(context, i);
    }
    return;
  }
  Trampoline t{fn, context, 0, 0};
#ifdef EMBER_TSAN_ANNOTATE
  __tsan_release(&t.start);
#endif
  // No flags: denormals keep their IEEE meaning on worker threads too, so
  // threaded results equal single-threaded ones.
  pthreadpool_parallelize_1d(g_pool, run_one, &t, range, 0);
#ifdef EMBER_TSAN_ANNOTATE
  __tsan_acquire(&t.end);
#endif
}

}  // namespace ember

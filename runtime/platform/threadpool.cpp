#include "runtime/platform/threadpool.h"

#include <pthreadpool.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>

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

// Executions in flight and the rule ExecutionInFlight applies (threadpool.h).
// The mutex orders the count's changes with the flag they set; sections
// read only the flag (and, while it is set, the release time).
std::mutex g_flight_mutex;
size_t g_in_flight = 0;
std::atomic<bool> g_inline{false};
// After an execution leaves, sections stay inline until this time (steady
// clock, ns; 0: no grace running): an application thread between two
// executions keeps its core instead of lending it to another execution's
// pool for a few microseconds, a worker wake-up and a fight to get it back.
std::atomic<int64_t> g_inline_until_ns{0};
constexpr int64_t kLeaveGraceNs = 2'000'000;  // 2 ms

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

size_t count_usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) {
    return size_t(CPU_COUNT(&set));
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? size_t(cores) : 1;
}

// Pool threads that may join one section beside its caller: the cores
// the executions in flight leave free (each execution's own thread holds
// one), at most the pool's.
size_t helpers_allowed() {
  const size_t busy = g_in_flight > 1 ? g_in_flight : 1;
  const size_t free_cores = usable_cores() > busy ? usable_cores() - busy : 0;
  return free_cores < g_threads - 1 ? free_cores : g_threads - 1;
}

// Several executions in flight and no core left for a pool thread.
bool cores_taken() { return g_in_flight >= 2 && helpers_allowed() == 0; }

void set_helpers() {
#ifdef PTHREADPOOL_HAS_MAX_HELPERS
  // XNNPACK's sections go to pthreadpool directly: the pool applies it.
  if (g_pool != nullptr) pthreadpool_set_max_helpers(g_pool, helpers_allowed());
#endif
}

void set_inline(bool run_inline) {
  g_inline.store(run_inline, std::memory_order_relaxed);
#ifdef PTHREADPOOL_HAS_SHARED_CALLERS
  // XNNPACK's sections go to pthreadpool directly: the pool applies it.
  pthreadpool_set_run_inline(g_pool, run_inline ? 1 : 0);
#endif
}

// Called with g_flight_mutex held, after the count or the pool changed.
// `leaving`: an execution just ended, so inline mode, if on, runs out its
// grace instead of ending now.
void apply_sharing_rule(bool leaving) {
  set_helpers();
  if (cores_taken()) {
    g_inline_until_ns.store(0, std::memory_order_relaxed);
    set_inline(true);
  } else if (leaving && g_inline.load(std::memory_order_relaxed)) {
    g_inline_until_ns.store(now_ns() + kLeaveGraceNs, std::memory_order_relaxed);
  } else if (g_inline_until_ns.load(std::memory_order_relaxed) <= now_ns()) {
    g_inline_until_ns.store(0, std::memory_order_relaxed);
    set_inline(false);
  }
}

// Whether sections run inline now; ends a grace that has run out.
bool sections_inline_now() {
  if (!g_inline.load(std::memory_order_relaxed)) {
    return false;
  }
  const int64_t until = g_inline_until_ns.load(std::memory_order_relaxed);
  if (until == 0 || until > now_ns()) {
    return true;
  }
  std::lock_guard<std::mutex> lock(g_flight_mutex);
  apply_sharing_rule(false);
  return g_inline.load(std::memory_order_relaxed);
}

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
  std::lock_guard<std::mutex> lock(g_flight_mutex);
  g_pool = pool;
  g_threads = threads;
  apply_sharing_rule(false);
  return Error::Ok;
}

ExecutionInFlight::ExecutionInFlight() {
  std::lock_guard<std::mutex> lock(g_flight_mutex);
  ++g_in_flight;
  apply_sharing_rule(false);
}

ExecutionInFlight::~ExecutionInFlight() {
  std::lock_guard<std::mutex> lock(g_flight_mutex);
  --g_in_flight;
  apply_sharing_rule(true);
}

size_t executions_in_flight() {
  std::lock_guard<std::mutex> lock(g_flight_mutex);
  return g_in_flight;
}

size_t usable_cores() {
  static const size_t cores = count_usable_cores();
  return cores;
}

bool parallel_sections_inline() { return sections_inline_now(); }

void refresh_pool_sharing() { (void)sections_inline_now(); }

size_t num_threads() { return g_threads; }

pthreadpool* shared_pthreadpool() { return g_pool; }

void parallel_for(size_t range, ParallelTask fn, void* context) {
  if (g_pool == nullptr || range <= 1 || sections_inline_now()) {
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

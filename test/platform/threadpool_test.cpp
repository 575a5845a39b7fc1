// The shared pool with several callers: one execution uses the whole pool,
// a caller that finds the pool busy runs its section on its own thread
// instead of waiting, and executions beyond what the cores hold run every
// section inline (runtime/platform/threadpool.h).
#include "runtime/platform/threadpool.h"

#include <gtest/gtest.h>
#if EMBER_THREADS
#include <pthreadpool.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace ember {
namespace {

using Clock = std::chrono::steady_clock;

// Spins (yielding) until pred() or the deadline; returns pred().
template <typename Pred>
bool wait_for(Pred pred, std::chrono::milliseconds limit) {
  const auto deadline = Clock::now() + limit;
  while (!pred()) {
    if (Clock::now() > deadline) {
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

class SharedPool : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!EMBER_THREADS) {
      GTEST_SKIP() << "a build without threads has no pool";
    }
    ASSERT_EQ(set_num_threads(2), Error::Ok);
    // An earlier test's executions may have left a grace running.
    ASSERT_TRUE(wait_for([] { return !parallel_sections_inline(); }, std::chrono::seconds(5)));
  }
  void TearDown() override { (void)set_num_threads(1); }
};

// The thread each task of a section ran on.
std::vector<std::thread::id> threads_of_section(size_t range) {
  std::vector<std::thread::id> ran_on(range);
  parallel_for(range, [&](size_t i) { ran_on[i] = std::this_thread::get_id(); });
  return ran_on;
}

TEST_F(SharedPool, OneExecutionUsesEveryPoolThread) {
  const ExecutionInFlight one;
  EXPECT_EQ(executions_in_flight(), 1u);
  EXPECT_FALSE(parallel_sections_inline());
  // Two tasks that each wait for the other to start: only two threads
  // running at once finish them before the deadline.
  std::atomic<int> started{0};
  std::atomic<int> met{0};
  parallel_for(2, [&](size_t) {
    started.fetch_add(1);
    if (wait_for([&] { return started.load() == 2; }, std::chrono::seconds(20))) {
      met.fetch_add(1);
    }
  });
  EXPECT_EQ(met.load(), 2) << "the two tasks of one execution's section did not run at once";
}

// More pool threads than cores, and another thread spinning: workers are
// often late for a section (third-party/patches/pthreadpool-unjoined-
// workers.patch: the caller then finishes without them, and a pool whose
// workers keep missing sections runs them on the caller for a while).
// Whatever path each section takes, every index runs exactly once, and no
// task runs after its parallel_for has returned.
TEST_F(SharedPool, LateWorkersNeverRunAFinishedSection) {
  ASSERT_EQ(set_num_threads(std::max<size_t>(4, 2 * usable_cores())), Error::Ok);
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  std::atomic<size_t> current{0};
  std::atomic<size_t> stale{0};
  size_t wrong = 0;
  for (size_t s = 0; s < 20000 && wrong == 0; ++s) {
    const size_t range = 2 + s % 61;
    std::vector<std::atomic<int>> hits(range);
    parallel_for(range, [&](size_t i) {
      for (volatile int k = 0; k < 300; k = k + 1) {
      }  // long enough to be caught in a task at the section's end
      if (current.load() != s) stale.fetch_add(1);
      hits[i].fetch_add(1);
    });
    for (size_t i = 0; i < range; ++i) wrong += hits[i].load() == 1 ? 0 : 1;
    current.store(s + 1);
  }
  // A task of an earlier section that ran late would still be seen here.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stop.store(true);
  spinner.join();
  EXPECT_EQ(wrong, 0u) << "an index ran other than once";
  EXPECT_EQ(stale.load(), 0u) << "a task ran after its section had returned";
}

#if EMBER_THREADS
// A worker woken for one section can find the next one already open, run
// it, and be woken again while it is still open. pthreadpool's fast-path
// thread functions let each thread step once past the end of each range,
// so a second run of one section by the same thread took indices past
// its end, and kept going (an LLM decode at two threads crashed or looped
// about one run in twenty). The patch lets a worker enter a section once.
// Tiny sections straight on the pool (little time between them), some
// after a pause long enough for the worker to fall asleep, so that it
// wakes late; an index outside its section ends the process at once,
// since the loop past the end would not stop by itself.
// Atomics, made before the pool's threads: TSan does not see the pool's
// handoff to its workers.
struct TinySection {
  std::atomic<size_t> range{0};
  std::atomic<int> hits[4];
} g_tiny;

void count_index(void* context, size_t i) {
  TinySection* t = static_cast<TinySection*>(context);
  const size_t range = t->range.load(std::memory_order_relaxed);
  if (i >= range) {
    std::fprintf(stderr, "a section of %zu items ran index %zu\n", range, i);
    std::abort();
  }
  t->hits[i].fetch_add(1, std::memory_order_relaxed);
}

TEST_F(SharedPool, AWorkerEntersEachSectionOnce) {
  if (usable_cores() < 2) {
    GTEST_SKIP() << "one core: sections run on their callers";
  }
  TinySection& t = g_tiny;
  size_t wrong = 0;
  const auto deadline = Clock::now() + std::chrono::milliseconds(1500);
  for (size_t s = 0; s < 1000000 && wrong == 0; ++s) {
    const size_t range = 2 + s % 3;
    t.range.store(range, std::memory_order_relaxed);
    for (auto& h : t.hits) h.store(0, std::memory_order_relaxed);
    pthreadpool_parallelize_1d(shared_pthreadpool(), count_index, &t, range, 0);
    for (size_t i = 0; i < range; ++i) wrong += t.hits[i].load() == 1 ? 0 : 1;
    if (s % 13 == 0) {  // 20 us: a worker that spun 50 us in vain sleeps
      const auto until = Clock::now() + std::chrono::microseconds(20);
      while (Clock::now() < until) {
      }
      if (until > deadline) break;
    }
  }
  EXPECT_EQ(wrong, 0u) << "an index ran other than once";
}
#endif

TEST_F(SharedPool, ExecutionsThatTakeEveryCoreRunSectionsInline) {
  // One execution per core (at least two): no core left for a pool thread.
  const size_t cores = usable_cores();
  const size_t all = std::max<size_t>(cores, 2);
  ASSERT_EQ(set_num_threads(all), Error::Ok);
  std::vector<std::unique_ptr<ExecutionInFlight>> flights;
  while (flights.size() + 1 < all) {
    flights.push_back(std::make_unique<ExecutionInFlight>());
    EXPECT_FALSE(parallel_sections_inline()) << flights.size() << " executions of " << all;
  }
  {
    const ExecutionInFlight last;
    EXPECT_EQ(executions_in_flight(), all);
    EXPECT_TRUE(parallel_sections_inline());
    for (const std::thread::id id : threads_of_section(64)) {
      EXPECT_EQ(id, std::this_thread::get_id());
    }
  }
  // A core free again: the pool serves sections once the 2 ms grace after
  // the last execution's end has run out.
  EXPECT_TRUE(wait_for([] { return !parallel_sections_inline(); }, std::chrono::seconds(5)))
      << "sections still inline long after an execution left";
  flights.clear();
  EXPECT_EQ(executions_in_flight(), 0u);
}

#ifdef PTHREADPOOL_HAS_MAX_HELPERS
// A pool larger than the cores: one section runs on at most as many
// threads as there are cores (its extra threads would only take turns).
TEST_F(SharedPool, ASectionTakesNoMoreThreadsThanCores) {
  const size_t cores = usable_cores();
  ASSERT_EQ(set_num_threads(2 * cores + 2), Error::Ok);
  const ExecutionInFlight one;
  for (int round = 0; round < 20; ++round) {
    std::vector<std::thread::id> ran_on(4096);
    parallel_for(ran_on.size(), [&](size_t i) {
      for (volatile int k = 0; k < 2000; k = k + 1) {
      }
      ran_on[i] = std::this_thread::get_id();
    });
    std::sort(ran_on.begin(), ran_on.end());
    const size_t threads = size_t(std::unique(ran_on.begin(), ran_on.end()) - ran_on.begin());
    ASSERT_LE(threads, cores) << "round " << round;
  }
}
#endif

TEST_F(SharedPool, InlineSectionsRunEveryIndexOnce) {
  const ExecutionInFlight a;
  const ExecutionInFlight b;
  const ExecutionInFlight c;  // 3 in flight: inline on any machine up to 3 cores
  if (!parallel_sections_inline()) {
    GTEST_SKIP() << usable_cores() << " cores hold a pool of 2 beside 2 more executions";
  }
  std::vector<std::atomic<int>> hits(1000);
  parallel_for(hits.size(), [&](size_t i) { hits[i].fetch_add(1); });
  for (size_t i = 0; i < hits.size(); ++i) {
    ASSERT_EQ(hits[i].load(), 1) << "index " << i;
  }
}

// One thread holds the pool inside a section until released; meanwhile the
// main thread's sections must finish, on the main thread, every index once.
class BusyPool : public SharedPool {
 protected:
  void SetUp() override {
    SharedPool::SetUp();
    if (IsSkipped()) {
      return;
    }
#ifndef PTHREADPOOL_HAS_SHARED_CALLERS
    GTEST_SKIP() << "pthreadpool without Ember's shared-callers patch serializes callers";
#endif
    holder_ = std::thread([this] {
      parallel_for(2, [this](size_t) {
        in_section_.fetch_add(1);
        (void)wait_for([this] { return release_.load(); }, std::chrono::seconds(20));
      });
      holder_done_.store(true);
    });
    // Both tasks started: the holder's section has both pool threads.
    ASSERT_TRUE(wait_for([this] { return in_section_.load() == 2; }, std::chrono::seconds(20)));
  }
  void TearDown() override {
    release_.store(true);
    if (holder_.joinable()) {
      holder_.join();
    }
    SharedPool::TearDown();
  }

  std::thread holder_;
  std::atomic<int> in_section_{0};
  std::atomic<bool> release_{false};
  std::atomic<bool> holder_done_{false};
};

TEST_F(BusyPool, ACallerDoesNotWaitForAnotherCallersSection) {
  const std::vector<std::thread::id> ran_on = threads_of_section(64);
  EXPECT_FALSE(holder_done_.load()) << "the section waited for the other caller's";
  for (const std::thread::id id : ran_on) {
    EXPECT_EQ(id, std::this_thread::get_id());
  }
}

#ifdef PTHREADPOOL_HAS_SHARED_CALLERS
struct Tiles {
  size_t rows, cols, tile_rows, tile_cols;
  std::vector<std::atomic<int>> hits;
};

void count_tile(void* context, size_t i, size_t j, size_t ti, size_t tj) {
  Tiles* t = static_cast<Tiles*>(context);
  for (size_t r = i; r < i + ti; ++r) {
    for (size_t c = j; c < j + tj; ++c) {
      t->hits[r * t->cols + c].fetch_add(1);
    }
  }
}

// XNNPACK calls pthreadpool's tiled forms directly: their parameters must
// reach the caller's own run (the patch copies them into its one-thread view).
TEST_F(BusyPool, TiledSectionsOnTheCallerCoverTheGridOnce) {
  Tiles t{37, 53, 4, 8, std::vector<std::atomic<int>>(37 * 53)};
  pthreadpool_parallelize_2d_tile_2d(shared_pthreadpool(), count_tile, &t, t.rows, t.cols,
                                     t.tile_rows, t.tile_cols, 0);
  EXPECT_FALSE(holder_done_.load());
  for (size_t k = 0; k < t.hits.size(); ++k) {
    ASSERT_EQ(t.hits[k].load(), 1) << "row " << k / t.cols << " col " << k % t.cols;
  }
}
#endif

}  // namespace
}  // namespace ember

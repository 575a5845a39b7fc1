// task_queue.h: every task runs exactly once for any worker count; each
// worker starts on its own range in order; a worker that starts late
// leaves its range to the others.
#include "kernels/math/task_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ember::math {
namespace {

TEST(TaskQueue, EveryTaskOnceForAnyWorkerCount) {
  for (size_t workers : {1, 2, 3, 7, 16, 20}) {
    for (size_t count : {0, 1, 5, 64, 1000}) {
      TaskQueue queue(count, workers);
      std::vector<std::atomic<int>> runs(count);
      std::vector<std::thread> threads;
      for (size_t w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
          for (size_t t; queue.take(w, &t);) runs[t].fetch_add(1);
        });
      }
      for (std::thread& t : threads) t.join();
      for (size_t t = 0; t < count; ++t) {
        ASSERT_EQ(runs[t].load(), 1) << "task " << t << " of " << count << ", " << workers
                                     << " workers";
      }
    }
  }
}

TEST(TaskQueue, OwnRangeFirstInOrder) {
  TaskQueue queue(10, 3);  // ranges [0, 3), [3, 6), [6, 10)
  size_t t = 0;
  ASSERT_TRUE(queue.take(1, &t));
  EXPECT_EQ(t, 3u);
  ASSERT_TRUE(queue.take(1, &t));
  EXPECT_EQ(t, 4u);
  ASSERT_TRUE(queue.take(2, &t));
  EXPECT_EQ(t, 6u);
  ASSERT_TRUE(queue.take(1, &t));
  EXPECT_EQ(t, 5u);
  // Worker 1's range is done: it goes on with the next untaken task of
  // the following range.
  ASSERT_TRUE(queue.take(1, &t));
  EXPECT_EQ(t, 7u);
}

TEST(TaskQueue, ALateWorkerLeavesItsRangeToTheOthers) {
  TaskQueue queue(100, 2);
  std::vector<size_t> taken;
  for (size_t t; queue.take(0, &t);) taken.push_back(t);
  // Worker 1 never started: worker 0 ran all 100, its own range first.
  ASSERT_EQ(taken.size(), 100u);
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(taken[i], i);
  size_t t = 0;
  EXPECT_FALSE(queue.take(1, &t));
}

}  // namespace
}  // namespace ember::math

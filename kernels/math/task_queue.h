// Tasks shared out among a call's workers: each worker's own range first,
// then whatever is left of the others'.
//
// A kernel that gives each worker its own scratch (an im2col block, a row
// ring) runs `workers` workers over the pool. Worker w starts on the w-th
// contiguous range of the tasks, in order, so consecutive tasks reuse its
// scratch as a fixed split would; when its range is done it takes the
// next untaken tasks of the other ranges. A worker on a slower or busier
// core (a little core, a vCPU whose host is loaded, a thread that woke
// late) then leaves its tail to the others instead of the call waiting
// for it. Results do not depend on which worker ran a task: a task
// rebuilds whatever scratch it reads (or reuses what the same worker built
// for an identical earlier task).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>

namespace ember::math {

class TaskQueue {
 public:
  // Workers past kMaxRanges share ranges (still each task once).
  static constexpr size_t kMaxRanges = 16;

  TaskQueue(size_t count, size_t workers)
      : ranges_(std::max<size_t>(1, std::min(workers, kMaxRanges))) {
    for (size_t r = 0; r < ranges_; ++r) {
      range_[r].next.store(count * r / ranges_, std::memory_order_relaxed);
      range_[r].end = count * (r + 1) / ranges_;
    }
  }
  // Worker w's next task into *task; false when none is left.
  bool take(size_t w, size_t* task) {
    const size_t own = w % ranges_;
    for (size_t i = 0; i < ranges_; ++i) {
      Range& r = range_[(own + i) % ranges_];
      if (r.next.load(std::memory_order_relaxed) >= r.end) continue;
      *task = r.next.fetch_add(1, std::memory_order_relaxed);
      if (*task < r.end) return true;
    }
    return false;
  }

 private:
  struct alignas(64) Range {
    std::atomic<size_t> next{0};
    size_t end = 0;
  };
  size_t ranges_;
  Range range_[kMaxRanges];
};

}  // namespace ember::math

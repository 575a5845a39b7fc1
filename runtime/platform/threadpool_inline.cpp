// The thread pool of a build without threads (EMBER_THREADS off, bare
// metal): one thread, every parallel section inline on the caller.
#include "runtime/platform/threadpool.h"

#include "runtime/platform/error_message.h"

namespace ember {

Error set_num_threads(size_t threads) {
  if (threads > 1) {
    set_error_message("this build has no threads (EMBER_THREADS off): asked for %zu", threads);
    return Error::NotSupported;
  }
  return Error::Ok;
}

size_t num_threads() { return 1; }

pthreadpool* shared_pthreadpool() { return nullptr; }

ExecutionInFlight::ExecutionInFlight() = default;
ExecutionInFlight::~ExecutionInFlight() = default;
size_t executions_in_flight() { return 0; }
size_t usable_cores() { return 1; }
bool parallel_sections_inline() { return true; }
void refresh_pool_sharing() {}

void parallel_for(size_t range, ParallelTask fn, void* context) {
  for (size_t i = 0; i < range; ++i) {
    fn(context, i);
  }
}

}  // namespace ember

// Product tool: executions per second with several application threads at once.
// throughput: several application threads ("streams") each executing their
// own copy of a model at once, with the shared pool at a given size; prints
// the executions per second of all streams together and each execution's
// latency. bench/compare_concurrency.py runs it over streams x pool sizes.
//
//   throughput --model_path=a.pte[,b.pte] [--inputs=a.npy[|b.npy]]
//              --streams=2 --threads=2 [--seconds=3] [--warmup=2] [--json]
//
// Stream s runs model s % (number of models), loaded by its own Module
// (mmap), so a camera model and an audio model can run side by side.
// Inputs: --inputs gives each model's executor_runner-style item list
// (items comma-separated, models separated by '|'); without it, every
// input is filled with ones.
#include <gflags/gflags.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "examples/executor_runner/runner_inputs.h"
#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"

DEFINE_string(model_path, "", "programs to run, comma-separated (stream s runs model s % n)");
DEFINE_string(inputs, "", "per model, its input items (as executor_runner's --inputs), '|'-separated");
DEFINE_uint64(streams, 1, "application threads, each executing its own Method");
DEFINE_uint64(threads, 1, "size of the shared thread pool (0: cores, up to 8)");
DEFINE_double(seconds, 3.0, "how long the streams execute together, after warm-up");
DEFINE_uint64(warmup, 2, "executions per stream before timing starts");
DEFINE_bool(json, false, "print one JSON object instead of the text report");

namespace {

using Clock = std::chrono::steady_clock;

struct Stream {
  std::string model;
  std::unique_ptr<ember::Module> module;
  ember::Method* method = nullptr;
  ember::runner::CommandLineInputs items;
  ember::InputBuffers ones;
  bool from_items = false;
  std::vector<double> latencies_ms;
  std::string error;
};

bool prepare(Stream& s, const std::string& items) {
  using namespace ember;
  Result<std::unique_ptr<Module>> module = Module::load(s.model, Module::LoadMode::Mmap);
  if (!module.ok()) return (s.error = last_error_message()), false;
  s.module = std::move(*module);
  Result<Method*> method = s.module->method("forward");
  if (!method.ok()) return (s.error = last_error_message()), false;
  s.method = *method;
  if (!items.empty()) {
    s.from_items = true;
    if (s.items.set(*s.method, runner::split_list(items, ',')) != Error::Ok) {
      return (s.error = last_error_message()), false;
    }
    return true;
  }
  Result<InputBuffers> ones = prepare_input_tensors(*s.method);
  if (!ones.ok()) return (s.error = last_error_message()), false;
  s.ones = std::move(*ones);
  return true;
}

bool execute_once(Stream& s) {
  if (s.from_items && s.items.reapply(*s.method) != ember::Error::Ok) {
    s.error = ember::last_error_message();
    return false;
  }
  if (s.method->execute() != ember::Error::Ok) {
    s.error = ember::last_error_message();
    return false;
  }
  return true;
}

// Warm-up, then wait for the start signal and execute until the stop time.
void run_stream(Stream& s, std::atomic<size_t>& ready, const std::atomic<bool>& go,
                const Clock::time_point* stop_at) {
  for (uint64_t i = 0; i < FLAGS_warmup && s.error.empty(); ++i) {
    (void)execute_once(s);
  }
  ready.fetch_add(1);
  while (!go.load()) {
    std::this_thread::yield();
  }
  while (s.error.empty() && Clock::now() < *stop_at) {
    const Clock::time_point t0 = Clock::now();
    if (!execute_once(s)) break;
    s.latencies_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t k = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[k];
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("throughput --model_path=A.pte[,B.pte] --streams=N --threads=P");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  using namespace ember;
  const std::vector<std::string> models = runner::split_list(FLAGS_model_path, ',');
  const std::vector<std::string> inputs =
      FLAGS_inputs.empty() ? std::vector<std::string>() : runner::split_list(FLAGS_inputs, '|');
  if (models.empty() || FLAGS_streams == 0 || FLAGS_seconds <= 0 ||
      (!inputs.empty() && inputs.size() != models.size())) {
    std::fprintf(stderr, "throughput: need --model_path, --streams >= 1, --seconds > 0, and "
                         "one --inputs list per model when --inputs is given\n");
    return 2;
  }
  if (set_num_threads(size_t(FLAGS_threads)) != Error::Ok) {
    std::fprintf(stderr, "throughput: set_num_threads: %s\n", last_error_message());
    return 2;
  }

  std::vector<Stream> streams(FLAGS_streams);
  for (size_t s = 0; s < streams.size(); ++s) {
    streams[s].model = models[s % models.size()];
    if (!prepare(streams[s], inputs.empty() ? std::string() : inputs[s % models.size()])) {
      std::fprintf(stderr, "throughput: %s: %s\n", streams[s].model.c_str(),
                   streams[s].error.c_str());
      return 2;
    }
  }

  std::atomic<size_t> ready{0};
  std::atomic<bool> go{false};
  Clock::time_point stop_at = Clock::time_point::max();
  std::vector<std::thread> threads;
  for (Stream& s : streams) {
    threads.emplace_back(run_stream, std::ref(s), std::ref(ready), std::cref(go), &stop_at);
  }
  while (ready.load() < streams.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const Clock::time_point start = Clock::now();
  stop_at = start + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(FLAGS_seconds));
  go.store(true);  // publishes stop_at
  for (std::thread& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  size_t executions = 0;
  std::vector<double> all;
  for (const Stream& s : streams) {
    if (!s.error.empty()) {
      std::fprintf(stderr, "throughput: %s: %s\n", s.model.c_str(), s.error.c_str());
      return 2;
    }
    executions += s.latencies_ms.size();
    all.insert(all.end(), s.latencies_ms.begin(), s.latencies_ms.end());
  }
  const double per_s = double(executions) / elapsed;
  if (FLAGS_json) {
    std::printf("{\"streams\": %zu, \"threads\": %zu, \"usable_cores\": %zu, \"models\": %zu, "
                "\"seconds\": %.3f, \"executions\": %zu, \"executions_per_s\": %.3f, "
                "\"latency_ms\": {\"median\": %.3f, \"p90\": %.3f, \"max\": %.3f}}\n",
                streams.size(), num_threads(), usable_cores(), models.size(), elapsed,
                executions, per_s, percentile(all, 0.5), percentile(all, 0.9),
                percentile(all, 1.0));
  } else {
    std::printf("throughput: %zu streams, pool of %zu threads, %zu usable cores: %zu executions "
                "in %.2f s = %.2f/s; latency median %.2f ms, p90 %.2f ms\n",
                streams.size(), num_threads(), usable_cores(), executions, elapsed, per_s,
                percentile(all, 0.5), percentile(all, 0.9));
  }
  return 0;
}

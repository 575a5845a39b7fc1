// Product tool: checks that memory does not grow over many executions.
// soak: runs one method of a program many times in one process and watches
// the resident set size, to catch memory that grows with executions (a
// leak in a kernel, a delegate or the runtime).
//
//   soak --model_path=test/models/xnnpack/tiny_cnn.bpte --iterations=10000
//
// The model is a .pte (inputs: ones, as executor_runner's default) or a
// .bpte (its first test case's inputs, and every sample checks the
// outputs against the case's expected values at --rtol/--atol). RSS is
// read from /proc/self/statm every --sample_every executions and printed;
// the growth is the largest sample after --warmup executions minus the
// sample taken at --warmup. Exit status: 0 when the growth is at most
// --max_growth_kb, 1 when it is larger, 2 on any error (load, execute, a
// wrong output).
#include <gflags/gflags.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"

DEFINE_string(model_path, "", "program to run (.pte or .bpte)");
DEFINE_string(method, "forward", "method to run");
DEFINE_uint64(iterations, 10000, "executions in all");
DEFINE_uint64(warmup, 1000, "executions before the reference RSS sample");
DEFINE_uint64(sample_every, 500, "executions between RSS samples");
DEFINE_uint64(max_growth_kb, 1024, "largest RSS growth after warm-up that passes (KiB)");
DEFINE_uint64(threads, 2, "size of the shared thread pool (0: cores, up to 8)");
DEFINE_double(rtol, 1e-3, ".bpte: relative tolerance of the output check");
DEFINE_double(atol, 1e-4, ".bpte: absolute tolerance of the output check");

namespace {

// Resident set size in KiB (/proc/self/statm: size resident shared ...,
// in pages); 0 if it cannot be read.
size_t rss_kb() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (n != 2) return 0;
  return size_t(resident) * size_t(sysconf(_SC_PAGESIZE)) / 1024;
}

int fail(const char* what) {
  std::fprintf(stderr, "soak: %s: %s\n", what, ember::last_error_message());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("soak --model_path=PATH [--iterations=N ...]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  using namespace ember;
  if (FLAGS_model_path.empty() || FLAGS_sample_every == 0 || FLAGS_warmup > FLAGS_iterations) {
    std::fprintf(stderr, "soak: need --model_path, --sample_every > 0, --warmup <= --iterations\n");
    return 2;
  }
  if (set_num_threads(size_t(FLAGS_threads)) != Error::Ok) return fail("set_num_threads");

  // Read into memory once (Module opens a .pte or a .bpte alike), so
  // that the RSS samples do not count file pages mapped on first touch.
  Result<std::unique_ptr<Module>> module =
      Module::load(FLAGS_model_path, Module::LoadMode::Buffer);
  if (!module.ok()) return fail("load");
  const BundledProgram* bundle = (*module)->bundle();
  Result<Method*> loaded = (*module)->method(FLAGS_method);
  if (!loaded.ok()) return fail("load method");
  Method& method = **loaded;
  InputBuffers inputs;
  if (bundle == nullptr) {
    Result<InputBuffers> ones = prepare_input_tensors(method);
    if (!ones.ok()) return fail("inputs");
    inputs = std::move(*ones);
  }

  std::printf("soak: %s, method %s, %llu executions, pool of %zu threads\n",
              FLAGS_model_path.c_str(), FLAGS_method.c_str(),
              static_cast<unsigned long long>(FLAGS_iterations), num_threads());
  std::printf("%10s %10s\n", "executions", "rss_kb");
  size_t at_warmup = rss_kb();  // replaced at --warmup when that is > 0
  size_t peak_after = at_warmup;
  std::printf("%10d %10zu\n", 0, at_warmup);
  for (uint64_t i = 1; i <= FLAGS_iterations; ++i) {
    // A bundled case sets its inputs every time (planned input memory may
    // be reused by later values); ones stay bound.
    if (bundle != nullptr && (*module)->load_bundled_input(FLAGS_method, 0) != Error::Ok) {
      return fail("set input");
    }
    if (method.execute() != Error::Ok) return fail("execute");
    if (i % FLAGS_sample_every != 0 && i != FLAGS_warmup && i != FLAGS_iterations) continue;
    if (bundle != nullptr) {
      Result<VerifyReport> check = (*module)->verify_outputs(FLAGS_method, 0, FLAGS_rtol,
                                                             FLAGS_atol);
      if (!check.ok()) return fail("output check");
      if (!check->passed) {
        std::fprintf(stderr, "soak: output check: %s\n", check->message.c_str());
        return 2;
      }
    }
    const size_t rss = rss_kb();
    std::printf("%10llu %10zu\n", static_cast<unsigned long long>(i), rss);
    if (i == FLAGS_warmup) at_warmup = rss;
    if (i >= FLAGS_warmup) peak_after = std::max(peak_after, rss);
  }
  const size_t growth = peak_after > at_warmup ? peak_after - at_warmup : 0;
  std::printf("soak: RSS %zu KiB after %llu warm-up executions, %zu KiB at the end, "
              "growth %zu KiB (limit %llu KiB): %s\n",
              at_warmup, static_cast<unsigned long long>(FLAGS_warmup), rss_kb(), growth,
              static_cast<unsigned long long>(FLAGS_max_growth_kb),
              growth <= FLAGS_max_growth_kb ? "ok" : "GROWS");
  std::fflush(stdout);
  return growth <= FLAGS_max_growth_kb ? 0 : 1;
}

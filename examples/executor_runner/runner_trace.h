// executor_runner: event tracing (issue 13). The flags --etdump_path,
// --debug_buffer_path, --debug_buffer_size, --dump_intermediate_outputs,
// --dump_outputs, --profile, --intermediates_dir and
// --compare_intermediates are defined in runner_trace.cpp; any of them
// makes the runner create one EventRecorder (devtools/event_recorder.h)
// for the whole session and attach it to every method when it loads.
//
// After the runs, finish() writes the ETDump and the debug buffer, prints
// the profile table (runner_profile.h), writes the intermediate outputs and
// compares them with goldens (runner_intermediates.h), and warns on stderr
// when the recorder dropped events or tensors (naming the flag to raise).
//
// The recorder's buffers live on the heap here (the runner is outside the
// core), reserved without being touched, so an unused part costs no memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "devtools/event_recorder.h"
#include "examples/executor_runner/runner_report.h"
#include "runtime/executor/program.h"

namespace ember::runner {

class TraceSession {
 public:
  // Whether any tracing flag was given.
  static bool requested();
  // 2 (bad flags) with a message on stderr, else 0. Call after gflags.
  static int check_flags();

  // Reserves the buffers for `methods` run `executions` times in all
  // (test cases x --num_executions) and creates the recorder. Returns 0,
  // or 1 after an "error: ..." line when the memory cannot be had.
  int start(const Program& program, const std::vector<std::string>& methods,
             size_t executions, int num_executions);

  // The tracer to attach when `method` loads (null when tracing is off).
  // Call right before the load: it notes which recorded blocks are the
  // method's.
  EventTracer* tracer_for_load(const std::string& method);

  // Writes and prints everything asked for. Returns 0, or 1 after an
  // "error: ..." line when a file cannot be written or a golden directory
  // cannot be read. `summary` receives the JSON sections for --report.
  int finish(const Program& program, double rtol, double atol, bool verbose,
             RunSummary& summary);

  // After finish(): some intermediate output is outside tolerance of its
  // golden; the text names the first one.
  bool comparison_failed() const { return comparison_failed_; }
  const std::string& first_divergence() const { return first_divergence_; }

 private:
  struct MethodBlocks {
    std::string method;
    size_t first_block = 0;  // the load's "Default" block
  };

  // finish()'s last step: --intermediates_dir and --compare_intermediates
  // on `block`, the first execution of `method`. 0, or 1 after an error line.
  int report_intermediates(const Program& program, const std::string& method, size_t block,
                           double rtol, double atol, RunSummary& summary);

  std::unique_ptr<uint8_t[]> event_memory_;
  std::unique_ptr<uint8_t[]> debug_memory_;
  size_t event_bytes_ = 0;
  size_t debug_bytes_ = 0;
  bool debug_size_automatic_ = false;
  std::unique_ptr<devtools::EventRecorder> recorder_;
  std::vector<MethodBlocks> loads_;
  int num_executions_ = 1;
  bool comparison_failed_ = false;
  std::string first_divergence_;
};

}  // namespace ember::runner

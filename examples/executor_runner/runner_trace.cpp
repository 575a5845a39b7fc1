#include "examples/executor_runner/runner_trace.h"

#include <gflags/gflags.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

#include "devtools/etdump/etdump_writer.h"
#include "examples/executor_runner/runner_intermediates.h"
#include "examples/executor_runner/runner_profile.h"
#include "examples/executor_runner/runner_program_info.h"
#include "runtime/core/error_message.h"

DEFINE_string(etdump_path, "",
              "Write an ETDump (upstream's format, which its Python Inspector reads) of "
              "every method load and execution to this file.");
DEFINE_string(debug_buffer_path, "",
              "Write the debug buffer (the logged tensors the ETDump refers to) to this "
              "file.");
DEFINE_int64(debug_buffer_size, 0,
             "Bytes of memory for logged tensors (0: automatic, 512 MiB with intermediate "
             "outputs, 64 MiB with program outputs only). Tensors that do not fit are "
             "counted and reported.");
DEFINE_int64(event_buffer_size, 0,
             "Bytes of memory for recorded events (0: automatic, from the instruction "
             "count and the number of executions, at least 64 MiB).");
DEFINE_bool(dump_intermediate_outputs, false,
            "Log every kernel's outputs and every delegate call's arguments (debug level "
            "IntermediateOutputs; fused operator sequences then run unfused).");
DEFINE_bool(dump_outputs, false, "Log the method's outputs after each execution.");
DEFINE_bool(profile, false,
            "Print a per-operator time table after the runs (per instruction with "
            "--verbose; into --report as \"profile\").");
DEFINE_string(intermediates_dir, "",
              "Write the outputs of every instruction of the first execution (of the first "
              "method and test case) as .npy files, with DIR/index.json.");
DEFINE_string(compare_intermediates, "",
              "Compare the outputs of every instruction of the first execution with the "
              "goldens listed in DIR/index.json (matched by key) using --rtol/--atol, and "
              "name the first instruction outside tolerance (exit status 1).");

namespace ember::runner {
namespace {

constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kMinEventBytes = 64 * kMiB;
constexpr size_t kMaxAutoEventBytes = size_t(4) << 30;
// Bytes of the event buffer one instruction may use per execution: an
// instruction event, an operator event and a logged value with its shape.
constexpr size_t kEventBytesPerInstruction = 512;
constexpr size_t kIntermediatesDebugBytes = 512 * kMiB;
constexpr size_t kOutputsDebugBytes = 64 * kMiB;

bool intermediates_wanted() {
  return FLAGS_dump_intermediate_outputs || !FLAGS_intermediates_dir.empty() ||
         !FLAGS_compare_intermediates.empty();
}

EventTracerDebugLevel debug_level() {
  if (intermediates_wanted()) return EventTracerDebugLevel::IntermediateOutputs;
  if (FLAGS_dump_outputs) return EventTracerDebugLevel::ProgramOutputs;
  return EventTracerDebugLevel::None;
}

// A warning or error line on stderr, after everything printed on stdout.
void print_err(const char* format, ...) EMBER_PRINTF_LIKE(1, 2);
void print_err(const char* format, ...) {
  fflush(stdout);
  va_list args;
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
}

int write_bytes(const std::string& path, const uint8_t* data, size_t size,
                const char* flag) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  if (!out.good()) {
    print_err("error: --%s: cannot write '%s'\n", flag, printable(path).c_str());
    return 1;
  }
  return 0;
}

// Memory for the recorder: reserved, not touched (pages come on first use).
std::unique_ptr<uint8_t[]> reserve(size_t bytes) {
  return bytes == 0 ? nullptr : std::unique_ptr<uint8_t[]>(new (std::nothrow) uint8_t[bytes]);
}

}  // namespace

bool TraceSession::requested() {
  return !FLAGS_etdump_path.empty() || !FLAGS_debug_buffer_path.empty() ||
         FLAGS_dump_intermediate_outputs || FLAGS_dump_outputs || FLAGS_profile ||
         !FLAGS_intermediates_dir.empty() || !FLAGS_compare_intermediates.empty();
}

int TraceSession::check_flags() {
  if (FLAGS_debug_buffer_size < 0 || FLAGS_event_buffer_size < 0) {
    print_err("error: --debug_buffer_size and --event_buffer_size must not be negative\n");
    return 2;
  }
  if (FLAGS_event_buffer_size != 0 && FLAGS_event_buffer_size < 4096) {
    print_err("error: --event_buffer_size must be 0 (automatic) or at least 4096\n");
    return 2;
  }
  return 0;
}

int TraceSession::start(const Program& program, const std::vector<std::string>& methods,
                        size_t executions, int num_executions) {
  num_executions_ = num_executions;
  if (FLAGS_event_buffer_size > 0) {
    event_bytes_ = size_t(FLAGS_event_buffer_size);
  } else {
    size_t instructions = 0;
    for (const std::string& name : methods) {
      Result<MethodMeta> meta = program.method_meta(name.c_str());
      if (meta.ok()) instructions += meta->num_instructions();
    }
    const double want = double(instructions) * double(executions + 1) *
                            double(kEventBytesPerInstruction) + double(kMiB);
    event_bytes_ = std::max(kMinEventBytes,
                            size_t(std::min(want, double(kMaxAutoEventBytes))));
  }
  const EventTracerDebugLevel level = debug_level();
  if (FLAGS_debug_buffer_size > 0) {
    debug_bytes_ = size_t(FLAGS_debug_buffer_size);
  } else if (level != EventTracerDebugLevel::None) {
    debug_size_automatic_ = true;
    debug_bytes_ = level == EventTracerDebugLevel::IntermediateOutputs
                       ? kIntermediatesDebugBytes
                       : kOutputsDebugBytes;
  }
  event_memory_ = reserve(event_bytes_);
  debug_memory_ = reserve(debug_bytes_);
  if (event_memory_ == nullptr || (debug_bytes_ != 0 && debug_memory_ == nullptr)) {
    print_err("error: cannot allocate %zu bytes of event buffer and %zu of debug buffer; "
              "lower --event_buffer_size / --debug_buffer_size\n",
              event_bytes_, debug_bytes_);
    return 1;
  }
  recorder_ = std::make_unique<devtools::EventRecorder>(
      Span<uint8_t>(event_memory_.get(), event_bytes_),
      Span<uint8_t>(debug_memory_.get(), debug_bytes_));
  recorder_->set_debug_level(level);
  return 0;
}

EventTracer* TraceSession::tracer_for_load(const std::string& method) {
  if (recorder_ == nullptr) return nullptr;
  loads_.push_back({method, recorder_->num_blocks()});
  return recorder_.get();
}

namespace {

// The "Execute" blocks of each method, in order. Block b belongs to the
// method whose load came last before it.
std::vector<size_t> execute_blocks(const devtools::EventRecorder& recorder, size_t first,
                                   size_t last) {
  std::vector<size_t> blocks;
  for (size_t b = first; b < last && b < recorder.num_blocks(); ++b) {
    if (std::strcmp(recorder.block(b).name, "Execute") == 0) blocks.push_back(b);
  }
  return blocks;
}

// A loaded method and its Execute blocks.
struct MethodRuns {
  std::string method;
  std::vector<size_t> blocks;
};

void print_tracing_note() {
  printf("Note: an event tracer was attached to every run (debug level: %s); the timings "
         "include its cost.\n",
         debug_level() == EventTracerDebugLevel::IntermediateOutputs ? "intermediate outputs"
         : debug_level() == EventTracerDebugLevel::ProgramOutputs    ? "program outputs"
                                                                     : "none");
}

// Warnings when the recorder dropped events or tensors, naming the flag to raise.
void warn_if_dropped(const devtools::EventRecorder& rec, size_t event_bytes, size_t debug_bytes,
                     bool debug_size_automatic) {
  if (rec.dropped_events() != 0) {
    print_err("warning: the event buffer (%zu bytes) was full: %zu events dropped, so the "
              "ETDump and profile are incomplete; raise --event_buffer_size (or lower "
              "--num_executions)\n",
              event_bytes, rec.dropped_events());
  }
  if (rec.dropped_tensors() != 0) {
    print_err("warning: the debug buffer (%zu bytes%s) was full: %zu tensors were not stored "
              "(recorded with their shape only); raise --debug_buffer_size\n",
              debug_bytes, debug_size_automatic ? ", automatic" : "", rec.dropped_tensors());
  }
}

// --etdump_path: 0 (also when not asked for), or 1 after an error line.
int write_etdump_file(const devtools::EventRecorder& rec) {
  if (FLAGS_etdump_path.empty()) return 0;
  Result<std::vector<uint8_t>> etdump = devtools::write_etdump(rec);
  if (!etdump.ok()) {
    print_err("error: --etdump_path: %s: %s\n", error_name(etdump.error()),
              printable(last_error_message()).c_str());
    return 1;
  }
  if (write_bytes(FLAGS_etdump_path, etdump->data(), etdump->size(), "etdump_path")) return 1;
  printf("ETDump written to %s (%zu bytes: %zu blocks, %zu events)\n",
         printable(FLAGS_etdump_path).c_str(), etdump->size(), rec.num_blocks(),
         rec.num_events());
  if (rec.debug_buffer().size() != 0 && FLAGS_debug_buffer_path.empty()) {
    print_err("warning: the ETDump refers to %zu bytes of logged tensors; give "
              "--debug_buffer_path to write them\n",
              rec.debug_buffer().size());
  }
  return 0;
}

// --debug_buffer_path: 0 (also when not asked for), or 1 after an error line.
int write_debug_buffer_file(const devtools::EventRecorder& rec) {
  if (FLAGS_debug_buffer_path.empty()) return 0;
  const Span<const uint8_t> debug = rec.debug_buffer();
  if (write_bytes(FLAGS_debug_buffer_path, debug.data(), debug.size(), "debug_buffer_path")) {
    return 1;
  }
  printf("Debug buffer written to %s (%zu bytes)\n", printable(FLAGS_debug_buffer_path).c_str(),
         debug.size());
  return 0;
}

// --profile: a table per method, and the report's "profile" section.
void report_profiles(const devtools::EventRecorder& rec, const Program& program,
                     const std::vector<MethodRuns>& runs, bool verbose, RunSummary& summary) {
  const TracingCost cost = measure_tracing_cost();
  const std::string note =
      intermediates_wanted()
          ? "Note: intermediate outputs were logged while timing (tensors copied, fused "
            "sequences unfused): times include that work."
          : "";
  nlohmann::json profiles = nlohmann::json::array();
  for (const MethodRuns& r : runs) {
    const MethodProfile p = build_profile(rec, program, r.method, r.blocks, cost);
    print_profile(p, verbose, note, stdout);
    profiles.push_back(profile_json(p));
  }
  summary.extra_json.emplace_back(
      "profile", nlohmann::json{{"note", note}, {"methods", profiles}}.dump(
                     -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// "method 'forward', test case 0, execution 1 of 3" (no test case for a
// plain program).
std::string first_run_text(const std::string& method, int32_t test_case, int num_executions) {
  return "method '" + printable(method) + "', " +
         (test_case >= 0 ? "test case " + std::to_string(test_case) + ", " : std::string()) +
         "execution 1 of " + std::to_string(num_executions);
}

// What was collected, and a warning when tensors did not fit.
void print_intermediate_counts(const std::string& which, const IntermediateSet& set,
                               size_t debug_bytes) {
  printf("\nIntermediate outputs of %s: %zu tensors", which.c_str(), set.entries.size());
  if (set.non_tensor_values) printf(", %zu non-tensor values (no file)", set.non_tensor_values);
  if (set.delegate_step_outputs) {
    printf(", %zu delegate step outputs (not in the index)", set.delegate_step_outputs);
  }
  if (set.repeated_visits) {
    printf(", %zu repeated instruction runs (first kept)", set.repeated_visits);
  }
  printf(".\n");
  if (set.not_stored) {
    print_err("warning: %zu intermediate tensors did not fit in the debug buffer (%zu "
              "bytes); raise --debug_buffer_size\n",
              set.not_stored, debug_bytes);
  }
}

// --intermediates_dir: the .npy files and index.json; 0, or 1 after an
// error line.
int write_intermediates_dir(const IntermediateSet& set, const std::string& model_path,
                            nlohmann::json& section) {
  size_t written = 0, skipped = 0;
  const std::string program_name = std::filesystem::path(model_path).filename().string();
  if (write_intermediates(FLAGS_intermediates_dir, program_name, set, &written, &skipped) !=
      Error::Ok) {
    print_err("error: --intermediates_dir: %s\n", printable(last_error_message()).c_str());
    return 1;
  }
  printf("Wrote %zu .npy files and index.json to %s%s\n", written,
         printable(FLAGS_intermediates_dir).c_str(),
         skipped ? (" (" + std::to_string(skipped) +
                    " tensors without data or a .npy dtype skipped)")
                       .c_str()
                 : "");
  section["dir"] = FLAGS_intermediates_dir;
  section["files_written"] = written;
  return 0;
}

// --compare_intermediates: the comparison with the goldens; 0, or 1 after
// an error line. Sets *failed and *first_divergence when one is outside
// tolerance.
int compare_with_goldens(const IntermediateSet& set, double rtol, double atol,
                         nlohmann::json& section, bool* failed, std::string* first_divergence) {
  Result<ComparisonReport> report =
      compare_intermediates(FLAGS_compare_intermediates, set, rtol, atol);
  if (!report.ok()) {
    print_err("error: --compare_intermediates: %s\n", printable(last_error_message()).c_str());
    return 1;
  }
  print_comparison(*report, rtol, atol, stdout);
  section["comparison"] = comparison_json(*report, rtol, atol);
  if (report->first_failure >= 0) {
    *failed = true;
    *first_divergence = divergence_text(report->rows[size_t(report->first_failure)]);
  }
  return 0;
}

}  // namespace

int TraceSession::finish(const Program& program, double rtol, double atol, bool verbose,
                         RunSummary& summary) {
  if (recorder_ == nullptr) return 0;
  const devtools::EventRecorder& rec = *recorder_;
  print_tracing_note();
  warn_if_dropped(rec, event_bytes_, debug_bytes_, debug_size_automatic_);
  if (write_etdump_file(rec) != 0 || write_debug_buffer_file(rec) != 0) return 1;

  // Which Execute blocks belong to which method.
  std::vector<MethodRuns> runs;
  for (size_t i = 0; i < loads_.size(); ++i) {
    const size_t last = i + 1 < loads_.size() ? loads_[i + 1].first_block : rec.num_blocks();
    runs.push_back({loads_[i].method, execute_blocks(rec, loads_[i].first_block, last)});
  }
  if (FLAGS_profile) report_profiles(rec, program, runs, verbose, summary);

  if (FLAGS_intermediates_dir.empty() && FLAGS_compare_intermediates.empty()) return 0;
  if (runs.empty() || runs[0].blocks.empty()) {
    print_err("error: no execution was recorded to take intermediate outputs from\n");
    return 1;
  }
  return report_intermediates(program, runs[0].method, runs[0].blocks[0], rtol, atol, summary);
}

int TraceSession::report_intermediates(const Program& program, const std::string& method,
                                       size_t block, double rtol, double atol,
                                       RunSummary& summary) {
  const devtools::EventRecorder& rec = *recorder_;
  const std::string which =
      first_run_text(method, rec.block(block).bundled_input_index, num_executions_);
  const IntermediateSet set = collect_intermediates(rec, program, method, block);
  print_intermediate_counts(which, set, debug_bytes_);
  nlohmann::json section = {{"run", which}, {"tensors", set.entries.size()}};
  if (!FLAGS_intermediates_dir.empty() &&
      write_intermediates_dir(set, summary.model_path, section) != 0) {
    return 1;
  }
  if (!FLAGS_compare_intermediates.empty() &&
      compare_with_goldens(set, rtol, atol, section, &comparison_failed_, &first_divergence_) !=
          0) {
    return 1;
  }
  summary.extra_json.emplace_back(
      "intermediates", section.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return 0;
}

}  // namespace ember::runner

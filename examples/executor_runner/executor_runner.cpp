// Product tool: runs any .pte or verifies any .bpte, with upstream's runner flags.
// executor_runner: runs a .pte or verifies a .bpte.
//
//   executor_runner --model_path=model.pte [--inputs=a.npy,b.bin,3]
//   executor_runner --model_path=model.bpte [--testset_idx=N] [--report=r.json]
//
// The file kind is detected from its content (identifier "BP08"), not its
// extension. A .pte runs --method_name, or the program's first method
// (upstream's rule), with inputs from --inputs, or ones (upstream's
// default), and prints its outputs (--print_output). A .bpte runs every
// test case (or --testset_idx) of every method that has test cases (or
// --method_name), and compares the outputs with the bundled expected
// outputs (rules: bundled_program/bundled_program.h). --inputs with a .bpte
// runs those inputs instead, without verification. Upstream's flag names
// --cpu_threads, --bundleio_rtol and --bundleio_atol are aliases of
// --threads, --rtol and --atol.
//
// Prints a verification table and timings (program load, method load, and
// min/median per execution) on stdout. Exit status 0 only when everything
// ran and every verified output passed; otherwise 1 (2 for bad flags) with
// one "error: ..." line on stderr naming the cause.
//
// Tracing (runner_trace.h): --profile prints a per-operator time table,
// --etdump_path / --debug_buffer_path write upstream's ETDump and debug
// buffer, --intermediates_dir writes every instruction's outputs as .npy,
// --compare_intermediates=GOLDEN_DIR compares them with goldens and names
// the first instruction outside --rtol/--atol (exit status 1).
//
// Command line parsing uses gflags (Debian's libgflags-dev), like the
// upstream runner, so flag names and syntax carry over.
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "examples/executor_runner/runner_inputs.h"
#include "examples/executor_runner/runner_memory.h"
#include "examples/executor_runner/runner_report.h"
#include "examples/executor_runner/runner_trace.h"
#include "extension/module/module.h"
#include "extension/runner_util/cpu_level.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/log.h"
#include "runtime/platform/threadpool.h"

DEFINE_string(model_path, "model.pte", "Program (.pte) or bundled program (.bpte) to run.");
DEFINE_string(method_name, "",
              "Method to execute. Default: every method with test cases for a "
              ".bpte, the program's first method for a .pte (upstream's rule).");
DEFINE_int32(testset_idx, -1, "Bundled test case to run (default: all of them).");
DEFINE_double(rtol, ember::kDefaultBundledRtol, "Relative tolerance for verification.");
DEFINE_double(atol, ember::kDefaultBundledAtol, "Absolute tolerance for verification.");
DEFINE_double(bundleio_rtol, ember::kDefaultBundledRtol,
              "Alias of --rtol (upstream's runner's name).");
DEFINE_double(bundleio_atol, ember::kDefaultBundledAtol,
              "Alias of --atol (upstream's runner's name).");
DEFINE_string(inputs, "",
              "Comma-separated method inputs: .npy files (dtype and shape checked), "
              ".bin files (raw bytes, size checked), or scalar literals.");
DEFINE_string(output_file, "",
              "Write outputs as .npy: PREFIX-<i>.npy for a single run, else "
              "PREFIX-<method>-<case>-<i>.npy (<case> is the test case or 'inputs').");
DEFINE_int32(num_executions, 1, "Times to execute each method / test case.");
DEFINE_int32(threads, 0,
             "Worker threads for threaded kernels and the XNNPACK delegate (0: the number "
             "of cores, at most 8).");
DEFINE_int32(cpu_threads, -1,
             "Alias of --threads (upstream's runner's name); -1: the default, as "
             "--threads=0.");
DEFINE_string(cpu_features, "", ember::runner::cpu_features_flag_help());
DEFINE_bool(cpu_levels, false,
            "Print the CPU levels --cpu_features accepts, which of them this CPU covers, "
            "and exit.");
DEFINE_string(print_output, "summary",
              "What to print of the outputs: none, summary (per output, its first and "
              "last 100 elements) or all (every element). Default for a .pte: summary; "
              "a .bpte prints its verification table, and its outputs only when this "
              "flag is given.");
DEFINE_string(report, "", "Write the verification report as JSON to this file.");
DEFINE_string(loader, "mmap",
              "Data loader: file, mmap, mmap_mlock (mmap with the loaded pages locked; "
              "a refused mlock fails the load), mmap_mlock_ignore_errors (locked where "
              "allowed) or buffer (the whole file read into memory).");
DEFINE_bool(fusion, true,
            "Run fused operator sequences (convolution + batch norm + activation) as one; "
            "false runs every operator call as written.");
DEFINE_bool(prepare_operands, true,
            "Pack constant operands (linear layers' weights) for their kernels once at "
            "load, skipping their per-run transpose; false runs the program as written.");
DEFINE_bool(kernel_prepare, true,
            "Check and size each kernel call with static shapes once at load, and skip "
            "those checks when it runs; false checks at every call (for comparisons).");
DEFINE_bool(full_verification, false,
            "Verify the whole program at load (InternalConsistency).");
DEFINE_string(data_path, "",
              "External data files (.ptd) holding the program's weights, comma-separated; "
              "keys are looked up in them in order. Opened with --loader.");
DEFINE_bool(memory_report, false,
            "Print where memory goes: RSS before and after the program and each method "
            "load and its executions, the peak and its growth, planned buffers, method "
            "allocator, and the XNNPACK delegates' packed weights and released constants.");
DEFINE_bool(verbose, false,
            "Print the runtime's debug log (e.g. how the XNNPACK delegate split its graph), "
            "and with --profile the time of every instruction.");

namespace {

using namespace ember;
using Clock = std::chrono::steady_clock;

// The shared pool size after --threads.
int g_threads = 0;
// --print_output, parsed.
runner::PrintOutput g_print_output = runner::PrintOutput::Summary;

bool flag_given(const char* name) {
  return !gflags::GetCommandLineFlagInfoOrDie(name).is_default;
}

// A name read from a file (a method or test suite name), escaped for
// printing.
std::string shown(const std::string& name) { return PrintableName(name.c_str()).c_str(); }

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string error_text(const std::string& what, Error error) {
  const char* message = last_error_message();
  return what + ": " + error_name(error) + (message[0] ? ": " : "") + message;
}

// Every byte outside printable ASCII written as \xNN: the last line of
// defence for a name from a file that a message did not escape itself
// (backslashes are kept, so escaped text is not escaped twice).
std::string terminal_safe(const std::string& line) {
  std::string out;
  for (const unsigned char c : line) {
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char hex[5];
      snprintf(hex, sizeof(hex), "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

int fail(const std::string& line) {
  fflush(stdout);  // the error line after what was printed before it, on a line of its own
  fprintf(stderr, "error: %s\n", terminal_safe(line).c_str());
  return 1;
}

// What one run of the runner found and loaded, handed from step to step.
struct Session {
  runner::RunSummary summary;
  std::unique_ptr<Module> module;
  const BundledProgram* bundle = nullptr;  // the module's, null for a .pte
  std::vector<std::string> methods;
  std::vector<std::string> inputs;  // --inputs, split
  bool use_bundle_inputs = false;   // run the bundled test cases
  bool single = false;              // one run in all (output file names)
  size_t total_runs = 0;            // method runs (test cases or --inputs)
  runner::TraceSession trace;       // --profile, --etdump_path, ... (runner_trace.h)
  runner::MemoryReport memory;      // --memory_report (runner_memory.h)
  size_t failed_outputs = 0;
  size_t total_outputs = 0;
  std::string first_failure;
};

// Runs `method` num_executions times, timing each execute() alone.
// Inputs are set again before every execution (`set_inputs`, untimed):
// memory planning may let an output overwrite an input's buffer.
Error execute_timed(Method& method, runner::CaseResult& c,
                    const std::function<Error()>& set_inputs) {
  for (int i = 0; i < FLAGS_num_executions; ++i) {
    EMBER_RETURN_IF_ERROR(set_inputs());
    const auto start = Clock::now();
    const Error err = method.execute();
    c.execute_ms.push_back(ms_since(start));
    if (err != Error::Ok) return err;
  }
  return Error::Ok;
}

std::string output_path(const std::string& method, const std::string& run, size_t i,
                        bool single) {
  if (single) return FLAGS_output_file + "-" + std::to_string(i) + ".npy";
  return FLAGS_output_file + "-" + method + "-" + run + "-" + std::to_string(i) + ".npy";
}

Error write_outputs(const Method& method, const std::string& run, bool single) {
  if (FLAGS_output_file.empty()) return Error::Ok;
  for (size_t i = 0; i < method.outputs_size(); ++i) {
    EMBER_RETURN_IF_ERROR(
        runner::write_output_npy(method, i, output_path(method.name(), run, i, single)));
  }
  return Error::Ok;
}

// --loader, parsed.
Module::LoadMode g_load_mode = Module::LoadMode::Mmap;

int check_flags() {
  if (!Module::parse_load_mode(FLAGS_loader, &g_load_mode)) {
    fprintf(stderr, "error: --loader must be %s\n", Module::load_mode_names());
    return 2;
  }
  if (FLAGS_num_executions < 1) {
    fprintf(stderr, "error: --num_executions must be at least 1\n");
    return 2;
  }
  if (FLAGS_threads < 0) {
    fprintf(stderr, "error: --threads must not be negative\n");
    return 2;
  }
  if (!(FLAGS_rtol >= 0.0) || !(FLAGS_atol >= 0.0)) {
    fprintf(stderr, "error: --rtol and --atol must be non-negative numbers\n");
    return 2;
  }
  return runner::TraceSession::check_flags();
}

// Upstream's flag names (--cpu_threads, --bundleio_rtol, --bundleio_atol)
// onto Ember's, and --print_output parsed. Runs before check_flags.
int apply_upstream_flags() {
  struct Alias {
    const char* upstream;
    const char* ember;
  };
  for (const Alias& a : {Alias{"cpu_threads", "threads"}, Alias{"bundleio_rtol", "rtol"},
                         Alias{"bundleio_atol", "atol"}}) {
    if (!flag_given(a.upstream)) continue;
    const std::string value = gflags::GetCommandLineFlagInfoOrDie(a.upstream).current_value;
    if (flag_given(a.ember) &&
        gflags::GetCommandLineFlagInfoOrDie(a.ember).current_value != value) {
      fprintf(stderr, "error: --%s and --%s are the same setting; give one of them\n",
              a.upstream, a.ember);
      return 2;
    }
  }
  if (flag_given("cpu_threads")) {
    if (FLAGS_cpu_threads < -1) {
      fprintf(stderr, "error: --cpu_threads must be -1 (the default) or at least 0\n");
      return 2;
    }
    FLAGS_threads = FLAGS_cpu_threads == -1 ? 0 : FLAGS_cpu_threads;
  }
  if (flag_given("bundleio_rtol")) FLAGS_rtol = FLAGS_bundleio_rtol;
  if (flag_given("bundleio_atol")) FLAGS_atol = FLAGS_bundleio_atol;
  if (!runner::parse_print_output(FLAGS_print_output, &g_print_output)) {
    fprintf(stderr, "error: --print_output must be none, summary or all (got '%s')\n",
            shown(FLAGS_print_output).c_str());
    return 2;
  }
  return 0;
}

// The shared pool (threaded kernels, XNNPACK delegate), before any load.
int start_thread_pool() {
  g_threads = FLAGS_threads;
  if (ember::set_num_threads(size_t(FLAGS_threads)) != ember::Error::Ok) {
    return fail(std::string("cannot set --threads: ") + ember::last_error_message());
  }
  g_threads = int(ember::num_threads());
  return 0;
}

// --data_path, split (external weights; see load_model).
std::vector<std::string> g_data_paths;

int split_data_paths() {
  g_data_paths = runner::split_list(FLAGS_data_path, ',');
  for (const std::string& path : g_data_paths) {
    if (path.empty()) return fail("--data_path has an empty entry: '" + FLAGS_data_path + "'");
  }
  return 0;
}

// Loads the program: Module opens the file once, and for a .bpte (found
// from its content) loads the embedded program and keeps the test cases.
int load_model(Session& s) {
  const auto verification = FLAGS_full_verification
                                ? Program::Verification::InternalConsistency
                                : Program::Verification::Minimal;
  s.summary.model_path = FLAGS_model_path;
  s.summary.rtol = FLAGS_rtol;
  s.summary.atol = FLAGS_atol;
  s.summary.threads = g_threads;
  if (FLAGS_memory_report) s.memory.sample("before load");
  const auto load_start = Clock::now();
  Result<std::unique_ptr<Module>> module =
      Module::load(FLAGS_model_path, g_data_paths, g_load_mode, verification);
  if (!module.ok()) {
    return fail(error_text("loading model '" + FLAGS_model_path + "'", module.error()));
  }
  s.module = std::move(*module);
  s.module->set_prepare_operands(FLAGS_prepare_operands);
  set_kernel_prepare_enabled(FLAGS_kernel_prepare);
  s.summary.program_load_ms = ms_since(load_start);
  if (FLAGS_memory_report) s.memory.sample("program loaded");
  s.bundle = s.module->bundle();
  s.summary.bundled = s.bundle != nullptr;
  if (FLAGS_testset_idx >= 0 && !s.summary.bundled) {
    return fail("--testset_idx needs a bundled program (.bpte); '" + FLAGS_model_path +
                "' is a plain program");
  }
  return 0;
}

// Which methods, which inputs, and how many runs that makes (to name
// output files).
int choose_runs(Session& s) {
  s.inputs = runner::split_list(FLAGS_inputs, ',');
  if (!FLAGS_method_name.empty()) {
    s.methods.push_back(FLAGS_method_name);
  } else if (!s.summary.bundled) {
    // No method named: the program's first (upstream's rule).
    Result<const char*> first = s.module->program().get_method_name(0);
    if (!first.ok()) {
      return fail(error_text("'" + FLAGS_model_path + "' has no method to run",
                             first.error()));
    }
    s.methods.push_back(*first);
  } else {
    for (size_t i = 0; i < s.bundle->num_method_suites(); ++i) {
      s.methods.push_back(s.bundle->suite_method_name(i));
    }
    if (s.methods.empty()) {
      return fail("bundle '" + FLAGS_model_path + "' has no test suites");
    }
  }
  s.use_bundle_inputs = s.summary.bundled && s.inputs.empty();

  size_t total_runs = 0;
  for (const std::string& name : s.methods) {
    if (!s.use_bundle_inputs) {
      ++total_runs;
    } else if (FLAGS_testset_idx >= 0) {
      ++total_runs;
    } else {
      Result<size_t> n = s.bundle->num_test_cases(name.c_str());
      total_runs += n.ok() ? *n : 1;
    }
  }
  s.single = total_runs == 1;
  s.total_runs = total_runs;
  return 0;
}

// Runs method `name` once (num_executions times) on --inputs or on ones,
// and prints its outputs.
int run_on_given_inputs(Session& s, Method& m, const std::string& name) {
  runner::CaseResult c;
  c.method = shown(name);
  runner::CommandLineInputs cli_inputs;
  if (!s.inputs.empty()) {
    const Error err = cli_inputs.set(m, s.inputs);
    if (err != Error::Ok) return fail(error_text("--inputs for '" + shown(name) + "'", err));
  }
  InputBuffers ones;
  const Error err = execute_timed(m, c, [&]() -> Error {
    if (!s.inputs.empty()) return cli_inputs.reapply(m);
    Result<InputBuffers> filled = prepare_input_tensors(m);
    if (!filled.ok()) return filled.error();
    ones = std::move(*filled);
    return Error::Ok;
  });
  if (err != Error::Ok) return fail(error_text("executing '" + shown(name) + "'", err));
  runner::print_method_outputs(m, shown(name), g_print_output, stdout);
  const Error werr = write_outputs(m, "inputs", s.single);
  if (werr != Error::Ok) return fail(error_text("writing outputs", werr));
  s.summary.cases.push_back(std::move(c));
  return 0;
}

// Runs every bundled test case of method `name` (or --testset_idx) and
// verifies its outputs. Module copies each test case's inputs into memory
// it owns (a program may write into an input it does not plan; the bundle
// must stay as it was read, and a mapped file is read-only).
int run_test_cases(Session& s, Method& m, const std::string& name) {
  Result<size_t> num_cases = s.bundle->num_test_cases(name.c_str());
  if (!num_cases.ok()) {
    return fail(error_text("method '" + shown(name) + "'", num_cases.error()));
  }
  size_t first = 0, last = *num_cases;
  if (FLAGS_testset_idx >= 0) {
    first = size_t(FLAGS_testset_idx);
    last = first + 1;
  }
  for (size_t k = first; k < last; ++k) {
    runner::CaseResult c;
    c.method = shown(name);
    c.testset_index = int64_t(k);
    Error err = s.module->load_bundled_input(name, k);
    if (err != Error::Ok) {
      return fail(error_text(
          "loading test case " + std::to_string(k) + " of '" + shown(name) + "'", err));
    }
    err = execute_timed(m, c, [&]() { return s.module->load_bundled_input(name, k); });
    if (err != Error::Ok) {
      return fail(error_text(
          "executing '" + shown(name) + "' test case " + std::to_string(k), err));
    }
    if (flag_given("print_output")) {
      runner::print_method_outputs(m, shown(name), g_print_output, stdout);
    }
    Result<VerifyReport> verified = s.module->verify_outputs(name, k, FLAGS_rtol, FLAGS_atol);
    if (!verified.ok()) {
      return fail(error_text(
          "verifying '" + shown(name) + "' test case " + std::to_string(k), verified.error()));
    }
    c.outputs = std::move(verified->outputs);
    c.verified = true;
    c.passed = verified->passed;
    s.total_outputs += c.outputs.size();
    for (const OutputReport& r : c.outputs) s.failed_outputs += r.passed ? 0 : 1;
    if (!c.passed && s.first_failure.empty()) s.first_failure = verified->message;
    const Error werr = write_outputs(m, std::to_string(k), s.single);
    if (werr != Error::Ok) return fail(error_text("writing outputs", werr));
    s.summary.cases.push_back(std::move(c));
  }
  return 0;
}

// Loads method `name` (timed) and runs it.
int run_method(Session& s, const std::string& name) {
  const auto method_start = Clock::now();
  Result<Method*> method = s.module->method(name, s.trace.tracer_for_load(name));
  if (!method.ok()) {
    return fail(error_text("loading method '" + shown(name) + "'", method.error()));
  }
  s.summary.method_load_ms.emplace_back(shown(name), ms_since(method_start));
  if (FLAGS_memory_report) s.memory.sample("method '" + shown(name) + "' loaded");
  (*method)->set_fusion_enabled(FLAGS_fusion);
  const int rc = s.use_bundle_inputs ? run_test_cases(s, **method, name)
                                     : run_on_given_inputs(s, **method, name);
  if (FLAGS_memory_report && rc == 0) s.memory.sample("method '" + shown(name) + "' executed");
  return rc;
}

// The table, the JSON report, and the verdict.
int report(const Session& s) {
  runner::print_summary(s.summary, stdout);
  if (FLAGS_memory_report) {
    std::error_code ec;
    const auto file_bytes = std::filesystem::file_size(FLAGS_model_path, ec);
    s.memory.print(stdout, *s.module, s.methods, ec ? 0 : size_t(file_bytes));
  }
  if (!FLAGS_report.empty()) {
    const Error err = runner::write_json_report(s.summary, FLAGS_report);
    if (err != Error::Ok) return fail(error_text("--report", err));
    printf("Report written to %s\n", FLAGS_report.c_str());
  }
  if (s.failed_outputs != 0) {
    return fail("verification failed: " + std::to_string(s.failed_outputs) + " of " +
                std::to_string(s.total_outputs) + " outputs outside tolerance; first: " +
                s.first_failure);
  }
  if (s.total_outputs != 0) {
    printf("All %zu outputs of %zu test case(s) verified.\n", s.total_outputs,
           s.summary.cases.size());
  }
  if (s.trace.comparison_failed()) {
    return fail("intermediate outputs outside tolerance; first divergence: " +
                s.trace.first_divergence());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "executor_runner --model_path=model.pte|model.bpte [--method_name=NAME] "
      "[--inputs=a.npy,b.bin] [--testset_idx=N] [--report=report.json] "
      "[--print_output=none|summary|all]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (FLAGS_verbose) {
    ember::set_log_level(ember::LogLevel::Debug);
  }
  if (FLAGS_cpu_levels) {
    runner::print_cpu_levels();
    return 0;
  }
  // Each step returns 0 to go on, else the exit status (its error printed).
  if (const int bad = apply_upstream_flags()) return bad;
  if (const int bad = check_flags()) return bad;
  if (const int bad = runner::apply_cpu_features_flag(FLAGS_cpu_features.c_str())) return bad;
  if (const int rc = start_thread_pool()) return rc;
  Session s;
  if (const int rc = split_data_paths()) return rc;
  if (const int rc = load_model(s)) return rc;
  if (const int rc = choose_runs(s)) return rc;
  if (runner::TraceSession::requested()) {
    const size_t executions = s.total_runs * size_t(FLAGS_num_executions);
    if (const int rc = s.trace.start(s.module->program(), s.methods, executions,
                                     FLAGS_num_executions)) {
      return rc;
    }
  }
  for (const std::string& name : s.methods) {
    if (const int rc = run_method(s, name)) return rc;
  }
  if (const int rc = s.trace.finish(s.module->program(), FLAGS_rtol, FLAGS_atol, FLAGS_verbose,
                                    s.summary)) {
    return rc;
  }
  return report(s);
}

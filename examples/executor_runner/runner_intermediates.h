// executor_runner --intermediates_dir / --compare_intermediates: the values
// the runtime logged for each instruction of one run (one "Execute" block of
// an EventRecorder at debug level IntermediateOutputs), written as .npy
// files with an index, and compared with golden .npy files.
//
// Keys and files (the format shared with examples/debug; see the design
// notes in the runner's README section):
//   key   "<method>/c<chain>/i<instruction>/o<k>", k the value's index among
//         what the runtime logged for that instruction (a kernel's return
//         values; a delegate call's arguments, inputs first); element j of a
//         logged tensor list is "<...>/o<k>.<j>".
//   file  "<method>__c<chain>_i<instruction, 4 digits>__<operator>__o<k>.npy"
//         with the "aten::" namespace dropped and any character outside
//         [A-Za-z0-9._-] replaced by '_'.
//   DIR/index.json {"format": "ember-intermediates-1", "program": ...,
//         "entries": [{key, file, method, chain, instruction, output, kind,
//         operator, dtype, shape, stack_frame}]} in execution order, one
//         entry per line; an element of a tensor list also has "element": j.
// Only the first execution of an instruction in the run is kept (a loop
// that runs it again is counted and said). Values the delegate reports for
// its own steps, non-tensor values and program outputs get no file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "devtools/event_recorder.h"
#include "examples/executor_runner/runner_program_info.h"
#include "runtime/core/result.h"
#include "runtime/executor/program.h"

namespace ember::runner {

struct Intermediate {
  std::string key;
  std::string file;
  std::string method;
  int64_t chain = 0;
  int64_t instruction = 0;
  std::string output;  // "0", or "0.1" for element 1 of a tensor list (key and file)
  int64_t output_index = 0;
  int64_t element = -1;  // index in a logged tensor list; -1 for a tensor
  std::string kind;    // "kernel" or "delegate"
  std::string op;      // raw, from the program
  StackFrame frame;
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;  // into the recorder's debug buffer
  size_t nbytes = 0;
  bool stored = false;  // the data is in the debug buffer (or the tensor is empty)
};

struct IntermediateSet {
  std::vector<Intermediate> entries;  // execution order
  size_t repeated_visits = 0;         // instruction runs after the first, skipped
  size_t not_stored = 0;              // tensors the debug buffer had no room for
  size_t non_tensor_values = 0;
  size_t delegate_step_outputs = 0;
};

// The tensors logged in Execute block `block` of `recorder` for `method`.
IntermediateSet collect_intermediates(const devtools::EventRecorder& recorder,
                                      const Program& program, const std::string& method,
                                      size_t block);

// Writes each stored tensor as DIR/<file> and DIR/index.json (creating
// DIR). AccessFailed (with last_error_message()) when a file cannot be
// written; NotSupported entries (no .npy dtype) are skipped and counted in
// `skipped`.
Error write_intermediates(const std::string& dir, const std::string& program_name,
                          const IntermediateSet& set, size_t* written, size_t* skipped);

struct Comparison {
  std::string key;
  std::string op;  // escaped
  int64_t chain = 0;
  int64_t instruction = 0;
  std::string status;  // "pass", "FAIL", "no golden", "not stored"
  std::string reason;  // for a failure without numbers (shape, unreadable)
  int64_t numel = 0;
  int64_t outside = 0;
  double max_abs = 0, max_rel = 0, mean_abs = 0, sqnr_db = 0;
  std::string frame;  // escaped, "" without a stack trace
};

struct ComparisonReport {
  std::vector<Comparison> rows;  // execution order
  size_t passed = 0, failed = 0, no_golden = 0, not_stored = 0;
  int64_t first_failure = -1;  // index into rows
};

// Reads GOLDEN_DIR/index.json and compares every entry of `set` with the
// golden of the same key. An Error (with last_error_message()) only when
// the index cannot be read.
Result<ComparisonReport> compare_intermediates(const std::string& golden_dir,
                                               const IntermediateSet& set, double rtol,
                                               double atol);

void print_comparison(const ComparisonReport& report, double rtol, double atol, FILE* out);
// "forward/c0/i12/o0 (aten::convolution.out, chain 0 instruction 12), at
// model.py:42 (forward): x = self.conv1(x)"; escaped.
std::string divergence_text(const Comparison& row);
nlohmann::json comparison_json(const ComparisonReport& report, double rtol, double atol);

}  // namespace ember::runner

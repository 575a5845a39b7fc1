// executor_runner: what the program file says about one instruction, for
// the profile table and the intermediate-output files: its kind, the
// operator or delegate it calls, and the source line it came from (the
// program's stack traces, present when it was exported with
// ExecutorchBackendConfig(emit_stacktrace=True)).
//
// Everything here is read from the (already verified) program flatbuffer
// with every index bounds-checked; strings are returned as read (raw
// bytes from the file): escape them with printable() before printing.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/executor/program.h"

namespace ember::runner {

struct StackFrame {
  bool present = false;
  std::string file;
  int64_t line = 0;
  std::string name;
  std::string context;
};

struct InstructionInfo {
  bool found = false;     // the method, chain and instruction exist
  std::string kind;       // "kernel", "delegate", "move", "jump_false", "free"
  std::string op;         // "aten::convolution.out", or the delegate's backend id
  StackFrame frame;       // the instruction's source frame: the innermost one
                          // outside PyTorch's own sources
};

InstructionInfo instruction_info(const Program& program, const std::string& method,
                                 int64_t chain, int64_t instruction);

// Bytes from a file, safe for a terminal: every byte outside printable
// ASCII (and the backslash) as \xNN. Not cut.
std::string printable(const std::string& raw);

// "file:line (name): context", escaped; "" without a frame.
std::string frame_text(const StackFrame& frame);

}  // namespace ember::runner

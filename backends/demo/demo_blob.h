// The processed bytes of upstream's demo backend, BackendWithCompilerDemo
// (executorch/exir/backend/test/backend_with_compiler_demo.py), read
// without trusting them.
//
// The demo compiler's preprocess() writes ASCII text with no terminator:
//
//   blob        := count "version:" version "#" { instruction "#" }
//   instruction := "op:demo::" name ", numel:" numel ", dtype:" dtype
//                  "<debug_handle>" handle
//
// for example (one line, two instructions)
//
//   2version:0#op:demo::aten.mm.default, numel:4, dtype:torch.float32
//   <debug_handle>1#op:demo::aten.add.Tensor, numel:4, dtype:torch.float32
//   <debug_handle>2#
//
// count is the number of instructions, version is 0, name is the edge
// operator's name, numel the element count of the node's result, dtype its
// torch dtype and handle the node's debug handle (-1 when it had none).
// Instructions come in graph order. The text does not say which values feed
// which instruction: demo_backend.h states how Ember wires them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"

namespace ember::demo {

// The operators Ember's demo runtime runs (float32 only).
enum class DemoOp : uint8_t { Add, Mm, Sin };

struct DemoInstruction {
  DemoOp op;
  int64_t numel;         // elements of the result, as the compiler recorded
  int32_t debug_handle;  // -1: none
};

// The only blob version there is.
constexpr int64_t kDemoBlobVersion = 0;
// Most instructions one blob may hold (a sanity bound on untrusted counts).
constexpr size_t kMaxDemoInstructions = 64;

// The name the blob uses for `op` ("aten.mm.default").
const char* demo_op_name(DemoOp op);

// Parses the `size` bytes at `data` (which need no NUL). With `out` null it
// only validates; otherwise it also writes the instructions to `out`, which
// must hold `capacity` of them (the blob's count must fit). `*count`
// receives the number of instructions.
//
// Errors (the message names the instruction, the byte offset and what was
// expected; text from the blob is escaped):
//   InvalidProgram                malformed text, a count that disagrees
//                                 with the instructions present, numbers
//                                 out of range, more than `capacity`
//   DelegateInvalidCompatibility  a version other than kDemoBlobVersion
//   NotSupported                  an operator or dtype the demo compiler
//                                 writes that this runtime does not run
//                                 (aten.linear.default, torch.int64, ...)
Error parse_demo_blob(const void* data, size_t size, DemoInstruction* out, size_t capacity,
                      size_t* count);

}  // namespace ember::demo

// Ember's runtime for upstream's demo backend "BackendWithCompilerDemo":
// the backend the export tutorial lowers to with
// to_backend("BackendWithCompilerDemo", program, []) and with
// AddMulPartitionerDemo. It is an example of plugging a backend into Ember
// (docs/backend_author.md), not a fast path.
//
// Linking the ember_demo_backend object library registers the backend
// (static initializer); nothing needs to be called.
//
// Blob: upstream's text format (demo_blob.h). init() parses and validates
// it once and keeps a compact plan in the method allocator; the blob is
// freed after init. Operators: aten.add.Tensor (alpha 1; the blob cannot
// record another), aten.mm.default, aten.sin.default, float32 only; any
// other operator or dtype fails init with NotSupported.
//
// Wiring: the blob names operators but not their operands, so Ember fixes
// one convention, the one upstream's own test runtime assumes for the
// tutorial's partitions: the instructions form a chain.
//   - The first instruction takes its operands from the delegate's inputs
//     in order (add and mm two, sin one).
//   - Each later instruction takes the previous result as its first operand
//     and, for add and mm, the next unused input as its second.
//   - The last result is the delegate's only output.
// So mm then add over inputs (a, x, b) computes a @ x + b: the tutorial's
// y = mm(a, x); z = y + b. A DelegateCall that passes another number of
// values fails init with NotSupported. A partition of the same count but
// other wiring (mm(b, add(a, x)) is read as mm(add(a, x), b)) cannot be
// told apart from the blob: the bundled outputs catch it.
//
// Shapes come from the DelegateCall's values at init
// (BackendInitContext::call_args()); they must be static, contiguous
// float32 tensors. mm takes [m, k] x [k, n]; add broadcasts when each
// operand's shape, leading 1s dropped, equals the trailing dims of the
// result (same shapes, a scalar, a bias row). Each result's element count
// must equal the one the blob records (InvalidProgram otherwise), and the
// last shape the output's. A delegate loaded without call values (no
// instruction calls it) fails execute with InvalidState.
//
// Compile specs: "max_value" (AddMulPartitionerDemo writes 4) must be at
// most kDemoMaxValue, as upstream's runtime requires (InvalidArgument);
// other keys are ignored.
//
// Memory: the plan comes from context.allocator() at init (at most
// init_allocator_bytes(), whatever the blob); the scratch for intermediate
// results from the temp allocator at each execute.
//
// Tracing: with an EventTracer, execute reports each instruction as a
// delegate event keyed by the blob's debug handle (by the operator's name
// when it has none) and, at IntermediateOutputs, logs each result.
#pragma once

#include <cstdint>

namespace ember::demo {

// The backend id programs use.
constexpr const char* kDemoBackendId = "BackendWithCompilerDemo";

// The largest "max_value" compile spec accepted.
constexpr int64_t kDemoMaxValue = 4;

}  // namespace ember::demo

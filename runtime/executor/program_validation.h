// Semantic checks of an untrusted, structurally verified program.
//
// The flatbuffers Verifier proves every table and vector lies inside the
// buffer; these checks prove the contents make sense: indices in range,
// sizes non-negative and without overflow, dim orders that are
// permutations, tensor data inside its segment or planned buffer, list
// elements of the right type, jump targets inside the chain. A method that
// passes validate_execution_plan() can be parsed and executed with debug
// asserts only. Every failure records which method, table, index and bound.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace ember_fb {
struct ExecutionPlan;
struct Program;
struct Tensor;
}  // namespace ember_fb

namespace ember {

class Program;

// Checks that every vector of 8-byte elements (IntList and DoubleList
// items, planned buffer sizes, constant segment offsets) is 8-byte aligned
// in the buffer. The flatbuffers Verifier checks the alignment of a
// vector's length only, and these elements are read in place. Run at
// program load, at every verification level (found by fuzz/program_fuzzer).
Error validate_vector_alignment(const ember_fb::Program* program);

// Checks one method of `program`.
Error validate_execution_plan(const Program& program,
                              const ember_fb::ExecutionPlan* plan);

// Byte size of a serialized tensor (product of sizes times element size),
// with every factor checked: InvalidProgram on an unknown dtype, a negative
// size, too many dims or overflow. `what` names the tensor in messages.
Result<size_t> serialized_tensor_nbytes(const ember_fb::Tensor* tensor,
                                        const char* method, size_t value_index);

}  // namespace ember

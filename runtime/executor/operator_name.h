// Matching a program's operator against a full name, for the load-time
// passes (fusions, prepared operands). Internal to runtime/executor.
#pragma once

namespace ember_fb {
struct Operator;
}

namespace ember {

// True if `op` is `full`: its name, then '.' and its overload when it has
// one ("aten::convolution.out").
bool operator_is(const ember_fb::Operator* op, const char* full);

}  // namespace ember

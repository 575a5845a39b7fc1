// Internal to bundled_program/ (not a public header): lookup shared by
// input loading and output verification.
#pragma once

#include <cstddef>

#include "bundled_program/bundled_program.h"
#include "runtime/core/result.h"

namespace ember_bundled_fb {
struct BundledMethodTestCase;
}

namespace ember {
namespace bundled_detail {

// Test case `testset_index` of the suite named `method_name`. NotFound (the
// message lists the suites) or InvalidArgument (index out of range).
Result<const ember_bundled_fb::BundledMethodTestCase*> find_test_case(
    const BundledProgram& bundle, const char* method_name, size_t testset_index);

}  // namespace bundled_detail
}  // namespace ember

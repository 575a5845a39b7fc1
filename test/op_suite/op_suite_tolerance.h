// The tolerances the generated operator suite (test/models/ops) is verified
// with, on the host (op_suite_test) and on the Cortex-M (the bare-metal
// runner's --manifest mode): one table, so that both targets judge a case
// alike. Header-only, no standard library beyond the core's types.
//
// Why not upstream's bundled defaults (rtol 1e-5, atol 1e-8): PyTorch's
// own results, which the cases carry, are not always the correctly rounded
// ones. Two seen:
//   - GELU (fp32): PyTorch's vectorized erf is 5.7e-7 off at x = -2.92
//     (gelu = -0.005045024 in float64; PyTorch -0.005044453, Ember
//     -0.005045019), so atol 1e-8 fails the accurate result;
//   - rsqrt and pow (bf16): PyTorch's element-at-a-time path rounds an
//     intermediate to bfloat16 (rsqrt(0.83984375) = 1.09119: 1.0859375,
//     one step below the nearest; its vectorized path, for 32 or more
//     elements, and Ember give the nearest, 1.09375), so 16-bit floats
//     get a few of their ulps.
#pragma once

#include "runtime/core/scalar_type.h"
#include "runtime/executor/method.h"

namespace ember::testing {

struct OpSuiteTolerance {
  double rtol;
  double atol;
};

// By output dtype: float32 close to its epsilon with room for accumulation
// order; 16-bit floats a few of their ulps; exact otherwise.
inline OpSuiteTolerance op_suite_default_tolerance(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return {1e-5, 1e-6};
    case ScalarType::Double: return {1e-10, 1e-12};
    case ScalarType::Half: return {1e-3, 1e-3};
    case ScalarType::BFloat16: return {1e-2, 1e-2};
    default: return {0.0, 0.0};
  }
}

// The tolerance for one test case of `method` (after execute()): the
// strictest default among its outputs' dtypes (a scalar output counts as
// Double), then the case's MANIFEST overrides (below 0: not stated).
inline OpSuiteTolerance op_suite_tolerance(const Method& method, double rtol_override,
                                           double atol_override) {
  OpSuiteTolerance tol{1.0, 1.0};
  for (size_t o = 0; o < method.outputs_size(); ++o) {
    const EValue& out = method.get_output(o);
    const OpSuiteTolerance d = op_suite_default_tolerance(
        out.is_tensor() ? out.to_tensor().scalar_type() : ScalarType::Double);
    if (d.rtol < tol.rtol) tol.rtol = d.rtol;
    if (d.atol < tol.atol) tol.atol = d.atol;
  }
  if (rtol_override >= 0) tol.rtol = rtol_override;
  if (atol_override >= 0) tol.atol = atol_override;
  return tol;
}

}  // namespace ember::testing

// Variance and mean over a reduction plan, shared by var (var.out,
// var.correction_out) and var_mean.correction_out.
#pragma once

#include "kernels/portable/util/reduce_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// For each of plan.out_numel outputs of the contiguous floating tensor
// `self`: var[o] = sum((x - mean)^2) / max(0, N - correction) and, when
// `mean` is not null, mean[o] = the mean of the N = plan.reduce_count
// elements; two passes in double. The mean is a running mean in the
// elements' index order, as PyTorch's Welford reduction computes it: equal
// to sum / N up to rounding, and an infinity gives NaN unless it is the
// last element (torch.var_mean([inf, 1]) is (nan, nan), of [1, inf]
// (nan, inf)). N - correction <= 0 gives inf or NaN and N == 0 gives NaN,
// as in PyTorch. var and mean (caller-owned) hold out_numel
// doubles. Without a mean array the means go to scratch from the temp
// allocator when the plan is not `trailing`; returns false after failing
// the kernel when that scratch is unavailable. self's dtype must be a
// floating type (checked by the caller).
bool variance_and_mean(KernelArgs& a, KernelContext& ctx, const ReducePlan& plan,
                       Tensor self, double correction, double* var, double* mean);

}  // namespace ember

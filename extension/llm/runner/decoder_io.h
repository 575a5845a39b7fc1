// What the text, multimodal and speech runners pass to and read from the
// program's methods, in one copy: which methods it has, inputs in the
// rank and dtype a method takes, the positions input, and the row of
// logits a runner samples from.
#pragma once

#include <vector>

#include "extension/module/module.h"
#include "extension/tensor/tensor_ptr.h"

namespace ember::llm {

// Whether the program has a method called `name`.
bool has_method(const Module& module, const char* name);

// The values of a decoder's position input for `count` tokens starting at
// `start`: [start, start + count) when the method takes one cache position
// per token (`per_token`, an input of more than one element), else
// [start] (upstream's start_pos form).
std::vector<int64_t> position_values(bool per_token, int64_t start, size_t count);

// `given` as `method`'s input of `rank` dims and dtype `type`: a leading 1
// added or dropped, Float narrowed to BFloat16 or Half when the method
// takes those; the data shared (the result keeps `given` alive) or, when
// converted, owned. InvalidArgument, naming the method, when it cannot be.
Result<TensorPtr> adapt_tensor(const TensorPtr& given, size_t rank, ScalarType type,
                               const char* method);

// Copies the last row of `logits` (the output of `method`) into `row`
// (resized to the vocabulary). InvalidArgument, naming the method, for a
// missing or empty tensor or another dtype.
Error last_logits_row(const TensorPtr& logits, const char* method, std::vector<float>* row);

}  // namespace ember::llm

// What the text, multimodal and speech runners pass to and read from the
// program's methods, in one copy: which methods it has, inputs in the
// rank and dtype a method takes, the positions input, and the row of
// logits a runner samples from.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "extension/tensor/tensor_ptr.h"

namespace ember::llm {

// Whether the program has a method called `name`.
bool has_method(const Module& module, const char* name);

// Opens the program (with its .ptd files) for a runner: InvalidArgument,
// naming the file and the method, when one of `required` is missing (the
// message ends with `what`, saying what kind of program was expected).
Result<std::unique_ptr<Module>> open_program(const std::string& path,
                                             const std::vector<std::string>& data_paths,
                                             std::initializer_list<const char*> required,
                                             const char* what);

// Loads each of `methods` the program has.
Error load_present_methods(Module& module, std::initializer_list<const char*> methods);

// Input `index` of `method`: its TensorInfo; InvalidArgument, naming the
// method, when it takes fewer inputs.
Result<TensorInfo> method_input(const Module& module, const char* method, size_t index);

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

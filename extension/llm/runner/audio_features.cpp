#include "extension/llm/runner/audio_features.h"

#include <cstring>

#include "extension/npy/npy.h"
#include "runtime/core/error_message.h"

namespace ember::llm {

Result<TensorPtr> preprocess_audio(Module& processor, std::vector<float> samples) {
  if (samples.empty()) {
    set_error_message("the audio has no samples");
    return Error::InvalidArgument;
  }
  Result<MethodMeta> meta = processor.method_meta("forward");
  if (!meta.ok()) return meta.error();
  if (meta->num_inputs() != 1 || meta->num_outputs() < 1) {
    set_error_message("the audio preprocessor's forward takes %zu inputs and returns %zu "
                      "outputs; it takes the samples and returns the features",
                      meta->num_inputs(), meta->num_outputs());
    return Error::InvalidArgument;
  }
  Result<TensorPtr> input = make_tensor_ptr(std::move(samples));
  if (!input.ok()) return input.error();
  Result<Outputs> out = processor.execute("forward", std::vector<TensorPtr>{*input});
  if (!out.ok()) return out.error();
  if (out->tensor(0) == nullptr || out->tensor(0)->scalar_type() != ScalarType::Float) {
    set_error_message("the audio preprocessor's first output is not a Float tensor");
    return Error::InvalidArgument;
  }
  return out->tensor(0);
}

Result<TensorPtr> load_features_npy(const std::string& path) {
  Result<NpyArray> array = read_npy(path);
  if (!array.ok()) return array.error();
  if (array->dtype != ScalarType::Float ||
      (array->shape.size() != 2 && array->shape.size() != 3) || array->numel() == 0) {
    set_error_message("%s: audio features are a non-empty Float array [bins, frames] or "
                      "[batch, bins, frames]", PrintableName(path.c_str()).c_str());
    return Error::InvalidArgument;
  }
  std::vector<float> values(size_t(array->numel()));
  std::memcpy(values.data(), array->data.data(), values.size() * sizeof(float));
  return make_tensor_ptr(array->shape, std::move(values));
}

}  // namespace ember::llm

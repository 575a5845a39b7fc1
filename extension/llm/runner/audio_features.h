// Audio for the speech and multimodal runners: raw samples through the
// preprocessor program upstream exports (`python -m
// executorch.extension.audio.mel_spectrogram`: forward(samples [n]) ->
// log-mel features [1, bins, frames]), or features read from a file.
#pragma once

#include <string>
#include <vector>

#include "extension/module/module.h"
#include "extension/tensor/tensor_ptr.h"

namespace ember::llm {

// Runs `samples` (mono, at the rate the preprocessor was exported for:
// 16 kHz for Whisper and Voxtral) through `processor`'s forward method and
// returns its first output (owned). InvalidArgument for no samples or a
// program whose forward does not take one Float tensor and return one;
// the Module's error (naming the bound) for more samples than it takes.
Result<TensorPtr> preprocess_audio(Module& processor, std::vector<float> samples);

// Features an encoder takes, from a file: an .npy array (Float, [bins,
// frames] or [batch, bins, frames]) as it is, or raw float32 samples in a
// `.bin` file (upstream's runners' format) through `processor` when given.
// InvalidArgument, naming the file, for anything else.
Result<TensorPtr> load_features_npy(const std::string& path);

}  // namespace ember::llm

// Fuzz target: the WAV parser (extension/llm/runner/wav_loader.h), as the
// speech and multimodal runners read audio from a path the user gives;
// then the raw float32 reader on the same bytes (.bin files).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "extension/llm/runner/wav_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::Result<ember::llm::AudioSamples> audio = ember::llm::parse_wav({data, size});
  if (audio.ok()) {
    // What the header promises: samples, a rate and channels; every sample
    // finite, and integer samples within [-1, 1].
    if (audio->samples.empty() || audio->sample_rate == 0 || audio->channels == 0 ||
        audio->samples.size() > size) {
      __builtin_trap();
    }
    for (float v : audio->samples) {
      if (!std::isfinite(v) || (!audio->is_float && std::fabs(v) > 1.0f)) __builtin_trap();
    }
  }
  ember::Result<ember::llm::AudioSamples> raw = ember::llm::parse_raw_float32({data, size});
  if (raw.ok() && raw->samples.size() * 4 != size) __builtin_trap();
  return 0;
}

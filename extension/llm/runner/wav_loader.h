// Audio for speech and multimodal prompts: WAV files and raw float32
// samples, as mono float samples for a preprocessor program.
//
// parse_wav() is the checked parser of an untrusted RIFF/WAVE file in
// memory. It walks the chunks with every size checked against the RIFF
// chunk and the buffer (a chunk of odd size is followed by a pad byte;
// chunks other than "fmt " and "data" are skipped; the walk stops at
// "data", which must come after "fmt "). It reads:
//   format tag 1 (PCM): 8 bits (unsigned), 16, 24 or 32 bits (signed);
//   format tag 3 (IEEE float): 32 bits;
//   WAVE_FORMAT_EXTENSIBLE (0xFFFE) whose sub-format is one of those
//   (valid bits at most the container's; samples left-justified);
// any number of channels, any sample rate (none is resampled).
// Integer samples are divided by the largest positive value of their width
// (127 after removing 8-bit's offset of 128, 32767, 8388607, 2147483647),
// as upstream's wav_loader.h divides 16- and 32-bit samples, and clamped
// to [-1, 1] (only the most negative value moves, by one step). Float
// samples are kept as they are (a float file may go past 1, as upstream
// keeps it) but must be finite. Channels are averaged into one: see
// AudioSamples.
//
// Errors: NotSupported for a well-formed file in a format or width not
// listed above (RIFX, RF64, A-law, ADPCM, 64-bit float, 12-bit PCM, ...);
// InvalidArgument for a malformed one, with last_error_message() naming
// the chunk, the field, its value and the bound it broke; AccessFailed when
// the file cannot be read. load_* prefix the message with the file's name,
// escaped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/span.h"

namespace ember::llm {

struct AudioSamples {
  // One sample per frame: the mean of the frame's channels. Upstream's C++
  // loader (extension/llm/runner/wav_loader.h) does not mix down: it hands
  // a stereo file's samples over interleaved, twice as many; its Python
  // reference (optimum-executorch) averages the channels, as this does.
  std::vector<float> samples;
  uint32_t sample_rate = 0;      // Hz; 0 when the file does not say (.bin)
  uint16_t channels = 0;         // in the file, before the mixdown
  uint16_t bits_per_sample = 0;  // container bits per sample in the file
  bool is_float = false;         // IEEE float samples in the file
};

// The WAV file in `bytes` (see the top of this file).
Result<AudioSamples> parse_wav(Span<const uint8_t> bytes);

// Raw little-endian float32 samples, mono, rate unknown (0): the .bin files
// upstream's voxtral runner reads (examples/models/voxtral/multimodal.cpp:
// a waveform for its preprocessor, or, without one, features already
// computed; whisper/main.cpp's help names .bin too, but it reads only WAV).
// InvalidArgument for an empty buffer, a size that is not a multiple of 4
// (upstream drops the remainder silently) or a value that is not finite.
Result<AudioSamples> parse_raw_float32(Span<const uint8_t> bytes);

// Reads `path` and parses it as WAV.
Result<AudioSamples> load_wav(const std::string& path);

// Reads `path`: a name ending in ".bin" as raw float32, anything else as
// WAV (upstream's runners tell the two apart by the name, too).
Result<AudioSamples> load_audio(const std::string& path);

}  // namespace ember::llm

#include "extension/llm/runner/wav_loader.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "extension/file_util/read_file.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

constexpr size_t kRiffHeaderBytes = 12;  // "RIFF", size, "WAVE"
constexpr size_t kChunkHeaderBytes = 8;  // id, size
constexpr uint16_t kTagPcm = 0x0001;
constexpr uint16_t kTagFloat = 0x0003;
constexpr uint16_t kTagExtensible = 0xFFFE;
// The 14 bytes after the format tag in every WAVE_FORMAT_* sub-format GUID
// (xxxxxxxx-0000-0010-8000-00AA00389B71, as stored).
constexpr uint8_t kGuidTail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                                   0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};

uint16_t le16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
uint32_t le32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

// A chunk id or magic for a message: 4 bytes, escaped.
struct FourCc {
  explicit FourCc(const uint8_t* p) { printable_bytes(p, 4, text, sizeof(text)); }
  char text[17];
};

bool is_id(const uint8_t* p, const char* id) { return std::memcmp(p, id, 4) == 0; }

const char* tag_name(uint16_t tag) {
  switch (tag) {
    case 0x0001: return "PCM";
    case 0x0002: return "Microsoft ADPCM";
    case 0x0003: return "IEEE float";
    case 0x0006: return "A-law";
    case 0x0007: return "mu-law";
    case 0x0011: return "IMA ADPCM";
    case 0x0055: return "MPEG layer 3";
    case 0xFFFE: return "WAVE_FORMAT_EXTENSIBLE";
    default: return "unknown";
  }
}

enum class SampleKind { kUnsigned8, kSigned, kFloat32 };

// What the fmt chunk says, once checked.
struct WavFormat {
  SampleKind kind = SampleKind::kSigned;
  uint16_t channels = 0;
  uint32_t sample_rate = 0;
  uint16_t bytes_per_sample = 0;  // the container's
  uint16_t block_align = 0;       // channels * bytes_per_sample
};

// The sub-format of WAVE_FORMAT_EXTENSIBLE (`size` >= 40 checked here).
Result<uint16_t> extensible_tag(const uint8_t* p, uint32_t size, uint16_t bits) {
  EMBER_CHECK_OR_RETURN(size >= 40, Error::InvalidArgument,
                        "fmt chunk: WAVE_FORMAT_EXTENSIBLE needs 40 bytes, the chunk has %u",
                        unsigned(size));
  const uint16_t extra = le16(p + 16);
  EMBER_CHECK_OR_RETURN(extra >= 22, Error::InvalidArgument,
                        "fmt chunk: WAVE_FORMAT_EXTENSIBLE with an extension of %u bytes; 22 "
                        "are needed", unsigned(extra));
  const uint16_t valid = le16(p + 18);  // 0: all of the container
  EMBER_CHECK_OR_RETURN(valid <= bits, Error::InvalidArgument,
                        "fmt chunk: %u valid bits in a %u-bit container", unsigned(valid),
                        unsigned(bits));
  const uint16_t tag = le16(p + 24);
  if (std::memcmp(p + 26, kGuidTail, sizeof(kGuidTail)) != 0 || tag == kTagExtensible) {
    char guid[16 * 4 + 1];
    printable_bytes(p + 24, 16, guid, sizeof(guid));
    set_error_message("fmt chunk: WAVE_FORMAT_EXTENSIBLE with sub-format GUID \"%s\", not one "
                      "of the WAVE_FORMAT_* codes", guid);
    return Error::NotSupported;
  }
  return tag;
}

Result<WavFormat> parse_fmt(const uint8_t* p, uint32_t size) {
  EMBER_CHECK_OR_RETURN(size >= 16, Error::InvalidArgument,
                        "fmt chunk: %u bytes; at least 16 are needed", unsigned(size));
  uint16_t tag = le16(p);
  WavFormat format;
  format.channels = le16(p + 2);
  format.sample_rate = le32(p + 4);
  // p + 8: bytes per second, which nothing here needs (and some writers
  // get wrong): not checked.
  format.block_align = le16(p + 12);
  const uint16_t bits = le16(p + 14);
  EMBER_CHECK_OR_RETURN(format.channels > 0, Error::InvalidArgument, "fmt chunk: 0 channels");
  EMBER_CHECK_OR_RETURN(format.sample_rate > 0, Error::InvalidArgument,
                        "fmt chunk: a sample rate of 0");
  if (tag == kTagExtensible) {
    Result<uint16_t> sub = extensible_tag(p, size, bits);
    if (!sub.ok()) return sub.error();
    tag = *sub;
  }
  if (tag == kTagPcm) {
    EMBER_CHECK_OR_RETURN(bits == 8 || bits == 16 || bits == 24 || bits == 32,
                          Error::NotSupported,
                          "fmt chunk: PCM of %u bits per sample; 8, 16, 24 and 32 are read",
                          unsigned(bits));
    format.kind = bits == 8 ? SampleKind::kUnsigned8 : SampleKind::kSigned;
  } else if (tag == kTagFloat) {
    EMBER_CHECK_OR_RETURN(bits == 32, Error::NotSupported,
                          "fmt chunk: IEEE float of %u bits per sample; 32 are read",
                          unsigned(bits));
    format.kind = SampleKind::kFloat32;
  } else {
    set_error_message("fmt chunk: format tag 0x%04X (%s); PCM (1), IEEE float (3) and "
                      "WAVE_FORMAT_EXTENSIBLE of those are read", unsigned(tag), tag_name(tag));
    return Error::NotSupported;
  }
  format.bytes_per_sample = uint16_t(bits / 8);
  const uint32_t frame = uint32_t(format.channels) * format.bytes_per_sample;
  EMBER_CHECK_OR_RETURN(format.block_align == frame, Error::InvalidArgument,
                        "fmt chunk: block align %u, but %u channels of %u bits make %u bytes",
                        unsigned(format.block_align), unsigned(format.channels), unsigned(bits),
                        unsigned(frame));
  return format;
}

// One sample as a float: integers divided by their largest positive value
// (upstream multiplies by that reciprocal as a float; so does this, for
// the same values) and clamped to [-1, 1].
float integer_sample(int32_t value, float reciprocal) {
  const double v = double(value) * double(reciprocal);
  return float(std::clamp(v, -1.0, 1.0));
}

float sample_at(const uint8_t* p, const WavFormat& format) {
  switch (format.kind) {
    case SampleKind::kUnsigned8: return integer_sample(int32_t(p[0]) - 128, 1.0f / 127.0f);
    case SampleKind::kFloat32: {
      const uint32_t bits = le32(p);
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      return f;
    }
    case SampleKind::kSigned: break;
  }
  switch (format.bytes_per_sample) {
    case 2: return integer_sample(int16_t(le16(p)), 1.0f / 32767.0f);
    case 3: {
      // Sign-extend the 24 bits through the top of a 32-bit value.
      const uint32_t u = (uint32_t(p[0]) << 8) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 24);
      return integer_sample(int32_t(u) / 256, 1.0f / 8388607.0f);
    }
    default: return integer_sample(int32_t(le32(p)), 1.0f / 2147483647.0f);
  }
}

Result<AudioSamples> decode_data(const uint8_t* p, uint32_t size, const WavFormat& format) {
  EMBER_CHECK_OR_RETURN(size % format.block_align == 0, Error::InvalidArgument,
                        "data chunk: %u bytes, not a whole number of %u-byte frames",
                        unsigned(size), unsigned(format.block_align));
  const size_t frames = size / format.block_align;
  EMBER_CHECK_OR_RETURN(frames > 0, Error::InvalidArgument, "data chunk: no samples");
  AudioSamples audio;
  audio.sample_rate = format.sample_rate;
  audio.channels = format.channels;
  audio.bits_per_sample = uint16_t(format.bytes_per_sample * 8);
  audio.is_float = format.kind == SampleKind::kFloat32;
  audio.samples.resize(frames);
  for (size_t i = 0; i < frames; ++i) {
    const uint8_t* frame = p + i * format.block_align;
    double sum = 0.0;
    for (uint16_t c = 0; c < format.channels; ++c) {
      const float v = sample_at(frame + size_t(c) * format.bytes_per_sample, format);
      EMBER_CHECK_OR_RETURN(std::isfinite(v), Error::InvalidArgument,
                            "data chunk: the sample of frame %zu, channel %u is not finite", i,
                            unsigned(c));
      sum += v;
    }
    audio.samples[i] = format.channels == 1 ? float(sum) : float(sum / format.channels);
  }
  return audio;
}

}  // namespace

Result<AudioSamples> parse_wav(Span<const uint8_t> bytes) {
  const uint8_t* p = bytes.data();
  EMBER_CHECK_OR_RETURN(bytes.size() >= kRiffHeaderBytes, Error::InvalidArgument,
                        "%zu bytes: too short for a RIFF header (12 bytes)", bytes.size());
  if (!is_id(p, "RIFF")) {
    EMBER_CHECK_OR_RETURN(!is_id(p, "RIFX") && !is_id(p, "RF64"), Error::NotSupported,
                          "a %s file (big-endian RIFX and 64-bit RF64 are not read)",
                          FourCc(p).text);
    set_error_message("not a WAV file: it starts with \"%s\", not RIFF", FourCc(p).text);
    return Error::InvalidArgument;
  }
  EMBER_CHECK_OR_RETURN(is_id(p + 8, "WAVE"), Error::InvalidArgument,
                        "a RIFF file of form \"%s\", not WAVE", FourCc(p + 8).text);
  const uint32_t riff_size = le32(p + 4);
  EMBER_CHECK_OR_RETURN(riff_size >= 4 && riff_size <= bytes.size() - 8, Error::InvalidArgument,
                        "the RIFF chunk says %u bytes, but %zu follow its header%s",
                        unsigned(riff_size), bytes.size() - 8,
                        riff_size < 4 ? "" : " (a truncated file?)");
  // Bytes after the RIFF chunk are not part of the file's content.
  const size_t end = 8 + size_t(riff_size);
  bool have_fmt = false;
  WavFormat format;
  for (size_t pos = kRiffHeaderBytes; pos < end;) {
    EMBER_CHECK_OR_RETURN(end - pos >= kChunkHeaderBytes, Error::InvalidArgument,
                          "%zu stray bytes at offset %zu: too few for a chunk header",
                          end - pos, pos);
    const uint8_t* chunk = p + pos;
    const uint32_t size = le32(chunk + 4);
    const size_t body = pos + kChunkHeaderBytes;
    EMBER_CHECK_OR_RETURN(size <= end - body, Error::InvalidArgument,
                          "chunk \"%s\" at offset %zu says %u bytes; %zu are left in the RIFF "
                          "chunk", FourCc(chunk).text, pos, unsigned(size), end - body);
    if (is_id(chunk, "fmt ")) {
      EMBER_CHECK_OR_RETURN(!have_fmt, Error::InvalidArgument,
                            "a second fmt chunk at offset %zu", pos);
      Result<WavFormat> parsed = parse_fmt(p + body, size);
      if (!parsed.ok()) return parsed.error();
      format = *parsed;
      have_fmt = true;
    } else if (is_id(chunk, "data")) {
      EMBER_CHECK_OR_RETURN(have_fmt, Error::InvalidArgument,
                            "the data chunk at offset %zu comes before any fmt chunk", pos);
      return decode_data(p + body, size, format);
    }
    // A chunk of odd size is followed by a pad byte, which a writer may
    // leave out after the last chunk.
    pos = std::min(body + size + (size & 1u), end);
  }
  set_error_message(have_fmt ? "no data chunk" : "no fmt chunk and no data chunk");
  return Error::InvalidArgument;
}

Result<AudioSamples> parse_raw_float32(Span<const uint8_t> bytes) {
  EMBER_CHECK_OR_RETURN(!bytes.empty(), Error::InvalidArgument, "no samples (an empty file)");
  EMBER_CHECK_OR_RETURN(bytes.size() % 4 == 0, Error::InvalidArgument,
                        "%zu bytes: not a whole number of float32 samples", bytes.size());
  AudioSamples audio;
  audio.channels = 1;
  audio.bits_per_sample = 32;
  audio.is_float = true;
  audio.samples.resize(bytes.size() / 4);
  for (size_t i = 0; i < audio.samples.size(); ++i) {
    const uint32_t bits = le32(bytes.data() + 4 * i);
    std::memcpy(&audio.samples[i], &bits, sizeof(float));
    EMBER_CHECK_OR_RETURN(std::isfinite(audio.samples[i]), Error::InvalidArgument,
                          "sample %zu is not finite", i);
  }
  return audio;
}

namespace {

Result<AudioSamples> load_with(const std::string& path,
                               Result<AudioSamples> (*parse)(Span<const uint8_t>)) {
  const PrintableName shown(path.c_str());
  Result<std::vector<uint8_t>> file = read_file(path);
  if (!file.ok()) {
    // read_file's message quotes the path as it is; say it again escaped.
    const PrintableName cause(last_error_message());
    set_error_message("audio '%s': %s", shown.c_str(), cause.c_str());
    return file.error();
  }
  Result<AudioSamples> audio = parse(Span<const uint8_t>(file->data(), file->size()));
  if (!audio.ok()) prefix_error_message(error_name(audio.error()), "audio '%s'", shown.c_str());
  return audio;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

Result<AudioSamples> load_wav(const std::string& path) { return load_with(path, parse_wav); }

Result<AudioSamples> load_audio(const std::string& path) {
  return load_with(path, ends_with(path, ".bin") ? parse_raw_float32 : parse_wav);
}

}  // namespace ember::llm

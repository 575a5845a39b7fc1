// The WAV and raw float32 readers (wav_loader.h): the committed files of
// test/models/media (written by Python's wave module, SciPy, NumPy and by
// hand, make_media.py) read back to the samples they were made from; files
// built here for each layout the parser walks; and a refusal with its
// error and message for every malformation.
#include "extension/llm/runner/wav_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kMedia = EMBER_MEDIA_FIXTURES;

// make_media.py: sample(): a sawtooth in [-1, 1] in steps of 1/8.
double wave_value(int i, int ch) { return ((i * 7 + ch * 3) % 17 - 8) / 8.0; }

// What the loader makes of an integer sample written as
// round(amp * wave_value), amp being the width's largest value.
float expected_int(int i, int ch, double amp) {
  const double written = std::nearbyint(amp * wave_value(i, ch));
  const double scaled = written * double(float(1.0 / amp));
  return float(std::fmax(-1.0, std::fmin(1.0, scaled)));
}

AudioSamples load_ok(const std::string& name) {
  Result<AudioSamples> audio = load_audio(kMedia + "/" + name);
  EXPECT_TRUE(audio.ok()) << name << ": " << last_error_message();
  return audio.ok() ? std::move(*audio) : AudioSamples{};
}

constexpr int kFrames = 17;  // make_media.py: n

void expect_int_file(const char* name, int channels, double amp, uint32_t rate, int bits) {
  AudioSamples a = load_ok(name);
  EXPECT_EQ(a.sample_rate, rate) << name;
  EXPECT_EQ(a.channels, channels) << name;
  EXPECT_EQ(a.bits_per_sample, bits) << name;
  EXPECT_FALSE(a.is_float) << name;
  ASSERT_EQ(a.samples.size(), size_t(kFrames)) << name;
  for (int i = 0; i < kFrames; ++i) {
    double sum = 0;
    for (int c = 0; c < channels; ++c) sum += expected_int(i, c, amp);
    EXPECT_FLOAT_EQ(a.samples[size_t(i)], float(sum / channels)) << name << " frame " << i;
    EXPECT_LE(std::fabs(a.samples[size_t(i)]), 1.0f);
  }
}

TEST(WavLoader, IntegerFilesFromPythonsWaveAndScipy) {
  expect_int_file("pcm8_mono.wav", 1, 127, 8000, 8);
  expect_int_file("pcm16_mono.wav", 1, 32767, 16000, 16);
  expect_int_file("pcm16_stereo.wav", 2, 32767, 16000, 16);
  expect_int_file("pcm24_stereo.wav", 2, 8388607, 44100, 24);
  expect_int_file("pcm32_mono.wav", 1, 2147483647, 22050, 32);
}

TEST(WavLoader, ExtensibleWithAListChunk) {
  // 24 valid bits left-justified in 32: read as 32-bit values, so the
  // scale is 2^31 and value * 256 / 2^31 == value / 2^23.
  AudioSamples a = load_ok("extensible_24in32_list.wav");
  EXPECT_EQ(a.channels, 2);
  EXPECT_EQ(a.bits_per_sample, 32);
  EXPECT_EQ(a.sample_rate, 16000u);
  ASSERT_EQ(a.samples.size(), size_t(kFrames));
  for (int i = 0; i < kFrames; ++i) {
    const double l = std::nearbyint(8388607 * wave_value(i, 0)) / 8388608.0;
    const double r = std::nearbyint(8388607 * wave_value(i, 1)) / 8388608.0;
    EXPECT_FLOAT_EQ(a.samples[size_t(i)], float((l + r) / 2)) << i;
  }
}

TEST(WavLoader, FloatFileFromScipyIsAveraged) {
  AudioSamples a = load_ok("float32_3ch.wav");  // fmt of 18 bytes, then a fact chunk
  EXPECT_TRUE(a.is_float);
  EXPECT_EQ(a.channels, 3);
  EXPECT_EQ(a.sample_rate, 48000u);
  ASSERT_EQ(a.samples.size(), size_t(kFrames));
  for (int i = 0; i < kFrames; ++i) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += float(wave_value(i, c) * 0.5);
    EXPECT_FLOAT_EQ(a.samples[size_t(i)], float(sum / 3)) << i;
  }
}

TEST(WavLoader, RawFloat32BinFile) {
  AudioSamples a = load_ok("raw_float32.bin");
  EXPECT_TRUE(a.is_float);
  EXPECT_EQ(a.sample_rate, 0u);
  EXPECT_EQ(a.channels, 1);
  ASSERT_EQ(a.samples.size(), size_t(kFrames));
  for (int i = 0; i < kFrames; ++i) EXPECT_EQ(a.samples[size_t(i)], float(wave_value(i, 0)));
}

// --- files built here -------------------------------------------------------

void put16(std::vector<uint8_t>& b, uint32_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, v & 0xFFFF);
  put16(b, v >> 16);
}
void put_id(std::vector<uint8_t>& b, const char* id) { b.insert(b.end(), id, id + 4); }

std::vector<uint8_t> chunk(const char* id, const std::vector<uint8_t>& body, bool pad = true) {
  std::vector<uint8_t> c;
  put_id(c, id);
  put32(c, uint32_t(body.size()));
  c.insert(c.end(), body.begin(), body.end());
  if (pad && body.size() % 2 == 1) c.push_back(0);
  return c;
}

struct Fmt {
  uint16_t tag = 1, channels = 1;
  uint32_t rate = 16000;
  uint16_t bits = 16;
  int block_align = -1;  // -1: channels * bits / 8
  // WAVE_FORMAT_EXTENSIBLE (tag 0xFFFE): cbSize, valid bits, sub-format.
  uint16_t extra = 22, valid = 0, sub_tag = 1;
  bool good_guid = true;
};

std::vector<uint8_t> fmt_body(const Fmt& f) {
  std::vector<uint8_t> b;
  put16(b, f.tag);
  put16(b, f.channels);
  put32(b, f.rate);
  const uint32_t align = f.block_align >= 0 ? uint32_t(f.block_align) : f.channels * f.bits / 8u;
  put32(b, f.rate * align);
  put16(b, align);
  put16(b, f.bits);
  if (f.tag == 0xFFFE) {
    put16(b, f.extra);
    put16(b, f.valid);
    put32(b, 0x3);  // channel mask
    put16(b, f.sub_tag);
    const uint8_t tail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                              0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};
    b.insert(b.end(), tail, tail + 14);
    if (!f.good_guid) b.back() ^= 1;
  }
  return b;
}

std::vector<uint8_t> riff(const std::vector<std::vector<uint8_t>>& chunks) {
  std::vector<uint8_t> body;
  put_id(body, "WAVE");
  for (const auto& c : chunks) body.insert(body.end(), c.begin(), c.end());
  std::vector<uint8_t> file;
  put_id(file, "RIFF");
  put32(file, uint32_t(body.size()));
  file.insert(file.end(), body.begin(), body.end());
  return file;
}

std::vector<uint8_t> pcm16(std::initializer_list<int> values) {
  std::vector<uint8_t> b;
  for (int v : values) put16(b, uint16_t(int16_t(v)));
  return b;
}

std::vector<uint8_t> simple(const Fmt& f, const std::vector<uint8_t>& data) {
  return riff({chunk("fmt ", fmt_body(f)), chunk("data", data)});
}

Result<AudioSamples> parse(const std::vector<uint8_t>& bytes) {
  return parse_wav(Span<const uint8_t>(bytes.data(), bytes.size()));
}

// Parses `bytes`, expects `error` and a message that contains `text`.
void expect_refused(const std::vector<uint8_t>& bytes, Error error, const char* text) {
  Result<AudioSamples> a = parse(bytes);
  ASSERT_FALSE(a.ok()) << text;
  EXPECT_EQ(a.error(), error) << text << ": " << last_error_message();
  EXPECT_NE(std::strstr(last_error_message(), text), nullptr)
      << "wanted \"" << text << "\" in \"" << last_error_message() << "\"";
}

TEST(WavParse, SixteenBitEndsAreClampedToOne) {
  Result<AudioSamples> a = parse(simple(Fmt{}, pcm16({-32768, -32767, 0, 32767, 1})));
  ASSERT_TRUE(a.ok()) << last_error_message();
  ASSERT_EQ(a->samples.size(), 5u);
  EXPECT_EQ(a->samples[0], -1.0f);
  EXPECT_EQ(a->samples[1], -1.0f);
  EXPECT_EQ(a->samples[2], 0.0f);
  EXPECT_FLOAT_EQ(a->samples[3], 1.0f);
  EXPECT_LE(a->samples[3], 1.0f);
  EXPECT_FLOAT_EQ(a->samples[4], 1.0f / 32767.0f);
}

TEST(WavParse, EightBitIsUnsignedAroundOneTwentyEight) {
  Fmt f;
  f.bits = 8;
  Result<AudioSamples> a = parse(simple(f, {0, 128, 255}));  // odd data: pad byte after
  ASSERT_TRUE(a.ok()) << last_error_message();
  ASSERT_EQ(a->samples.size(), 3u);
  EXPECT_EQ(a->samples[0], -1.0f);
  EXPECT_EQ(a->samples[1], 0.0f);
  EXPECT_FLOAT_EQ(a->samples[2], 1.0f);
}

TEST(WavParse, TwentyFourBitSignExtends) {
  Fmt f;
  f.bits = 24;
  Result<AudioSamples> a = parse(simple(f, {0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0x7F}));
  ASSERT_TRUE(a.ok()) << last_error_message();
  ASSERT_EQ(a->samples.size(), 3u);
  EXPECT_FLOAT_EQ(a->samples[0], -1.0f / 8388607.0f);
  EXPECT_EQ(a->samples[1], -1.0f);
  EXPECT_FLOAT_EQ(a->samples[2], 1.0f);
}

TEST(WavParse, ChunksAroundFmtAndDataAreSkipped) {
  // An odd JUNK chunk with its pad byte before fmt, a LIST between, a
  // chunk after data, and bytes after the RIFF chunk: all ignored.
  std::vector<uint8_t> file = riff({chunk("JUNK", {1, 2, 3}), chunk("fmt ", fmt_body(Fmt{})),
                                    chunk("LIST", {'I', 'N', 'F', 'O'}),
                                    chunk("data", pcm16({100, -100})),
                                    chunk("id3 ", {9, 9, 9})});
  file.push_back(0x55);
  Result<AudioSamples> a = parse(file);
  ASSERT_TRUE(a.ok()) << last_error_message();
  ASSERT_EQ(a->samples.size(), 2u);
  EXPECT_FLOAT_EQ(a->samples[0], 100.0f / 32767.0f);
}

TEST(WavParse, OddLastChunkMayLackItsPadByte) {
  Fmt f;
  f.bits = 8;
  // An odd chunk after fmt whose pad byte the writer left out, ending the
  // RIFF chunk: then no data chunk, which is the error, not the padding.
  expect_refused(riff({chunk("fmt ", fmt_body(f)), chunk("JUNK", {1}, false)}),
                 Error::InvalidArgument, "no data chunk");
  Result<AudioSamples> a = parse(riff({chunk("fmt ", fmt_body(f)), chunk("data", {7}, false)}));
  ASSERT_TRUE(a.ok()) << last_error_message();
}

TEST(WavParse, ExtensibleFloatAndValidBitsZero) {
  Fmt f;
  f.tag = 0xFFFE;
  f.sub_tag = 3;
  f.bits = 32;
  std::vector<uint8_t> data;
  const float values[2] = {0.25f, -1.5f};  // a float file may go past 1
  for (float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    put32(data, bits);
  }
  Result<AudioSamples> a = parse(simple(f, data));
  ASSERT_TRUE(a.ok()) << last_error_message();
  EXPECT_TRUE(a->is_float);
  EXPECT_EQ(a->samples, std::vector<float>({0.25f, -1.5f}));
}

TEST(WavParse, RefusesTheHeader) {
  expect_refused({'R', 'I', 'F', 'F', 4, 0, 0, 0, 'W', 'A', 'V'}, Error::InvalidArgument,
                 "11 bytes: too short for a RIFF header (12 bytes)");
  std::vector<uint8_t> file = simple(Fmt{}, pcm16({1}));
  std::vector<uint8_t> other = file;
  std::memcpy(other.data(), "OggS", 4);
  expect_refused(other, Error::InvalidArgument,
                 "not a WAV file: it starts with \"OggS\", not RIFF");
  std::memcpy(other.data(), "\x01\x02\x03\x04", 4);
  expect_refused(other, Error::InvalidArgument, "starts with \"\\x01\\x02\\x03\\x04\"");
  std::memcpy(other.data(), "RIFX", 4);
  expect_refused(other, Error::NotSupported, "a RIFX file");
  std::memcpy(other.data(), "RF64", 4);
  expect_refused(other, Error::NotSupported, "a RF64 file");
  other = file;
  std::memcpy(other.data() + 8, "AVI ", 4);
  expect_refused(other, Error::InvalidArgument, "a RIFF file of form \"AVI \", not WAVE");
  other = file;
  other[4] += 1;
  expect_refused(other, Error::InvalidArgument,
                 "the RIFF chunk says 39 bytes, but 38 follow its header (a truncated file?)");
  other.pop_back();
  other[4] = 3;
  expect_refused(other, Error::InvalidArgument, "the RIFF chunk says 3 bytes, but 37 follow");
  other = file;
  other.resize(other.size() - 1);
  other[4] -= 1;  // the RIFF size made to fit, the data chunk cut short
  expect_refused(other, Error::InvalidArgument,
                 "chunk \"data\" at offset 36 says 2 bytes; 1 are left in the RIFF chunk");
}

TEST(WavParse, RefusesTheChunkWalk) {
  std::vector<uint8_t> file = riff({chunk("fmt ", fmt_body(Fmt{}))});
  file.insert(file.end(), {'d', 'a', 't'});
  file[4] += 3;
  expect_refused(file, Error::InvalidArgument,
                 "3 stray bytes at offset 36: too few for a chunk header");
  expect_refused(riff({chunk("fmt ", fmt_body(Fmt{})), chunk("fmt ", fmt_body(Fmt{})),
                       chunk("data", pcm16({1}))}),
                 Error::InvalidArgument, "a second fmt chunk at offset 36");
  expect_refused(riff({chunk("data", pcm16({1})), chunk("fmt ", fmt_body(Fmt{}))}),
                 Error::InvalidArgument, "the data chunk at offset 12 comes before any fmt chunk");
  expect_refused(riff({chunk("fmt ", fmt_body(Fmt{}))}), Error::InvalidArgument,
                 "no data chunk");
  expect_refused(riff({}), Error::InvalidArgument, "no fmt chunk and no data chunk");
  expect_refused(riff({chunk("LIST", {1, 2})}), Error::InvalidArgument,
                 "no fmt chunk and no data chunk");
}

TEST(WavParse, RefusesTheFmtChunk) {
  std::vector<uint8_t> short_fmt = fmt_body(Fmt{});
  short_fmt.resize(14);
  expect_refused(riff({chunk("fmt ", short_fmt), chunk("data", pcm16({1}))}),
                 Error::InvalidArgument, "fmt chunk: 14 bytes; at least 16 are needed");
  Fmt f;
  f.channels = 0;
  expect_refused(simple(f, pcm16({1})), Error::InvalidArgument, "fmt chunk: 0 channels");
  f = Fmt{};
  f.rate = 0;
  expect_refused(simple(f, pcm16({1})), Error::InvalidArgument, "fmt chunk: a sample rate of 0");
  f = Fmt{};
  f.channels = 2;
  f.block_align = 2;
  expect_refused(simple(f, pcm16({1, 2})), Error::InvalidArgument,
                 "fmt chunk: block align 2, but 2 channels of 16 bits make 4 bytes");
  f = Fmt{};
  f.tag = 6;
  f.bits = 8;
  expect_refused(simple(f, {1, 2}), Error::NotSupported,
                 "fmt chunk: format tag 0x0006 (A-law); PCM (1), IEEE float (3) and "
                 "WAVE_FORMAT_EXTENSIBLE of those are read");
  f.tag = 0x1234;
  expect_refused(simple(f, {1, 2}), Error::NotSupported, "format tag 0x1234 (unknown)");
  f = Fmt{};
  f.bits = 12;
  f.block_align = 2;
  expect_refused(simple(f, pcm16({1})), Error::NotSupported,
                 "fmt chunk: PCM of 12 bits per sample; 8, 16, 24 and 32 are read");
  f = Fmt{};
  f.tag = 3;
  f.bits = 64;
  expect_refused(simple(f, std::vector<uint8_t>(8)), Error::NotSupported,
                 "fmt chunk: IEEE float of 64 bits per sample; 32 are read");
}

TEST(WavParse, RefusesTheExtensibleFmt) {
  Fmt f;
  f.tag = 0xFFFE;
  std::vector<uint8_t> body = fmt_body(f);
  body.resize(24);
  expect_refused(riff({chunk("fmt ", body), chunk("data", pcm16({1}))}), Error::InvalidArgument,
                 "fmt chunk: WAVE_FORMAT_EXTENSIBLE needs 40 bytes, the chunk has 24");
  f.extra = 20;
  expect_refused(simple(f, pcm16({1})), Error::InvalidArgument,
                 "fmt chunk: WAVE_FORMAT_EXTENSIBLE with an extension of 20 bytes; 22 are "
                 "needed");
  f = Fmt{};
  f.tag = 0xFFFE;
  f.valid = 17;
  expect_refused(simple(f, pcm16({1})), Error::InvalidArgument,
                 "fmt chunk: 17 valid bits in a 16-bit container");
  f = Fmt{};
  f.tag = 0xFFFE;
  f.good_guid = false;
  expect_refused(simple(f, pcm16({1})), Error::NotSupported,
                 "WAVE_FORMAT_EXTENSIBLE with sub-format GUID \"\\x01\\x00\\x00\\x00\\x00\\x00"
                 "\\x10\\x00\\x80\\x00\\x00\\xaa\\x008\\x9bp\", not one of the WAVE_FORMAT_* "
                 "codes");
  f.good_guid = true;
  f.sub_tag = 0xFFFE;
  expect_refused(simple(f, pcm16({1})), Error::NotSupported, "sub-format GUID");
  f.sub_tag = 7;
  f.bits = 8;
  expect_refused(simple(f, {1, 2}), Error::NotSupported, "format tag 0x0007 (mu-law)");
}

TEST(WavParse, RefusesTheData) {
  Fmt f;
  f.channels = 2;
  expect_refused(simple(f, pcm16({1, 2, 3})), Error::InvalidArgument,
                 "data chunk: 6 bytes, not a whole number of 4-byte frames");
  expect_refused(simple(f, {}), Error::InvalidArgument, "data chunk: no samples");
  f = Fmt{};
  f.tag = 3;
  f.bits = 32;
  f.channels = 2;
  std::vector<uint8_t> data;
  put32(data, 0);
  put32(data, 0);
  put32(data, 0);
  put32(data, 0x7FC00000);  // NaN
  expect_refused(simple(f, data), Error::InvalidArgument,
                 "data chunk: the sample of frame 1, channel 1 is not finite");
}

TEST(RawFloat32, RefusesPartialSamplesEmptyAndNonFinite) {
  const uint8_t five[5] = {0, 0, 0, 0, 0};
  EXPECT_FALSE(parse_raw_float32(five).ok());
  EXPECT_STREQ(last_error_message(), "5 bytes: not a whole number of float32 samples");
  EXPECT_FALSE(parse_raw_float32({}).ok());
  EXPECT_STREQ(last_error_message(), "no samples (an empty file)");
  const uint8_t inf[8] = {0, 0, 0, 0, 0, 0, 0x80, 0x7F};
  Result<AudioSamples> a = parse_raw_float32(inf);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error(), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "sample 1 is not finite");
}

TEST(WavLoader, FileErrorsNameTheFileEscaped) {
  Result<AudioSamples> missing = load_audio(kMedia + "/missing\x1b.wav");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::AccessFailed);
  EXPECT_NE(std::strstr(last_error_message(), "missing\\x1b.wav"), nullptr);
  EXPECT_EQ(std::strchr(last_error_message(), '\x1b'), nullptr);
  // The name decides, as upstream's runners decide: a .bin file given to
  // load_wav is refused as WAV, and load_audio reads .wav as WAV.
  EXPECT_FALSE(load_wav(kMedia + "/raw_float32.bin").ok());
  EXPECT_NE(std::strstr(last_error_message(), "raw_float32.bin': not a WAV file"), nullptr)
      << last_error_message();
  EXPECT_TRUE(load_audio(kMedia + "/pcm8_mono.wav").ok());
}

}  // namespace
}  // namespace ember::llm

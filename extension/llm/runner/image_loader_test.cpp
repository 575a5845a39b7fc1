// The image loader (image_loader.h): the committed pictures of
// test/models/media (written by PIL and NumPy, make_media.py) decoded to
// the pixels they were made from, every refusal with its message, the
// resize against torch's numbers, normalization and the presets.
#include "extension/llm/runner/image_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "extension/npy/npy.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kMedia = EMBER_MEDIA_FIXTURES;

// make_media.py: pixel().
int pattern_pixel(int c, int y, int x) { return (c * 80 + y * 30 + x * 10) % 256; }
// make_media.py: smooth_pattern().
int smooth_pixel(int c, int y, int x) { return 40 + c * 60 + y * 4 + x * 3; }

int at(const Image& image, int c, int y, int x) {
  return image.u8[(size_t(c) * image.height + y) * image.width + x];
}

Image load_ok(const std::string& name) {
  Result<Image> image = load_image(kMedia + "/" + name);
  EXPECT_TRUE(image.ok()) << name << ": " << last_error_message();
  return image.ok() ? std::move(*image) : Image{};
}

void expect_pattern(const Image& image, int height, int width, int tolerance = 0) {
  ASSERT_EQ(image.channels, 3);
  ASSERT_EQ(image.height, height);
  ASSERT_EQ(image.width, width);
  ASSERT_EQ(image.u8.size(), size_t(3 * height * width));
  EXPECT_FALSE(image.is_float());
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        EXPECT_NEAR(at(image, c, y, x), pattern_pixel(c, y, x), tolerance)
            << "c " << c << " y " << y << " x " << x;
      }
    }
  }
}

Error load_error(Span<const uint8_t> bytes, const char* name, const ImageLimits& limits = {}) {
  Result<Image> image = load_image_from_memory(bytes, name, limits);
  return image.ok() ? Error::Ok : image.error();
}

std::vector<uint8_t> file_bytes(const std::string& name) {
  FILE* f = std::fopen((kMedia + "/" + name).c_str(), "rb");
  std::vector<uint8_t> bytes;
  if (f == nullptr) return bytes;
  int ch;
  while ((ch = std::fgetc(f)) != EOF) bytes.push_back(uint8_t(ch));
  std::fclose(f);
  return bytes;
}

// A PNG signature, an IHDR chunk for width x height, 8-bit RGB, and an
// IEND chunk (stb does not check the CRCs, left zero): no pixels.
std::vector<uint8_t> png_header(uint32_t width, uint32_t height) {
  std::vector<uint8_t> b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13,
                            'I', 'H', 'D', 'R'};
  for (uint32_t v : {width, height}) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
  }
  for (uint8_t v : {8, 2, 0, 0, 0, 0, 0, 0, 0}) b.push_back(v);
  const char iend[] = "\0\0\0\0IEND\0\0\0\0";
  b.insert(b.end(), iend, iend + 12);
  return b;
}

TEST(ImageLoader, PngIsExact) { expect_pattern(load_ok("rgb_4x3.png"), 3, 4); }

TEST(ImageLoader, GrayBecomesThreeEqualChannels) {
  for (const char* name : {"gray_3x2.png", "gray_3x2.bmp"}) {
    Image image = load_ok(name);
    ASSERT_EQ(image.channels, 3) << name;
    ASSERT_EQ(image.height, 2);
    ASSERT_EQ(image.width, 3);
    for (int c = 0; c < 3; ++c) {
      for (int y = 0; y < 2; ++y) {
        for (int x = 0; x < 3; ++x) EXPECT_EQ(at(image, c, y, x), (y * 3 + x) * 20) << name;
      }
    }
  }
}

TEST(ImageLoader, AlphaIsDropped) { expect_pattern(load_ok("rgba_2x2.png"), 2, 2); }

TEST(ImageLoader, SixteenBitKeepsTheTopByte) { expect_pattern(load_ok("rgb16_2x3.png"), 3, 2); }

TEST(ImageLoader, BmpWithPaddedRowsIsExact) { expect_pattern(load_ok("rgb_5x3.bmp"), 3, 5); }

TEST(ImageLoader, JpegWithinTwoLevels) {
  // PIL's own decoder is within 1 level of the pattern for each file. The
  // restart file has RST markers in its scan and a comment holding FF C4.
  for (auto [name, size] : {std::pair{"rgb_8x8.jpg", 8}, {"rgb_8x8_progressive.jpg", 8},
                            {"rgb_12x12_restart.jpg", 12}}) {
    Image image = load_ok(name);
    ASSERT_EQ(image.height, size) << name;
    ASSERT_EQ(image.width, size) << name;
    for (int c = 0; c < 3; ++c) {
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          EXPECT_NEAR(at(image, c, y, x), smooth_pixel(c, y, x), 2) << name;
        }
      }
    }
  }
}

TEST(ImageLoader, NpyTakenAsItIs) {
  expect_pattern(load_ok("image_chw_u8.npy"), 2, 4);
  Image f = load_ok("image_nchw_f32.npy");  // [1, 3, 2, 2]: pattern / 255 - 0.5
  ASSERT_TRUE(f.is_float());
  ASSERT_EQ(f.channels, 3);
  ASSERT_EQ(f.height, 2);
  ASSERT_EQ(f.width, 2);
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 2; ++y) {
      for (int x = 0; x < 2; ++x) {
        EXPECT_FLOAT_EQ(f.f32[size_t(c * 4 + y * 2 + x)],
                        float(pattern_pixel(c, y, x)) / 255.0f - 0.5f);
      }
    }
  }
}

TEST(ImageLoader, RefusesNpyOfOtherTypesAndShapes) {
  const int32_t data[12] = {};
  std::vector<uint8_t> ints = to_npy(ScalarType::Int, {3, 2, 2}, data);
  EXPECT_EQ(load_error({ints.data(), ints.size()}, "a.npy"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "image 'a.npy': an .npy array of Int"), nullptr)
      << last_error_message();
  for (std::vector<SizesType> shape : std::vector<std::vector<SizesType>>{
           {2, 2, 3}, {1, 3, 4}, {2, 3, 2, 1}, {12}, {3, 4, 1, 1}}) {
    std::vector<uint8_t> bytes = to_npy(ScalarType::Byte, shape, data);
    EXPECT_EQ(load_error({bytes.data(), bytes.size()}, "b.npy"), Error::InvalidArgument);
    EXPECT_NE(std::strstr(last_error_message(), "[3, H, W] or [1, 3, H, W]"), nullptr)
        << last_error_message();
  }
  std::vector<uint8_t> empty = to_npy(ScalarType::Byte, {3, 0, 2}, data);
  EXPECT_EQ(load_error({empty.data(), empty.size()}, "c.npy"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "both sides must be at least 1"), nullptr);
  float floats[3] = {0.0f, NAN, 1.0f};
  std::vector<uint8_t> nan = to_npy(ScalarType::Float, {3, 1, 1}, floats);
  EXPECT_EQ(load_error({nan.data(), nan.size()}, "d.npy"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "value 1 of the .npy array is not finite"),
            nullptr) << last_error_message();
  std::vector<uint8_t> cut = file_bytes("image_chw_u8.npy");
  cut.pop_back();
  EXPECT_EQ(load_error({cut.data(), cut.size()}, "e.npy"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "image 'e.npy': "), nullptr);
}

TEST(ImageLoader, RefusesWhatIsNotAnImage) {
  EXPECT_EQ(load_error({}, "empty.png"), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "image 'empty.png': the file is empty");
  const uint8_t gif[] = {'G', 'I', 'F', '8', '9', 'a', 0x01, 0x00, 0x7F};
  EXPECT_EQ(load_error(gif, "x\x1b.gif"), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "image 'x\\x1b.gif': not a PNG, JPEG, BMP or .npy file (it starts with "
               "\"GIF89a\\x01\\x00\")");
}

TEST(ImageLoader, RefusesBrokenAndCutFiles) {
  // stb reads past the end of a file as zeros: the loader refuses files
  // cut short before stb sees them (image_stb_checks.h).
  struct Cut {
    const char* name;
    size_t keep;  // bytes kept; 0: half
    const char* message;  // after "image 'NAME': "
  };
  const Cut cuts[] = {
      {"rgb_4x3.png", 10, "the PNG file is cut short: it ends before its IEND chunk"},
      {"rgb_4x3.png", 50, "the PNG file's chunk \"IDAT\" at offset 33 says 20 bytes; 5 are left"},
      {"rgb_4x3.png", 76, "the PNG file is cut short"},
      {"rgb_8x8.jpg", 10, "the JPEG file is cut short"},
      {"rgb_8x8.jpg", 0, "the JPEG file is cut short: it ends before its end marker (FF D9)"},
      {"rgb_8x8_progressive.jpg", 0, "the JPEG file is cut short"},
      {"rgb_5x3.bmp", 10, "cannot read the BMP header: "},
      {"rgb_5x3.bmp", 101,
       "the BMP file is cut short: its pixels end at byte 102, the file has 101"},
      {"gray_3x2.bmp", 1080, "the BMP file is cut short: its pixels end at byte 1086"},
  };
  for (const Cut& cut : cuts) {
    std::vector<uint8_t> bytes = file_bytes(cut.name);
    ASSERT_FALSE(bytes.empty()) << cut.name;
    const size_t keep = cut.keep == 0 ? bytes.size() / 2 : cut.keep;
    EXPECT_EQ(load_error({bytes.data(), keep}, cut.name), Error::InvalidArgument)
        << cut.name << " cut to " << keep;
    const std::string want = "image '" + std::string(cut.name) + "': " + cut.message;
    EXPECT_EQ(std::string(last_error_message()).substr(0, want.size()), want);
  }
}

// The header segments of a JPEG (each from its FF), then the rest from the
// scan header (SOS) on.
struct JpegParts {
  std::vector<std::vector<uint8_t>> segments;
  std::vector<uint8_t> rest;
  std::vector<uint8_t> join() const {
    std::vector<uint8_t> out = {0xFF, 0xD8};
    for (const auto& s : segments) out.insert(out.end(), s.begin(), s.end());
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
};

JpegParts jpeg_parts(const std::vector<uint8_t>& bytes) {
  JpegParts parts;
  size_t pos = 2;
  while (pos + 4 <= bytes.size() && bytes[pos + 1] != 0xDA) {
    const size_t end = pos + 2 + (size_t(bytes[pos + 2]) << 8 | bytes[pos + 3]);
    parts.segments.emplace_back(bytes.begin() + long(pos), bytes.begin() + long(end));
    pos = end;
  }
  parts.rest.assign(bytes.begin() + long(pos), bytes.end());
  return parts;
}

// The segment walk (image_stb_checks.cpp) on rgb_8x8.jpg taken apart:
// APP0, DQT, DQT, SOF0, DHT x 4, then the scan.
TEST(ImageLoader, JpegSegmentWalk) {
  const std::vector<uint8_t> file = file_bytes("rgb_8x8.jpg");
  JpegParts parts = jpeg_parts(file);
  ASSERT_EQ(parts.segments.size(), 8u);
  ASSERT_EQ(parts.join(), file);
  Result<Image> reference = load_image_from_memory({file.data(), file.size()}, "j");
  ASSERT_TRUE(reference.ok());
  auto same_pixels = [&](const std::vector<uint8_t>& bytes, const char* what) {
    Result<Image> image = load_image_from_memory({bytes.data(), bytes.size()}, "j");
    ASSERT_TRUE(image.ok()) << what << ": " << last_error_message();
    EXPECT_EQ(image->u8, reference->u8) << what;
  };
  // Stray bytes between the segments before the frame header: stb skips
  // them, and so does the walk.
  JpegParts stray = parts;
  stray.segments[0].insert(stray.segments[0].end(), {0x00, 0x12, 0xD9});
  same_pixels(stray.join(), "stray bytes");
  // Quantization tables after the frame header, before the scan: legal.
  JpegParts late = parts;
  std::rotate(late.segments.begin() + 1, late.segments.begin() + 3, late.segments.begin() + 4);
  ASSERT_EQ(late.segments[1][1], 0xC0);
  same_pixels(late.join(), "DQT after SOF");
  // Without the luma AC table (the second DHT), the scan decodes with a
  // table nothing defined.
  JpegParts no_ac = parts;
  ASSERT_EQ(no_ac.segments[5][4], 0x10);  // class 1 (AC), table 0
  no_ac.segments.erase(no_ac.segments.begin() + 5);
  std::vector<uint8_t> bytes = no_ac.join();
  EXPECT_EQ(load_error({bytes.data(), bytes.size()}, "j"), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "image 'j': the JPEG file's scan at offset 426 decodes component 1 with Huffman "
               "table AC0, which no segment before it defines");
  // Without the quantization tables.
  JpegParts no_dqt = parts;
  no_dqt.segments.erase(no_dqt.segments.begin() + 1, no_dqt.segments.begin() + 3);
  bytes = no_dqt.join();
  EXPECT_EQ(load_error({bytes.data(), bytes.size()}, "j"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "with quantization table 0, which no segment"),
            nullptr) << last_error_message();
  // A Huffman table whose 16 counts say 257 codes (the last one raised).
  JpegParts big = parts;
  std::vector<uint8_t>& dht = big.segments[4];  // FF C4, length, class/id, 16 counts, values
  uint32_t total = 0;
  for (size_t i = 5; i < 21; ++i) total += dht[i];
  dht[20] = uint8_t(dht[20] + (257 - total));
  bytes = big.join();
  EXPECT_EQ(load_error({bytes.data(), bytes.size()}, "j"), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "image 'j': the JPEG file's Huffman table at offset 181 has 257 codes; at most "
               "256 are allowed");
}

// fuzz/image_fuzzer's findings (test/regression/crash_image_*), each with
// the message it must give (after "image '<path>': "). Each was undefined
// behaviour inside stb_image 2.27 before image_stb_checks.cpp.
TEST(ImageLoader, FuzzFindingsAreRefused) {
  const std::pair<const char*, const char*> findings[] = {
      // A DHT segment of 804 codes: stb wrote past its Huffman table.
      {"crash_image_jpeg_dht_over_256_codes.jpg",
       "the JPEG file's Huffman table at offset 203 has 804 codes; at most 256 are allowed"},
      // Scans decoding with tables no DQT or DHT defined: stb read its
      // uninitialized tables and indexed with what it found there.
      {"crash_image_jpeg_undefined_tables.jpg",
       "the JPEG file's scan at offset 151 decodes component 1 with quantization table 0, "
       "which no segment before it defines"},
      // An empty first IDAT: stb copied it to a null pointer.
      {"crash_image_png_empty_first_idat.png",
       "the PNG file's first IDAT chunk (offset 33) is empty"},
  };
  // Corrupt entropy-coded data on which stb's bit buffer shifts by 32
  // (undefined, left unreported in stb's file: extension/llm/CMakeLists.txt):
  // stb decodes it to some 12 x 12 picture.
  EXPECT_TRUE(load_image(std::string(EMBER_REGRESSION_DIR) +
                         "/crash_image_jpeg_bit_buffer_shift.jpg").ok())
      << last_error_message();
  for (const auto& [file, message] : findings) {
    Result<Image> image = load_image(std::string(EMBER_REGRESSION_DIR) + "/" + file);
    ASSERT_FALSE(image.ok()) << file;
    EXPECT_EQ(image.error(), Error::InvalidArgument) << file;
    const std::string want = std::string(file) + "': " + message;
    EXPECT_NE(std::strstr(last_error_message(), want.c_str()), nullptr) << last_error_message();
  }
}

TEST(ImageLoader, RefusesTooLargeBeforeDecoding) {
  std::vector<uint8_t> wide = png_header(16385, 1);
  EXPECT_EQ(load_error({wide.data(), wide.size()}, "wide.png"), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "image 'wide.png': 1 x 16385 pixels is too large (at most 16384 a side and "
               "134217728 pixels in all)");
  std::vector<uint8_t> big = png_header(16384, 16384);  // 256 Mpx
  EXPECT_EQ(load_error({big.data(), big.size()}, "big.png"), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "16384 x 16384 pixels is too large"), nullptr);
  // Tighter limits, and limits above the constants clamped to them.
  std::vector<uint8_t> png = file_bytes("rgb_4x3.png");
  EXPECT_EQ(load_error({png.data(), png.size()}, "p", ImageLimits{4, 12}), Error::Ok);
  EXPECT_EQ(load_error({png.data(), png.size()}, "p", ImageLimits{3, 12}), Error::InvalidArgument);
  EXPECT_EQ(load_error({png.data(), png.size()}, "p", ImageLimits{4, 11}), Error::InvalidArgument);
  EXPECT_EQ(load_error({wide.data(), wide.size()}, "w", ImageLimits{1 << 20, int64_t(1) << 40}),
            Error::InvalidArgument);
  // The .npy path has the same limits.
  const uint8_t data[3 * 5] = {};
  std::vector<uint8_t> npy = to_npy(ScalarType::Byte, {1, 3, 1, 5}, data);
  EXPECT_EQ(load_error({npy.data(), npy.size()}, "n", ImageLimits{4, 100}),
            Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "1 x 5 pixels is too large"), nullptr);
}

TEST(ImageLoader, MissingFileIsAccessFailedWithTheNameEscaped) {
  Result<Image> image = load_image(kMedia + "/no_such\x07.png");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error(), Error::AccessFailed);
  EXPECT_NE(std::strstr(last_error_message(), "no_such\\x07.png"), nullptr) << last_error_message();
  EXPECT_EQ(std::strchr(last_error_message(), '\x07'), nullptr);
}

// --- resize ---------------------------------------------------------------

// The inputs of the resize references: (c*37 + y*11 + x*5 + (x*y % 7)*13) % 256.
Image resize_input(int channels, int height, int width, bool as_float) {
  Image image;
  image.channels = channels;
  image.height = height;
  image.width = width;
  for (int c = 0; c < channels; ++c) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const int v = (c * 37 + y * 11 + x * 5 + (x * y) % 7 * 13) % 256;
        if (as_float) image.f32.push_back(float(v)); else image.u8.push_back(uint8_t(v));
      }
    }
  }
  return image;
}

struct ResizeCase {
  int c, h, w, out_h, out_w;
  std::vector<float> expected;
};

// torch 2.13 (CPU): F.interpolate(input[None].float(), size=(out_h, out_w),
// mode="bilinear", align_corners=False, antialias=True), printed to 5
// decimals. The second case enlarges (plain bilinear there), the fourth
// shrinks one side and enlarges the other, the last averages 7 x 3 to one.
const std::vector<ResizeCase>& resize_cases() {
  static const std::vector<ResizeCase> cases = {
      {1, 4, 6, 2, 3, {18.06122f, 41.94643f, 57.93878f, 49.93878f, 87.55357f, 84.77551f}},
      {1, 2, 3, 4, 5, {0.0f, 2.0f, 5.0f, 8.0f, 10.0f, 2.75f, 6.05f, 11.0f, 15.95f, 19.25f,
                       8.25f, 14.15f, 23.0f, 31.85f, 37.75f, 11.0f, 18.2f, 29.0f, 39.8f, 47.0f}},
      {2, 5, 7, 3, 4, {10.2517f, 26.70286f, 46.15428f, 62.60544f, 38.23809f, 80.81778f,
                       82.85333f, 101.72486f, 63.74829f, 93.73714f, 104.6457f, 113.53741f,
                       47.2517f, 63.70286f, 83.15428f, 99.60544f, 75.23809f, 117.81779f,
                       119.85333f, 138.72487f, 100.74828f, 130.73714f, 141.64571f, 150.5374f}},
      {1, 3, 2, 2, 5, {4.125f, 5.1125f, 9.0625f, 13.0125f, 14.0f, 17.875f, 20.4875f, 30.9375f,
                       41.3875f, 44.0f}},
      {1, 7, 3, 1, 1, {66.45946f}},
  };
  return cases;
}

TEST(ImageResize, MatchesTorchAntialiasedBilinear) {
  for (const ResizeCase& rc : resize_cases()) {
    Result<Image> out = resize_image(resize_input(rc.c, rc.h, rc.w, true), rc.out_h, rc.out_w);
    ASSERT_TRUE(out.ok()) << last_error_message();
    ASSERT_TRUE(out->is_float());
    ASSERT_EQ(out->channels, rc.c);
    ASSERT_EQ(out->height, rc.out_h);
    ASSERT_EQ(out->width, rc.out_w);
    ASSERT_EQ(out->f32.size(), rc.expected.size());
    for (size_t i = 0; i < rc.expected.size(); ++i) {
      EXPECT_NEAR(out->f32[i], rc.expected[i], 2e-4) << rc.h << "x" << rc.w << " index " << i;
    }
  }
}

TEST(ImageResize, Uint8RoundsTheSameValues) {
  for (const ResizeCase& rc : resize_cases()) {
    Result<Image> out = resize_image(resize_input(rc.c, rc.h, rc.w, false), rc.out_h, rc.out_w);
    ASSERT_TRUE(out.ok()) << last_error_message();
    ASSERT_FALSE(out->is_float());
    for (size_t i = 0; i < rc.expected.size(); ++i) {
      EXPECT_EQ(out->u8[i], int(std::floor(rc.expected[i] + 0.5f))) << "index " << i;
    }
  }
}

TEST(ImageResize, SameSizeIsTheIdentity) {
  Image in = resize_input(3, 5, 4, false);
  Result<Image> out = resize_image(in, 5, 4);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->u8, in.u8);
}

TEST(ImageResize, RefusesBadSizesAndImages) {
  Image in = resize_input(3, 2, 2, false);
  for (auto [h, w] : {std::pair{0, 4}, {4, -1}, {16385, 1}, {16384, 16384}}) {
    Result<Image> out = resize_image(in, h, w);
    ASSERT_FALSE(out.ok()) << h << "x" << w;
    EXPECT_EQ(out.error(), Error::InvalidArgument);
    EXPECT_EQ(std::strncmp(last_error_message(), "resize_image: the output: ", 26), 0);
  }
  Image broken = in;
  broken.u8.pop_back();
  EXPECT_FALSE(resize_image(broken, 2, 2).ok());
  EXPECT_STREQ(last_error_message(),
               "resize_image: a 3 x 2 x 2 image holds 11 uint8 and 0 float values; exactly one "
               "of them must hold 12");
  Image both = in;
  both.f32.assign(12, 0.0f);
  EXPECT_FALSE(resize_image(both, 2, 2).ok());
  EXPECT_FALSE(resize_image(Image{}, 2, 2).ok());
  EXPECT_STREQ(last_error_message(), "resize_image: an image of 0 channels, 0 x 0 pixels");
}

// --- normalize and presets -------------------------------------------------

TEST(ImageNormalize, ScalesAndNormalizesEachChannel) {
  Image in = resize_input(3, 2, 3, false);
  const float mean[3] = {0.5f, 0.25f, 0.0f};
  const float std[3] = {0.5f, 2.0f, 1.0f};
  Result<Image> out = normalize_image(in, mean, std, 1.0f / 255.0f);
  ASSERT_TRUE(out.ok()) << last_error_message();
  ASSERT_TRUE(out->is_float());
  ASSERT_EQ(out->f32.size(), in.u8.size());
  for (size_t i = 0; i < in.u8.size(); ++i) {
    const size_t c = i / 6;
    EXPECT_NEAR(out->f32[i], (in.u8[i] / 255.0f - mean[c]) / std[c], 1e-6) << i;
  }
  // A float image is scaled the same way.
  Result<Image> again = normalize_image(resize_input(3, 2, 3, true), mean, std, 1.0f / 255.0f);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->f32, out->f32);
}

TEST(ImageNormalize, Refuses) {
  const float mean[3] = {0, 0, 0};
  const float ones[3] = {1, 1, 1};
  const float zero_std[3] = {1, 0, 1};
  EXPECT_FALSE(normalize_image(resize_input(2, 2, 2, false), mean, ones, 1.0f).ok());
  EXPECT_STREQ(last_error_message(),
               "normalize_image: the image has 2 channels; the mean and std are for 3");
  EXPECT_FALSE(normalize_image(resize_input(3, 2, 2, false), mean, zero_std, 1.0f).ok());
  EXPECT_NE(std::strstr(last_error_message(), "channel 1: mean 0, std 0"), nullptr);
  EXPECT_FALSE(normalize_image(resize_input(3, 2, 2, false), mean, ones, NAN).ok());
}

TEST(ImagePreset, FindsTheKnownOnes) {
  EXPECT_EQ(image_preset_names(), "llava, gemma3, hf_gemma3, hf_llava");
  Result<const ImagePreset*> llava = find_image_preset("llava");
  ASSERT_TRUE(llava.ok());
  EXPECT_STREQ((*llava)->name, "llava");
  Result<const ImagePreset*> unknown = find_image_preset("clip\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "unknown image preset 'clip\\x0a' (known: llava, gemma3, hf_gemma3, hf_llava)");
}

TEST(ImagePreset, LongestEdgeAsUpstreamsLlava) {
  int32_t h = 0, w = 0;
  longest_edge_size(500, 1000, 336, &h, &w);
  EXPECT_EQ(h, 168);
  EXPECT_EQ(w, 336);
  longest_edge_size(1000, 333, 336, &h, &w);  // 333 * 336 / 1000 = 111.888: truncated
  EXPECT_EQ(h, 336);
  EXPECT_EQ(w, 111);
  longest_edge_size(7, 7, 336, &h, &w);
  EXPECT_EQ(h, 336);
  EXPECT_EQ(w, 336);
  longest_edge_size(1, 2000, 336, &h, &w);  // 0.168: at least 1
  EXPECT_EQ(h, 1);
  EXPECT_EQ(w, 336);
}

TEST(ImagePreset, LlavaKeepsUint8AndGemma3GivesFloatOverTwoFiftyFive) {
  Image png = load_ok("rgb_4x3.png");
  Result<Image> llava = apply_image_preset(png, **find_image_preset("llava"));
  ASSERT_TRUE(llava.ok()) << last_error_message();
  EXPECT_FALSE(llava->is_float());
  EXPECT_EQ(llava->height, 252);  // 3 * 336 / 4
  EXPECT_EQ(llava->width, 336);
  Result<Image> gemma3 = apply_image_preset(png, **find_image_preset("gemma3"));
  ASSERT_TRUE(gemma3.ok()) << last_error_message();
  ASSERT_TRUE(gemma3->is_float());
  EXPECT_EQ(gemma3->height, 896);
  EXPECT_EQ(gemma3->width, 896);
  // The corner pixel is the source's corner (enlarging), over 255.
  EXPECT_NEAR(gemma3->f32[0], pattern_pixel(0, 0, 0) / 255.0f, 1e-6);
  EXPECT_NEAR(gemma3->f32[size_t(2) * 896 * 896 + 895], pattern_pixel(2, 0, 3) / 255.0f, 1e-6);
  for (float v : gemma3->f32) {
    ASSERT_GE(v, 0.0f);
    ASSERT_LE(v, 1.0f);
  }
  // A float image (an .npy file) is not converted again.
  Image npy = load_ok("image_nchw_f32.npy");
  EXPECT_FALSE(apply_image_preset(npy, **find_image_preset("gemma3")).ok());
  EXPECT_NE(std::strstr(last_error_message(), "the image is float already"), nullptr);
  Result<Image> resized = apply_image_preset(npy, **find_image_preset("llava"));
  ASSERT_TRUE(resized.ok());
  EXPECT_TRUE(resized->is_float());
  EXPECT_EQ(resized->height, 336);
}

}  // namespace
}  // namespace ember::llm

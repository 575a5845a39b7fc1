// build_multimodal_prompt (multimodal_prompt.h): the pieces each format
// makes, in order.
#include "extension/llm/runner/multimodal_prompt.h"

#include <gtest/gtest.h>

#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

using Kind = MultimodalInput::Kind;

TensorPtr pixels() { return *make_tensor_ptr<float>({3, 2, 2}, std::vector<float>(12, 0.5f)); }
TensorPtr features() { return *make_tensor_ptr<float>({1, 4, 3}, std::vector<float>(12, 0.f)); }

std::vector<Kind> kinds(const std::vector<MultimodalInput>& pieces) {
  std::vector<Kind> out;
  for (const MultimodalInput& p : pieces) out.push_back(p.kind);
  return out;
}

TEST(MultimodalPrompt, Gemma3WrapsTheImageInItsTurn) {
  auto pieces = build_multimodal_prompt("gemma3", "What is this?", pixels(), nullptr);
  ASSERT_TRUE(pieces.ok()) << last_error_message();
  ASSERT_EQ(kinds(*pieces), (std::vector<Kind>{Kind::kText, Kind::kImage, Kind::kText}));
  EXPECT_EQ((*pieces)[0].text, "<start_of_turn>user\n<start_of_image>");
  EXPECT_EQ((*pieces)[2].text, "What is this?<end_of_turn>\n<start_of_turn>model\n");
}

TEST(MultimodalPrompt, LlavaAndVoxtral) {
  auto llava = build_multimodal_prompt("llava", "ASSISTANT:", pixels(), nullptr);
  ASSERT_TRUE(llava.ok());
  EXPECT_EQ(kinds(*llava), (std::vector<Kind>{Kind::kText, Kind::kImage, Kind::kText}));
  EXPECT_NE((*llava)[0].text.find("USER: "), std::string::npos);
  auto voxtral = build_multimodal_prompt("voxtral", "Transcribe", nullptr, features());
  ASSERT_TRUE(voxtral.ok());
  EXPECT_EQ(kinds(*voxtral), (std::vector<Kind>{Kind::kText, Kind::kAudio, Kind::kText}));
  EXPECT_EQ((*voxtral)[0].text, "<s>[INST][BEGIN_AUDIO]");
  EXPECT_EQ((*voxtral)[2].text, "Transcribe[/INST]");
}

TEST(MultimodalPrompt, RawPutsMediaAtTheirMarkers) {
  auto pieces = build_multimodal_prompt("raw", "a<image>b<audio><image>", pixels(), features());
  ASSERT_TRUE(pieces.ok()) << last_error_message();
  EXPECT_EQ(kinds(*pieces), (std::vector<Kind>{Kind::kText, Kind::kImage, Kind::kText,
                                               Kind::kAudio, Kind::kImage}));
  EXPECT_EQ((*pieces)[0].text, "a");
  EXPECT_EQ((*pieces)[2].text, "b");
  auto unmarked = build_multimodal_prompt("raw", "describe", pixels(), features());
  ASSERT_TRUE(unmarked.ok());
  EXPECT_EQ(kinds(*unmarked), (std::vector<Kind>{Kind::kImage, Kind::kAudio, Kind::kText}));
}

TEST(MultimodalPrompt, MissingMediaAndUnknownFormatsRefused) {
  EXPECT_EQ(build_multimodal_prompt("gemma3", "x", nullptr, features()).error(),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("--image_path"), std::string::npos);
  EXPECT_EQ(build_multimodal_prompt("raw", "x<audio>", pixels(), nullptr).error(),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("<audio>"), std::string::npos);
  EXPECT_EQ(build_multimodal_prompt("chatml", "x", pixels(), nullptr).error(),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("gemma3"), std::string::npos);
}

}  // namespace
}  // namespace ember::llm

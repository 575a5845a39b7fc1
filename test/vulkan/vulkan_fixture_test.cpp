// The Vulkan delegate (backends/vulkan) on whatever Vulkan device the
// machine has (Mesa's lavapipe in CI): every .bpte under
// test/models/vulkan verifies against the outputs PyTorch computed, run
// twice (the second run reuses the recorded command buffer). Without a
// Vulkan device every test is skipped, and loading a Vulkan program fails
// with NotSupported naming VulkanBackend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/vulkan/vk_device.h"
#include "runtime/platform/error_message.h"
#include "test/utils/bundle_fixture.h"

namespace ember {
namespace {

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/vulkan";

// Tolerances: PyTorch's CPU results against float32 shaders whose sums run
// in another order. Programs with long reductions get more room.
struct Tolerance {
  const char* prefix;
  double rtol;
  double atol;
};
const Tolerance kTolerances[] = {
    {"", 1e-4, 1e-4},
    // Weights stored as fp16 by the partitioner (force_fp16): PyTorch's
    // expected outputs come from the fp32 weights.
    {"ops/binary_force_fp16", 1e-3, 1e-3},
};

Tolerance tolerance(const std::string& name) {
  Tolerance best = kTolerances[0];
  for (const Tolerance& t : kTolerances) {
    if (std::strlen(t.prefix) > std::strlen(best.prefix) && name.rfind(t.prefix, 0) == 0) {
      best = t;
    }
  }
  return best;
}

std::vector<std::string> bundles() {
  std::vector<std::string> out;
  if (!std::filesystem::exists(kDir)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kDir)) {
    if (e.path().extension() == ".bpte") {
      out.push_back(std::filesystem::relative(e.path(), kDir).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class VulkanFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(VulkanFixture, Verifies) {
  if (!vulkan::device_available()) GTEST_SKIP() << "no Vulkan device on this machine";
  const Tolerance tol = tolerance(GetParam());
  testing::LoadedBundle l;
  ASSERT_TRUE(testing::load_bundle(kDir + "/" + GetParam(), &l));
  Result<size_t> cases = l.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  ASSERT_GT(*cases, 0u);
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    for (int run = 0; run < 2; ++run) {
      ASSERT_EQ(load_bundled_input(*l.method, *l.bundle, k), Error::Ok) << last_error_message();
      ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
      EXPECT_EQ(verify_method_outputs(*l.method, *l.bundle, k, tol.rtol, tol.atol), Error::Ok)
          << last_error_message();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, VulkanFixture, ::testing::ValuesIn(bundles()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace ember

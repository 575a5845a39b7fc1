// The Vulkan delegate's blob reader and compile step (vk_payload.h,
// vk_graph.h, vk_compile.h) on graphs built here with the generated
// flatbuffer writer: a valid graph compiles to dispatches; every kind of
// inconsistency fails with InvalidProgram or NotSupported and a message
// that names what is wrong. Then the same blobs through the registered
// backend on the machine's Vulkan device, when it has one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "backends/vulkan/ops/vk_ops.h"
#include "backends/vulkan/vk_compile.h"
#include "backends/vulkan/vk_device.h"
#include "backends/vulkan/vulkan_backend.h"
#include "flatbuffers/flatbuffers.h"
#include "runtime/backend/backend.h"
#include "runtime/platform/error_message.h"
#include "schema/vulkan_graph_generated.h"
#include "test/utils/tensor_factory.h"

namespace ember::vulkan {
namespace {

namespace fb = ember_vk_fb;

// A graph description the tests mutate before serializing it.
struct Spec {
  std::vector<std::vector<uint32_t>> tensor_dims = {{2, 3}, {3}, {2, 3}};
  std::string op = "aten.add.Tensor";
  std::vector<int32_t> args = {0, 1, 3, 2};  // a, b, alpha, out
  std::vector<uint32_t> inputs = {0, 1};
  std::vector<uint32_t> outputs = {2};
  int32_t constant_id = -1;  // of tensor 1
  bool alpha_is_tensor_id = false;
  bool tensor_without_table = false;  // value 0's union type set, table absent
  const char* identifier = "VK00";
};

std::vector<uint8_t> serialize(const Spec& s) {
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<fb::VkValue>> values;
  for (size_t i = 0; i < s.tensor_dims.size(); ++i) {
    auto t = fb::CreateVkTensorDirect(b, fb::VkDataType::FLOAT32, &s.tensor_dims[i],
                                      i == 1 ? s.constant_id : -1, -1);
    values.push_back(fb::CreateVkValue(
        b, fb::GraphTypes::VkTensor,
        i == 0 && s.tensor_without_table ? flatbuffers::Offset<void>() : t.Union()));
  }
  values.push_back(fb::CreateVkValue(b, fb::GraphTypes::Int, fb::CreateInt(b, 1).Union()));
  auto call = fb::CreateOperatorCall(b, 0, b.CreateString(s.op.data(), s.op.size()),
                                     b.CreateVector(s.args));
  std::vector<flatbuffers::Offset<fb::OperatorCall>> chain = {call};
  auto graph = fb::CreateVkGraphDirect(b, "0", &chain, &values, &s.inputs, &s.outputs);
  b.Finish(graph, s.identifier);
  std::vector<uint8_t> blob(kVulkanHeaderSize, 0);
  std::memcpy(blob.data() + 4, "VH00", 4);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) blob[at + k] = uint8_t(v >> (8 * k));
  };
  blob[8] = uint8_t(kVulkanHeaderSize);
  put32(10, uint32_t(kVulkanHeaderSize));
  put32(14, b.GetSize());
  put32(18, uint32_t(kVulkanHeaderSize + b.GetSize()));
  blob.resize(kVulkanHeaderSize + b.GetSize());
  std::memcpy(blob.data() + kVulkanHeaderSize, b.GetBufferPointer(), b.GetSize());
  return blob;
}

Error compile(const std::vector<uint8_t>& blob, size_t* dispatches = nullptr) {
  std::vector<uint64_t> aligned(blob.size() / 8 + 1);
  std::memcpy(aligned.data(), blob.data(), blob.size());
  Graph bounds;
  Graph current;
  std::vector<Dispatch> d;
  const Error err = compile_blob(aligned.data(), blob.size(), &bounds, &current, &d);
  if (dispatches != nullptr) *dispatches = d.size();
  return err;
}

std::string message() { return last_error_message(); }

TEST(VulkanPayload, ValidGraphCompilesToOneDispatch) {
  size_t n = 0;
  ASSERT_EQ(compile(serialize(Spec()), &n), Error::Ok) << message();
  EXPECT_EQ(n, 1u);
}

TEST(VulkanPayload, HeaderChecks) {
  std::vector<uint8_t> blob = serialize(Spec());
  EXPECT_EQ(compile(std::vector<uint8_t>(blob.begin(), blob.begin() + 20)),
            Error::InvalidProgram);
  EXPECT_NE(message().find("shorter than its 30-byte header"), std::string::npos) << message();
  std::vector<uint8_t> bad = blob;
  bad[4] = 'X';
  EXPECT_EQ(compile(bad), Error::InvalidProgram);
  EXPECT_NE(message().find("magic 'XH00'"), std::string::npos) << message();
  bad = blob;
  bad[14] = 0xff;  // flatbuffer size past the end
  EXPECT_EQ(compile(bad), Error::InvalidProgram);
  EXPECT_NE(message().find("flatbuffer"), std::string::npos) << message();
  bad = blob;
  bad[8] = 31;
  EXPECT_EQ(compile(bad), Error::InvalidProgram);
  EXPECT_NE(message().find("header length 31"), std::string::npos) << message();
}

TEST(VulkanPayload, WrongIdentifierIsIncompatible) {
  Spec s;
  s.identifier = "VK99";
  EXPECT_EQ(compile(serialize(s)), Error::DelegateInvalidCompatibility);
  EXPECT_NE(message().find("'VK99'"), std::string::npos) << message();
}

TEST(VulkanPayload, CorruptFlatbufferFailsVerification) {
  std::vector<uint8_t> blob = serialize(Spec());
  for (size_t i = kVulkanHeaderSize + 8; i < blob.size(); i += 3) blob[i] ^= 0x5a;
  EXPECT_NE(compile(blob), Error::Ok);
}

TEST(VulkanPayload, ArgumentIdOutOfRange) {
  Spec s;
  s.args = {0, 1, 3, 99};
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("argument 3 is id 99, outside the 4 values"), std::string::npos)
      << message();
}

TEST(VulkanPayload, InputAndOutputIdsChecked) {
  Spec s;
  s.outputs = {3};  // the Int
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("output 0 (value 3) is a Int"), std::string::npos) << message();
  s = Spec();
  s.inputs = {0, 7};
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("input 1 is value id 7"), std::string::npos) << message();
}

TEST(VulkanPayload, ConstantIdOutsideTheTable) {
  Spec s;
  s.constant_id = 0;  // the graph has no constants
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("constant id 0 outside the 0 constants"), std::string::npos)
      << message();
}

TEST(VulkanPayload, UnknownOperatorsAreNamed) {
  Spec s;
  s.op = "aten.frobnicate.default";
  EXPECT_EQ(compile(serialize(s)), Error::NotSupported);
  EXPECT_NE(message().find("aten.frobnicate.default"), std::string::npos) << message();
  s.op = std::string("bad\x01name", 8);
  EXPECT_EQ(compile(serialize(s)), Error::NotSupported);
  EXPECT_NE(message().find("bad\\x01name"), std::string::npos) << message();
}

TEST(VulkanPayload, BuilderChecksKindsAndShapes) {
  Spec s;
  s.args = {0, 3, 3, 2};  // other = the Int: a scalar operand is accepted
  EXPECT_EQ(compile(serialize(s)), Error::Ok) << message();
  s.args = {3, 1, 3, 2};  // self = the Int
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("argument 0 is Int, expected a tensor"), std::string::npos)
      << message();
  s = Spec();
  s.tensor_dims = {{2, 3}, {4}, {2, 3}};  // does not broadcast
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("do not broadcast"), std::string::npos) << message();
}

// Through the registered backend, on the device when there is one.
TEST(VulkanBackendRun, AddBroadcastsOnTheDevice) {
  const BackendInterface* backend = find_backend(kVulkanBackendId);
  ASSERT_NE(backend, nullptr);
  if (!device_available()) GTEST_SKIP() << "no Vulkan device on this machine";
  std::vector<uint8_t> blob = serialize(Spec());
  auto a = testing::make_tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = testing::make_tensor<float>(ScalarType::Float, {3}, {10, 20, 30});
  auto out = testing::make_tensor<float>(ScalarType::Float, {2, 3}, {0, 0, 0, 0, 0, 0});
  EValue va(a->tensor()), vb(b->tensor()), vo(out->tensor());
  EValue* args[] = {&va, &vb, &vo};
  std::vector<uint8_t> pool(4096);
  MemoryAllocator allocator(pool.data(), pool.size());
  BackendInitContext init(&allocator, nullptr, "forward");
  FreeableBuffer processed(blob.data(), blob.size(), nullptr);
  Result<DelegateHandle*> h = backend->init(init, &processed, {});
  ASSERT_TRUE(h.ok()) << message();
  BackendExecutionContext exec(nullptr);
  ASSERT_EQ(backend->execute(exec, *h, Span<EValue*>(args, 3)), Error::Ok) << message();
  EXPECT_EQ(out->values<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  // A wrong input shape is refused, not run.
  auto wrong = testing::make_tensor<float>(ScalarType::Float, {3, 2}, {1, 2, 3, 4, 5, 6});
  EValue vw(wrong->tensor());
  EValue* bad[] = {&vw, &vb, &vo};
  EXPECT_EQ(backend->execute(exec, *h, Span<EValue*>(bad, 3)), Error::InvalidArgument);
  EXPECT_NE(message().find("VulkanBackend input 0"), std::string::npos) << message();
  backend->destroy(*h);
}

}  // namespace
}  // namespace ember::vulkan

namespace ember::vulkan {
namespace {

// The operator table is one table: every name has exactly one row, so
// which builder runs a name is never decided by family order.
TEST(VulkanOps, EveryNameHasOneRow) {
  std::vector<std::string> names;
  for_each_op([](const OpEntry& row, void* ctx) {
    static_cast<std::vector<std::string>*>(ctx)->push_back(row.name);
  }, &names);
  EXPECT_GT(names.size(), 100u);
  std::sort(names.begin(), names.end());
  for (size_t i = 1; i < names.size(); ++i) {
    EXPECT_NE(names[i - 1], names[i]) << "two rows for " << names[i];
  }
}

}  // namespace
}  // namespace ember::vulkan

namespace ember::vulkan {
namespace {

// Found by vulkan_payload_fuzzer: an operator whose name prints as nothing
// slipped past the unknown-operator check and reached a null row.
TEST(VulkanPayload, EmptyAndNulNamesAreRefused) {
  Spec s;
  s.op = "";
  EXPECT_EQ(compile(serialize(s)), Error::NotSupported);
  EXPECT_NE(message().find("1 operator(s) of this program: ''"), std::string::npos)
      << message();
  s.op = std::string("aten.add.Tensor\0x", 17);
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("NUL byte"), std::string::npos) << message();
}

}  // namespace
}  // namespace ember::vulkan

namespace ember::vulkan {
namespace {

// Found by vulkan_payload_fuzzer: a union type without its table.
TEST(VulkanPayload, UnionTypeWithoutTableIsRefused) {
  Spec s;
  s.tensor_without_table = true;
  EXPECT_EQ(compile(serialize(s)), Error::InvalidProgram);
  EXPECT_NE(message().find("value 0: union type 5 without its table"), std::string::npos)
      << message();
}

}  // namespace
}  // namespace ember::vulkan

// The delegate's load-time checks on hand-built blobs: header bounds,
// identifier (escaped when printed), graph references, constant ranges;
// and small graphs run end to end through the plan.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/xnnpack/xnn_compiler.h"
#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_payload.h"
#include "runtime/core/error_message.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace {
namespace fb = ::ember_xnn_fb;

// A graph: x (input, ext 0), y (input, ext 1) -> add -> s -> [tanh] -> out
// (ext 2). `constant_idx` makes y a constant from constant_data[idx] instead.
std::vector<uint8_t> make_graph(bool with_tanh, uint32_t bad_input_id = 1,
                                uint32_t constant_idx = 0, uint64_t constant_offset = 0,
                                const char* identifier = "XN01") {
  flatbuffers::FlatBufferBuilder b;
  auto value = [&](uint32_t id, uint32_t ext, uint32_t flags, uint32_t cidx) {
    std::vector<uint32_t> dims = {2, 3};
    auto tv = fb::CreateXNNTensorValueDirect(b, fb::XNNDatatype::xnn_datatype_fp32, 2, &dims,
                                             cidx, ext, flags, id);
    return fb::CreateXValue(b, fb::XValueUnion::XNNTensorValue, tv.Union());
  };
  std::vector<flatbuffers::Offset<fb::XValue>> values;
  values.push_back(value(0, 0, XNN_VALUE_FLAG_EXTERNAL_INPUT, 0));
  if (constant_idx != 0) {
    values.push_back(value(1, XNN_INVALID_VALUE_ID, 0, constant_idx));
  } else {
    values.push_back(value(1, 1, XNN_VALUE_FLAG_EXTERNAL_INPUT, 0));
  }
  const uint32_t out_ext = constant_idx != 0 ? 1 : 2;
  if (with_tanh) {
    values.push_back(value(2, XNN_INVALID_VALUE_ID, 0, 0));
    values.push_back(value(3, out_ext, XNN_VALUE_FLAG_EXTERNAL_OUTPUT, 0));
  } else {
    values.push_back(value(2, out_ext, XNN_VALUE_FLAG_EXTERNAL_OUTPUT, 0));
  }
  std::vector<flatbuffers::Offset<fb::XNode>> nodes;
  auto add = fb::Create_XNNNode2x1(b, 0, bad_input_id, 2, 0);
  nodes.push_back(fb::CreateXNode(b, fb::XNodeUnion::XNNAdd, add.Union(), 0));
  if (with_tanh) {
    auto tanh = fb::Create_XNNNode1x1(b, 2, 3, 0);
    nodes.push_back(fb::CreateXNode(b, fb::XNodeUnion::XNNTanh, tanh.Union(), 1));
  }
  std::vector<flatbuffers::Offset<fb::ConstantDataOffset>> constants;
  constants.push_back(fb::CreateConstantDataOffsetDirect(b, 0, 0, ""));
  constants.push_back(fb::CreateConstantDataOffsetDirect(b, constant_offset, 24, ""));
  auto graph = fb::CreateXNNGraphDirect(b, "1", &nodes, &values, out_ext + 1, nullptr, nullptr,
                                        nullptr, nullptr, &constants);
  b.Finish(graph, identifier);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

void put32(uint8_t* p, uint32_t v) { for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i)); }
void put64(uint8_t* p, uint64_t v) { for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i)); }

// Header + flatbuffer (at 32) + constants, as upstream lays them out.
std::vector<uint8_t> with_header(const std::vector<uint8_t>& graph,
                                 const std::vector<float>& constants) {
  const size_t fb_off = 32, fb_size = graph.size();
  const size_t c_off = (fb_off + fb_size + 15) / 16 * 16;
  std::vector<uint8_t> blob(c_off + constants.size() * 4, 0);
  std::memcpy(blob.data() + 4, "XH00", 4);
  blob[8] = 30;
  put32(blob.data() + 10, uint32_t(fb_off));
  put32(blob.data() + 14, uint32_t(fb_size));
  put32(blob.data() + 18, uint32_t(c_off));
  put64(blob.data() + 22, constants.size() * 4);
  std::memcpy(blob.data() + fb_off, graph.data(), fb_size);
  if (!constants.empty()) std::memcpy(blob.data() + c_off, constants.data(), constants.size() * 4);
  return blob;
}

TEST(XnnpackPayload, HeaderBoundsAreChecked) {
  std::vector<uint8_t> blob = with_header(make_graph(false), {});
  Payload p;
  ASSERT_EQ(parse_payload(blob.data(), blob.size(), &p), Error::Ok) << last_error_message();
  EXPECT_TRUE(p.has_header);

  std::vector<uint8_t> bad = blob;
  put32(bad.data() + 14, uint32_t(blob.size()));  // flatbuffer size past the end
  EXPECT_EQ(parse_payload(bad.data(), bad.size(), &p), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("flatbuffer"), std::string::npos);

  bad = blob;
  put64(bad.data() + 22, 1u << 20);  // constant data past the end
  EXPECT_EQ(parse_payload(bad.data(), bad.size(), &p), Error::InvalidProgram);

  bad = blob;
  bad[8] = 2;  // header length below its fields
  EXPECT_EQ(parse_payload(bad.data(), bad.size(), &p), Error::InvalidProgram);

  EXPECT_EQ(parse_payload(blob.data(), 20, &p), Error::InvalidProgram);  // truncated header
}

TEST(XnnpackPayload, IdentifierAndBareFlatbuffer) {
  std::vector<uint8_t> bare = make_graph(false, 1, 0, 0, "XN00");
  Payload p;
  ASSERT_EQ(parse_payload(bare.data(), bare.size(), &p), Error::Ok);
  EXPECT_FALSE(p.has_header);
  std::vector<uint8_t> other = make_graph(false, 1, 0, 0, "XN99");
  EXPECT_EQ(parse_payload(other.data(), other.size(), &p), Error::DelegateInvalidCompatibility);
  // Bytes from the file are escaped in the message.
  std::vector<uint8_t> odd = make_graph(false, 1, 0, 0, "XN\x01\xff");
  EXPECT_EQ(parse_payload(odd.data(), odd.size(), &p), Error::DelegateInvalidCompatibility);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("'XN\\x01\\xff'"), std::string::npos) << msg;
}

TEST(XnnpackGraph, MissingValueNamesTheNode) {
  std::vector<uint8_t> blob = with_header(make_graph(false, /*bad_input_id=*/7), {});
  Payload p;
  ASSERT_EQ(parse_payload(blob.data(), blob.size(), &p), Error::Ok);
  Graph g;
  EXPECT_EQ(build_graph(p, nullptr, &g), Error::InvalidProgram);
  const std::string msg = last_error_message();
  EXPECT_NE(msg.find("node 0 (XNNAdd)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("value id 7"), std::string::npos) << msg;
}

TEST(XnnpackGraph, ConstantPastTheEndIsRefused) {
  std::vector<uint8_t> blob =
      with_header(make_graph(false, 1, /*constant_idx=*/1, /*offset=*/8), std::vector<float>(6));
  Payload p;
  ASSERT_EQ(parse_payload(blob.data(), blob.size(), &p), Error::Ok);
  Graph g;
  EXPECT_EQ(build_graph(p, nullptr, &g), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("outside"), std::string::npos);
}

TEST(XnnpackGraph, TruncatedFlatbufferIsRefused) {
  std::vector<uint8_t> graph = make_graph(true);
  Payload p;
  p.flatbuffer = graph.data();
  p.flatbuffer_size = graph.size() / 2;
  Graph g;
  EXPECT_EQ(build_graph(p, nullptr, &g), Error::InvalidProgram);
}

// add then tanh: both XNNPACK nodes, so one runtime, set up once and
// reused while the pointers stay; a new output pointer is set up again.
TEST(XnnpackPlan, ConsecutiveXnnpackNodesShareOneRuntime) {
  std::vector<uint8_t> blob = with_header(make_graph(true), {});
  Payload p;
  ASSERT_EQ(parse_payload(blob.data(), blob.size(), &p), Error::Ok);
  Plan plan;
  ASSERT_EQ(build_graph(p, nullptr, &plan.graph), Error::Ok) << last_error_message();
  ASSERT_EQ(compile_plan(&plan), Error::Ok) << last_error_message();
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].native, nullptr);
  float x[6 + 4] = {0, 1, 2, -1, -2, 0.5f}, y[6 + 4] = {1, 1, 1, 1, 1, 1};
  float out[6] = {}, out2[6] = {};
  plan.ptrs[plan.graph.inputs[0]] = x;
  plan.ptrs[plan.graph.inputs[1]] = y;
  plan.ptrs[plan.graph.outputs[0]] = out;
  ASSERT_EQ(run_plan(&plan), Error::Ok) << last_error_message();
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(out[i], std::tanh(x[i] + y[i]), 1e-6f);
  plan.ptrs[plan.graph.outputs[0]] = out2;
  ASSERT_EQ(run_plan(&plan), Error::Ok) << last_error_message();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out2[i], out[i]);
}

TEST(XnnpackPlan, ConstantOperandFromConstantData) {
  std::vector<float> c = {10, 20, 30, 40, 50, 60};
  std::vector<uint8_t> blob = with_header(make_graph(false, 1, 1, 0), c);
  Payload p;
  ASSERT_EQ(parse_payload(blob.data(), blob.size(), &p), Error::Ok);
  Plan plan;
  ASSERT_EQ(build_graph(p, nullptr, &plan.graph), Error::Ok) << last_error_message();
  ASSERT_EQ(compile_plan(&plan), Error::Ok) << last_error_message();
  float x[6 + 4] = {1, 2, 3, 4, 5, 6}, out[6] = {};
  plan.ptrs[plan.graph.inputs[0]] = x;
  plan.ptrs[plan.graph.outputs[0]] = out;
  ASSERT_EQ(run_plan(&plan), Error::Ok) << last_error_message();
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(out[i], x[i] + c[size_t(i)]);
}

}  // namespace
}  // namespace ember::xnnpack

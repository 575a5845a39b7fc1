// CaseResult <-> JSON.
#include "conformance/case_result.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace ember::conformance {
namespace {

CaseResult sample() {
  CaseResult r;
  r.test_id = "xnnpack/partial.bpte[0]";
  r.test_case = "partial";
  r.subtest = "0";
  r.flow = "xnnpack";
  r.params = "threads=2 backends=all loader=mmap verification=minimal executions=3";
  r.config.threads = 2;
  r.config.loader = "file";
  r.config.verification = "internal";
  r.config.executions = 3;
  r.result = "Fail";
  r.detail = "Output Mismatch";
  r.delegated = true;
  r.facts.pte_bytes = 4368;
  r.facts.kernel_calls = 1;
  r.facts.delegate_calls = 2;
  r.facts.undelegated_ops = {{"aten::cumsum.out", 1}};
  r.facts.delegated_ops = {{"XNNFullyConnected", 2}};
  r.facts.delegate_blobs = 2;
  r.facts.delegate_blob_bytes = 1472;
  r.facts.constant_bytes = 16;
  r.facts.delegated_percent = 200.0 / 3;
  r.facts.backends = {"XnnpackBackend"};
  r.aot.present = true;
  r.aot.flow = "xnnpack_fp32";
  r.aot.params = "{\"dtype\": \"float32\"}";
  r.aot.quantize_time_s = 0.25;
  r.aot.lower_time_s = 1.5;
  r.aot.delegated_nodes = 2;
  r.aot.undelegated_nodes = 1;
  r.aot.delegated_ops = {{"aten.linear.default", 2}};
  r.aot.undelegated_ops = {{"aten.cumsum.default", 1}};
  OutputStats o;
  o.max_abs = 0.5;
  o.max_rel = std::numeric_limits<double>::infinity();
  o.mae = 0.125;
  o.sqnr_db = std::numeric_limits<double>::quiet_NaN();
  o.ok = false;
  r.outputs = {o, OutputStats()};
  r.load_ms = 1.25;
  r.exec_min_ms = 0.5;
  r.exec_median_ms = 0.75;
  r.error = "output 0: worst element 3 \\x01";
  r.xfail = true;
  r.xfail_reason = "known, issue 99";
  return r;
}

TEST(CaseResultJson, RoundTripKeepsEveryField) {
  const CaseResult in = sample();
  // Through text, as between processes.
  const nlohmann::json j = nlohmann::json::parse(to_json(in).dump());
  CaseResult out;
  std::string error;
  ASSERT_TRUE(from_json(j, &out, &error)) << error;
  EXPECT_EQ(to_json(out).dump(), to_json(in).dump());
  EXPECT_EQ(out.test_id, in.test_id);
  EXPECT_EQ(out.config.executions, 3);
  EXPECT_EQ(out.config.loader, "file");
  EXPECT_EQ(out.facts.undelegated_ops, in.facts.undelegated_ops);
  EXPECT_EQ(out.facts.delegated_ops, in.facts.delegated_ops);
  EXPECT_EQ(out.facts.backends, in.facts.backends);
  EXPECT_DOUBLE_EQ(out.facts.delegated_percent, in.facts.delegated_percent);
  EXPECT_EQ(out.aot.delegated_ops, in.aot.delegated_ops);
  EXPECT_EQ(out.aot.undelegated_nodes, 1);
  ASSERT_EQ(out.outputs.size(), 2u);
  EXPECT_TRUE(std::isinf(out.outputs[0].max_rel));
  EXPECT_TRUE(std::isnan(out.outputs[0].sqnr_db));
  EXPECT_FALSE(out.outputs[0].ok);
  EXPECT_TRUE(out.outputs[1].ok);
  EXPECT_TRUE(out.xfail);
  EXPECT_EQ(out.xfail_reason, "known, issue 99");
  EXPECT_EQ(out.error, in.error);
}

TEST(CaseResultJson, MissingMembersKeepDefaults) {
  CaseResult out;
  std::string error;
  ASSERT_TRUE(from_json(nlohmann::json::parse(R"({"test_id": "a", "result": "Skip"})"), &out,
                        &error))
      << error;
  EXPECT_EQ(out.test_id, "a");
  EXPECT_EQ(out.result, "Skip");
  EXPECT_EQ(out.config.threads, 1);
  EXPECT_EQ(out.aot.delegated_nodes, -1);
}

TEST(CaseResultJson, WrongTypesAreErrorsNamingTheMember) {
  CaseResult out;
  std::string error;
  EXPECT_FALSE(from_json(nlohmann::json::parse("[1, 2]"), &out, &error));
  EXPECT_FALSE(from_json(nlohmann::json::parse(R"({"config": {"threads": "two"}})"), &out, &error));
  EXPECT_NE(error.find("config.threads"), std::string::npos) << error;
  EXPECT_FALSE(from_json(nlohmann::json::parse(R"({"facts": {"kernel_calls": -1}})"), &out, &error));
  EXPECT_NE(error.find("facts.kernel_calls"), std::string::npos) << error;
  EXPECT_FALSE(
      from_json(nlohmann::json::parse(R"({"facts": {"undelegated_ops": {"x": "1"}}})"), &out, &error));
  EXPECT_NE(error.find("facts.undelegated_ops.x"), std::string::npos) << error;
  EXPECT_FALSE(from_json(nlohmann::json::parse(R"({"outputs": [{"mae": true}]})"), &out, &error));
  EXPECT_NE(error.find("outputs[0].mae"), std::string::npos) << error;
  EXPECT_FALSE(from_json(nlohmann::json::parse(R"({"load_ms": "fast"})"), &out, &error));
  EXPECT_FALSE(from_json(nlohmann::json::parse(R"({"config": {"threads": 1e12}})"), &out, &error));
}

}  // namespace
}  // namespace ember::conformance

// Prepared operands (runtime/executor/method_prepare.cpp, the addmm/mm
// preparations in kernels/portable/util/prepared_gemm.cpp) on the mlp and
// linear fixtures, which upstream's exporter wrote as permute_copy of each
// weight followed by addmm:
//  - load plans one slot per linear layer; nothing changes until the
//    application gives the memory;
//  - prepared, the method still matches PyTorch's outputs and the
//    unprepared method's, reads the weights from the prepared memory (the
//    program's copy can be zeroed afterwards), and skips the transposes
//    unless fusion is off or a tracer wants intermediate outputs;
//  - bad memory and a second call are refused with a message.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "test/runtime/event_name_counter.h"
#include "test/runtime/fixture_util.h"
#include "test/runtime/raw_method.h"

namespace ember {
namespace {

using testing::fixture_path;
using testing::run_and_check;

// A fixture's method loaded with the test's own memory (raw_method.h:
// its bytes are the test's, so it can change them), and the memory its
// prepared operands get.
struct Loaded {
  std::unique_ptr<testing::Raw> raw;
  Method* method = nullptr;
  std::vector<uint64_t> prepared;
};

std::unique_ptr<Loaded> load(const std::string& fixture) {
  auto l = std::make_unique<Loaded>();
  l->raw = testing::load_raw_file(fixture_path(fixture), "forward");
  if (l->raw == nullptr) return nullptr;
  l->method = l->raw->method.get();
  return l;
}

// 64-byte aligned memory of the method's size, prepared.
Error prepare(Loaded& l) {
  const size_t bytes = l.method->prepared_operands_bytes();
  l.prepared.assign(bytes / 8 + 16, 0);
  uint8_t* base = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(l.prepared.data()) + 63) & ~uintptr_t(63));
  return l.method->prepare_operands(Span<uint8_t>(base, bytes));
}

std::vector<float> output0(const Method& m) {
  const Tensor t = m.get_output(0).to_tensor();
  return std::vector<float>(t.const_data_ptr<float>(), t.const_data_ptr<float>() + t.numel());
}

TEST(PreparedOperands, PlannedPerLinearLayerAndInactiveUntilPrepared) {
  for (const char* fixture : {"mlp", "linear"}) {
    SCOPED_TRACE(fixture);
    std::unique_ptr<Loaded> l = load(fixture);
    ASSERT_NE(l, nullptr) << last_error_message();
    EXPECT_GT(l->method->prepared_operands_bytes(), 0u);
    EXPECT_EQ(l->method->num_prepared_operands(), 0u);
    run_and_check(*l->method, fixture, "forward");
    testing::EventNameCounter counter;
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    // Unprepared, every transpose runs, one per linear layer.
    EXPECT_EQ(counter.count("permute_copy"), counter.count("addmm"));
    EXPECT_GT(counter.count("addmm"), 0u);
    ASSERT_EQ(prepare(*l), Error::Ok) << last_error_message();
    EXPECT_EQ(l->method->num_prepared_operands(), counter.count("addmm"));
  }
}

TEST(PreparedOperands, MatchPyTorchAndTheUnpreparedMethod) {
  for (const char* fixture : {"mlp", "linear"}) {
    SCOPED_TRACE(fixture);
    std::unique_ptr<Loaded> plain = load(fixture), prepared = load(fixture);
    ASSERT_NE(plain, nullptr);
    ASSERT_NE(prepared, nullptr);
    ASSERT_EQ(prepare(*prepared), Error::Ok) << last_error_message();
    run_and_check(*plain->method, fixture, "forward");
    run_and_check(*prepared->method, fixture, "forward");
    const std::vector<float> a = output0(*plain->method), b = output0(*prepared->method);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_NEAR(a[i], b[i], 1e-6f * (1.0f + std::fabs(a[i]))) << "element " << i;
    }
  }
}

// One weight read by four addmm calls, each through its own transpose (a
// recurrent layer's time steps): four calls get the prepared operand, the
// weight is packed once (the bytes of one slot), and the outputs still
// match PyTorch's.
TEST(PreparedOperands, OneWeightReadAtEveryStepIsPreparedOnce) {
  std::unique_ptr<Loaded> recurrent = load("recurrent"), mlp = load("mlp");
  ASSERT_NE(recurrent, nullptr) << last_error_message();
  ASSERT_NE(mlp, nullptr) << last_error_message();
  run_and_check(*recurrent->method, "recurrent", "forward");  // sets the input too
  testing::EventNameCounter counter;
  recurrent->method->set_event_tracer(&counter);
  ASSERT_EQ(recurrent->method->execute(), Error::Ok) << last_error_message();
  recurrent->method->set_event_tracer(nullptr);
  ASSERT_EQ(counter.count("addmm"), 4u);
  ASSERT_EQ(prepare(*recurrent), Error::Ok) << last_error_message();
  EXPECT_EQ(recurrent->method->num_prepared_operands(), 4u);
  // The 8 x 8 weight packed once: no more than mlp's first layer (8 x 16)
  // alone would take, where four copies would be four times one.
  const size_t one_copy = recurrent->method->prepared_operands_bytes();
  EXPECT_GT(one_copy, 0u);
  EXPECT_LT(one_copy, mlp->method->prepared_operands_bytes());
  run_and_check(*recurrent->method, "recurrent", "forward");
  counter.clear();
  recurrent->method->set_event_tracer(&counter);
  ASSERT_EQ(recurrent->method->execute(), Error::Ok) << last_error_message();
  EXPECT_EQ(counter.count("permute_copy"), 0u);  // every transpose skipped
}

// Zeroes every 2-D constant (the weights) in the program's bytes.
size_t zero_weights(Loaded& l) {
  const uint8_t* lo = l.raw->bytes.data();
  size_t zeroed = 0;
  for (size_t i = 0; i < l.method->num_values(); ++i) {
    const EValue& v = l.method->value(i);
    if (!v.is_tensor() || v.to_tensor().dim() != 2) continue;
    const Tensor t = v.to_tensor();
    const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
    if (p >= lo && p < lo + l.raw->bytes.size()) {
      std::memset(const_cast<uint8_t*>(p), 0, t.nbytes());
      ++zeroed;
    }
  }
  return zeroed;
}

TEST(PreparedOperands, WeightsAreReadFromThePreparedMemory) {
  std::unique_ptr<Loaded> l = load("mlp");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(prepare(*l), Error::Ok) << last_error_message();
  ASSERT_EQ(zero_weights(*l), l->method->num_prepared_operands());
  // Still PyTorch's outputs: the product reads the packed copy, and the
  // transposes of the (now zero) weights do not run.
  run_and_check(*l->method, "mlp", "forward");
  // The same program unprepared sees the zeroed weights: the check bites.
  std::unique_ptr<Loaded> plain = load("mlp");
  ASSERT_NE(plain, nullptr);
  zero_weights(*plain);
  const std::vector<float> good = output0(*l->method);
  ASSERT_EQ(plain->method->set_input(l->method->get_input(0), 0), Error::Ok);
  ASSERT_EQ(plain->method->execute(), Error::Ok) << last_error_message();
  EXPECT_NE(output0(*plain->method), good);
}

TEST(PreparedOperands, TransposesSkippedUnlessFusionOffOrIntermediatesWanted) {
  std::unique_ptr<Loaded> l = load("mlp");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(prepare(*l), Error::Ok) << last_error_message();
  run_and_check(*l->method, "mlp", "forward");
  const std::vector<float> expected = output0(*l->method);
  {
    testing::EventNameCounter counter;
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.count("permute_copy"), 0u);
    EXPECT_EQ(counter.count("addmm"), l->method->num_prepared_operands());
  }
  {
    testing::EventNameCounter counter;
    l->method->set_event_tracer(&counter);
    l->method->set_fusion_enabled(false);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.count("permute_copy"), l->method->num_prepared_operands());
    EXPECT_EQ(output0(*l->method), expected);
    l->method->set_fusion_enabled(true);
  }
  {
    testing::EventNameCounter counter;
    counter.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.count("permute_copy"), l->method->num_prepared_operands());
    EXPECT_EQ(output0(*l->method), expected);
  }
  l->method->set_event_tracer(nullptr);
}

TEST(PreparedOperands, BadMemoryAndSecondCallAreRefused) {
  std::unique_ptr<Loaded> l = load("mlp");
  ASSERT_NE(l, nullptr);
  const size_t bytes = l->method->prepared_operands_bytes();
  std::vector<uint64_t> storage(bytes / 8 + 16, 0);
  uint8_t* base = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(storage.data()) + 63) & ~uintptr_t(63));
  EXPECT_EQ(l->method->prepare_operands(Span<uint8_t>(base, bytes - 1)), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "need"), nullptr) << last_error_message();
  EXPECT_EQ(l->method->prepare_operands(Span<uint8_t>(base + 8, bytes)), Error::InvalidArgument);
  EXPECT_NE(std::strstr(last_error_message(), "aligned"), nullptr) << last_error_message();
  EXPECT_EQ(l->method->num_prepared_operands(), 0u);
  ASSERT_EQ(l->method->prepare_operands(Span<uint8_t>(base, bytes)), Error::Ok);
  EXPECT_EQ(l->method->prepare_operands(Span<uint8_t>(base, bytes)), Error::InvalidState);
  EXPECT_NE(std::strstr(last_error_message(), "already"), nullptr) << last_error_message();
  run_and_check(*l->method, "mlp", "forward");
}

TEST(PreparedOperands, ModulePreparesByDefaultAndCanBeToldNot) {
  for (bool enabled : {true, false}) {
    SCOPED_TRACE(enabled);
    Result<std::unique_ptr<Module>> module = Module::load(fixture_path("mlp"));
    ASSERT_TRUE(module.ok()) << last_error_message();
    (*module)->set_prepare_operands(enabled);
    Result<Method*> m = (*module)->method("forward");
    ASSERT_TRUE(m.ok()) << last_error_message();
    EXPECT_EQ((*m)->num_prepared_operands() > 0, enabled);
    run_and_check(**m, "mlp", "forward");
  }
}

}  // namespace
}  // namespace ember

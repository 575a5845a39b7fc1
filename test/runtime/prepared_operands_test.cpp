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

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "test/runtime/fixture_util.h"

namespace ember {
namespace {

using testing::fixture_path;
using testing::read_file_bytes;
using testing::run_and_check;

// A fixture's bytes in memory the test owns (so it can change them), its
// program, and one method with its own memory.
struct Loaded {
  std::vector<uint64_t> file;  // 8-byte aligned copy of the .pte
  size_t file_bytes = 0;
  std::unique_ptr<BufferDataLoader> loader;
  std::unique_ptr<Program> program;
  std::vector<std::vector<uint8_t>> planned;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned_memory;
  std::vector<uint8_t> method_pool, temp_pool;
  std::unique_ptr<MemoryAllocator> method_allocator, temp_allocator;
  std::unique_ptr<MemoryManager> memory;
  std::unique_ptr<Method> method;
  std::vector<uint64_t> prepared;  // the prepared operands' memory
};

std::unique_ptr<Loaded> load(const std::string& fixture) {
  auto l = std::make_unique<Loaded>();
  const std::vector<uint8_t> raw = read_file_bytes(fixture_path(fixture));
  if (raw.empty()) return nullptr;
  l->file.assign(raw.size() / 8 + 1, 0);
  std::memcpy(l->file.data(), raw.data(), raw.size());
  l->file_bytes = raw.size();
  l->loader = std::make_unique<BufferDataLoader>(l->file.data(), raw.size());
  Result<Program> p = Program::load(l->loader.get());
  if (!p.ok()) return nullptr;
  l->program = std::make_unique<Program>(std::move(*p));
  MethodMeta meta = *l->program->method_meta("forward");
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    l->planned.emplace_back(size_t(*meta.memory_planned_buffer_size(i)));
  }
  for (auto& b : l->planned) l->spans.emplace_back(b.data(), b.size());
  l->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(l->spans.data(), l->spans.size()));
  l->method_pool.resize(size_t(1) << 20);
  l->temp_pool.resize(size_t(1) << 20);
  l->method_allocator =
      std::make_unique<MemoryAllocator>(l->method_pool.data(), l->method_pool.size());
  l->temp_allocator = std::make_unique<MemoryAllocator>(l->temp_pool.data(), l->temp_pool.size());
  l->memory = std::make_unique<MemoryManager>(l->method_allocator.get(),
                                              l->planned_memory.get(), l->temp_allocator.get());
  Result<Method> m = l->program->load_method("forward", l->memory.get());
  if (!m.ok()) return nullptr;
  l->method = std::make_unique<Method>(std::move(*m));
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

// Counts the kernel events a profiled run reports, by operator.
class KernelEventCounter final : public EventTracer {
 public:
  size_t permutes = 0, addmms = 0;
  void create_event_block(const char*) override {}
  EventTracerEntry start_profiling(const char* name, int32_t, int32_t) override {
    if (std::strstr(name, "permute_copy") != nullptr) ++permutes;
    if (std::strstr(name, "addmm") != nullptr) ++addmms;
    return {};
  }
  void end_profiling(const EventTracerEntry&) override {}
  EventTracerEntry start_profiling_delegate(const char*, int32_t) override { return {}; }
  void end_profiling_delegate(const EventTracerEntry&, Span<const uint8_t>) override {}
  void log_profiling_delegate(const char*, int32_t, uint64_t, uint64_t,
                              Span<const uint8_t>) override {}
  void log_value(const EValue&, LoggedValueKind) override {}
  void log_delegate_output(const char*, int32_t, const Tensor&) override {}
};

TEST(PreparedOperands, PlannedPerLinearLayerAndInactiveUntilPrepared) {
  for (const char* fixture : {"mlp", "linear"}) {
    SCOPED_TRACE(fixture);
    std::unique_ptr<Loaded> l = load(fixture);
    ASSERT_NE(l, nullptr) << last_error_message();
    EXPECT_GT(l->method->prepared_operands_bytes(), 0u);
    EXPECT_EQ(l->method->num_prepared_operands(), 0u);
    run_and_check(*l->method, fixture, "forward");
    KernelEventCounter counter;
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    // Unprepared, every transpose runs, one per linear layer.
    EXPECT_EQ(counter.permutes, counter.addmms);
    EXPECT_GT(counter.addmms, 0u);
    ASSERT_EQ(prepare(*l), Error::Ok) << last_error_message();
    EXPECT_EQ(l->method->num_prepared_operands(), counter.addmms);
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

// Zeroes every 2-D constant (the weights) in the program's bytes.
size_t zero_weights(Loaded& l) {
  const uint8_t* lo = reinterpret_cast<const uint8_t*>(l.file.data());
  size_t zeroed = 0;
  for (size_t i = 0; i < l.method->num_values(); ++i) {
    const EValue& v = l.method->value(i);
    if (!v.is_tensor() || v.to_tensor().dim() != 2) continue;
    const Tensor t = v.to_tensor();
    const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
    if (p >= lo && p < lo + l.file_bytes) {
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
    KernelEventCounter counter;
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.permutes, 0u);
    EXPECT_EQ(counter.addmms, l->method->num_prepared_operands());
  }
  {
    KernelEventCounter counter;
    l->method->set_event_tracer(&counter);
    l->method->set_fusion_enabled(false);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.permutes, l->method->num_prepared_operands());
    EXPECT_EQ(output0(*l->method), expected);
    l->method->set_fusion_enabled(true);
  }
  {
    KernelEventCounter counter;
    counter.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
    l->method->set_event_tracer(&counter);
    ASSERT_EQ(l->method->execute(), Error::Ok) << last_error_message();
    EXPECT_EQ(counter.permutes, l->method->num_prepared_operands());
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

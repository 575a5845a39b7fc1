// Fused operator sequences (runtime/executor/method_fusion.cpp and
// kernels/portable/fused_convolution.cpp) on programs written by
// upstream's exporter (examples/export/export_xnnpack.py, the portable
// twins in test/models/xnnpack):
//  - the method finds exactly the sequences whose intermediates are dead;
//  - fused, unfused and declined (no temp memory for the fused kernel)
//    runs give the same outputs up to float rounding, and each matches
//    PyTorch's expected outputs bundled in the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/error_message.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "test/runtime/event_name_counter.h"

namespace ember {
namespace {

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/xnnpack";

// The file in 32-byte aligned memory, its bundle and program.
struct Bundle {
  std::vector<uint64_t> storage;
  std::unique_ptr<BundledProgram> bundle;
  std::unique_ptr<BufferDataLoader> loader;
  std::unique_ptr<Program> program;
};

std::unique_ptr<Bundle> open_bundle(const std::string& name) {
  std::ifstream in(kDir + "/" + name, std::ios::binary);
  std::vector<uint8_t> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.empty()) return nullptr;
  auto out = std::make_unique<Bundle>();
  out->storage.assign(raw.size() / 8 + 8, 0);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(out->storage.data()) + 31) & ~uintptr_t(31));
  std::memcpy(bytes, raw.data(), raw.size());
  Result<BundledProgram> b = BundledProgram::from(bytes, raw.size());
  if (!b.ok()) return nullptr;
  out->bundle = std::make_unique<BundledProgram>(*b);
  out->loader = std::make_unique<BufferDataLoader>(b->program_data(), b->program_size());
  Result<Program> p = Program::load(out->loader.get());
  if (!p.ok()) return nullptr;
  out->program = std::make_unique<Program>(std::move(*p));
  return out;
}

// One method with its own memory; `temp_bytes` of temp memory.
struct Loaded {
  std::vector<std::vector<uint8_t>> planned;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned_memory;
  std::vector<uint8_t> method_pool, temp_pool;
  std::unique_ptr<MemoryAllocator> method_allocator, temp_allocator;
  std::unique_ptr<MemoryManager> memory;
  std::unique_ptr<Method> method;
};

std::unique_ptr<Loaded> load(const Program& program, size_t temp_bytes) {
  auto l = std::make_unique<Loaded>();
  MethodMeta meta = *program.method_meta("forward");
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    l->planned.emplace_back(size_t(*meta.memory_planned_buffer_size(i)));
  }
  for (auto& p : l->planned) l->spans.emplace_back(p.data(), p.size());
  l->planned_memory = std::make_unique<HierarchicalAllocator>(
      Span<Span<uint8_t>>(l->spans.data(), l->spans.size()));
  l->method_pool.resize(size_t(4) << 20);
  l->temp_pool.resize(temp_bytes + 1);
  l->method_allocator =
      std::make_unique<MemoryAllocator>(l->method_pool.data(), l->method_pool.size());
  l->temp_allocator = std::make_unique<MemoryAllocator>(l->temp_pool.data(), temp_bytes);
  l->memory = std::make_unique<MemoryManager>(l->method_allocator.get(),
                                              l->planned_memory.get(), l->temp_allocator.get());
  Result<Method> m = program.load_method("forward", l->memory.get());
  if (!m.ok()) return nullptr;
  l->method = std::make_unique<Method>(std::move(*m));
  return l;
}

// Runs test case `k` and returns output 0's floats.
std::vector<float> run(Bundle& b, Loaded& l, size_t k) {
  EXPECT_EQ(load_bundled_input(*l.method, *b.bundle, k), Error::Ok) << last_error_message();
  EXPECT_EQ(l.method->execute(), Error::Ok) << last_error_message();
  // PyTorch's outputs, at the fixture's MANIFEST tolerance.
  EXPECT_EQ(verify_method_outputs(*l.method, *b.bundle, k, 1e-4, 1e-5), Error::Ok)
      << last_error_message();
  const Tensor t = l.method->get_output(0).to_tensor();
  const float* p = t.const_data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

void expect_close(const std::vector<float>& a, const std::vector<float>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a[i], b[i], 1e-5 * (1 + std::fabs(b[i]))) << "element " << i;
  }
}

struct Case {
  const char* file;
  size_t fused;  // sequences the method must find
};

// fused_cnn: stem conv+bn+hardtanh, depthwise conv+bn+relu, pointwise
// conv+bn, and a conv+bn whose output relu(y) + y reads twice (its relu is
// not fused). tiny_cnn: stem conv+bn+hardtanh, depthwise conv+bn
// (hardswish follows, which no pattern takes).
// residual_cnn: a ResNet basic block; the plan gives its second batch
// norm's output the second convolution's input.
const Case kCases[] = {{"fused_cnn.portable.bpte", 4},
                       {"tiny_cnn.portable.bpte", 2},
                       {"residual_cnn.portable.bpte", 3}};

TEST(MethodFusion, FindsOnlyDeadIntermediates) {
  for (const Case& c : kCases) {
    auto b = open_bundle(c.file);
    ASSERT_NE(b, nullptr) << c.file << ": " << last_error_message();
    auto l = load(*b->program, size_t(16) << 20);
    ASSERT_NE(l, nullptr) << last_error_message();
    EXPECT_EQ(l->method->num_fused_sequences(), c.fused) << c.file;
  }
}

// Every sequence found at load runs fused (none declines), including one
// whose output has its input's memory.
TEST(MethodFusion, EverySequenceRunsFused) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.file);
    auto b = open_bundle(c.file);
    ASSERT_NE(b, nullptr);
    auto l = load(*b->program, size_t(16) << 20);
    ASSERT_NE(l, nullptr) << last_error_message();
    testing::EventNameCounter counter;  // fused sequences report "fused:<pattern>"
    l->method->set_event_tracer(&counter);
    run(*b, *l, 0);
    EXPECT_EQ(counter.count("fused:"), c.fused);
  }
}

TEST(MethodFusion, FusedUnfusedAndDeclinedRunsAgree) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.file);
    auto b = open_bundle(c.file);
    ASSERT_NE(b, nullptr);
    auto fused = load(*b->program, size_t(16) << 20);
    auto unfused = load(*b->program, size_t(16) << 20);
    // No temp memory: the fused kernel cannot get its per-channel factors
    // and declines; the calls run one by one (reference convolution).
    auto declined = load(*b->program, 0);
    ASSERT_TRUE(fused && unfused && declined);
    unfused->method->set_fusion_enabled(false);
    for (size_t k = 0; k < 2; ++k) {
      const auto f = run(*b, *fused, k);
      const auto u = run(*b, *unfused, k);
      const auto d = run(*b, *declined, k);
      expect_close(f, u);
      expect_close(d, u);
    }
  }
}


// fused_cnn's pointwise convolution (8 -> 16 channels over 10x9 pixels)
// takes a prepared weight, packed at load for the transposed product
// (kernels/math/conv.h): fused and unfused, the convolution reads
// the packed copy, so PyTorch's outputs survive zeroing the program's
// weight, while the unprepared method then goes wrong.
TEST(MethodFusion, PointwiseConvolutionReadsItsPreparedWeight) {
  auto b = open_bundle("fused_cnn.portable.bpte");
  ASSERT_NE(b, nullptr);
  auto prepared = load(*b->program, size_t(16) << 20);
  auto plain = load(*b->program, size_t(16) << 20);
  ASSERT_TRUE(prepared && plain) << last_error_message();
  const size_t bytes = prepared->method->prepared_operands_bytes();
  ASSERT_GT(bytes, 0u);
  std::vector<uint64_t> memory(bytes / 8 + 16);
  uint8_t* base = reinterpret_cast<uint8_t*>(
      (reinterpret_cast<uintptr_t>(memory.data()) + 63) & ~uintptr_t(63));
  ASSERT_EQ(prepared->method->prepare_operands(Span<uint8_t>(base, bytes)), Error::Ok)
      << last_error_message();
  EXPECT_EQ(prepared->method->num_prepared_operands(), 1u);
  // The pointwise weight, [16, 8, 1, 1], in the program's bytes.
  size_t zeroed = 0;
  for (size_t i = 0; i < prepared->method->num_values(); ++i) {
    const EValue& v = prepared->method->value(i);
    if (!v.is_tensor()) continue;
    const Tensor t = v.to_tensor();
    if (t.dim() != 4 || t.sizes()[0] != 16 || t.sizes()[1] != 8 || t.sizes()[2] != 1) continue;
    std::memset(t.mutable_data_ptr(), 0, t.nbytes());
    ++zeroed;
  }
  ASSERT_EQ(zeroed, 1u);
  for (bool fusion : {true, false}) {
    SCOPED_TRACE(fusion);
    prepared->method->set_fusion_enabled(fusion);
    plain->method->set_fusion_enabled(fusion);
    const std::vector<float> good = run(*b, *prepared, 0);  // verified against PyTorch
    ASSERT_EQ(load_bundled_input(*plain->method, *b->bundle, 0), Error::Ok);
    ASSERT_EQ(plain->method->execute(), Error::Ok) << last_error_message();
    const Tensor t = plain->method->get_output(0).to_tensor();
    const std::vector<float> zero(t.const_data_ptr<float>(),
                                  t.const_data_ptr<float>() + t.numel());
    EXPECT_NE(zero, good);
  }
}

}  // namespace
}  // namespace ember

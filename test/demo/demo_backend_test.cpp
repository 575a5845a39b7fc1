// The demo backend ("BackendWithCompilerDemo", backends/demo):
//   - called through the registry with hand-made blobs and call values:
//     the chain wiring and its numbers, and every refusal at init (blob,
//     compile specs, call values, memory) as an Error with a message;
//   - the fixtures of examples/export/export_demo_backend.py
//     (test/models/demo): every test case of every .bpte verifies, the
//     delegated programs match their portable twins, the tracer sees each
//     instruction under its debug handle;
//   - programs with their blob patched (unknown operator, other version,
//     wrong count) fail to load with the backend's message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/demo/demo_backend.h"
#include "bundled_program/bundled_program.h"
#include "devtools/event_recorder.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "test/utils/bundle_fixture.h"
#include "test/utils/tensor_factory.h"

namespace ember::demo {
namespace {

using ::ember::testing::make_tensor;
using ::ember::testing::OwnedTensor;

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/demo";

const std::string kMmAdd =
    "2version:0#op:demo::aten.mm.default, numel:4, dtype:torch.float32<debug_handle>1#"
    "op:demo::aten.add.Tensor, numel:4, dtype:torch.float32<debug_handle>2#";

std::string message() { return last_error_message(); }

const BackendInterface& backend() {
  const BackendInterface* b = find_backend(kDemoBackendId);
  EXPECT_NE(b, nullptr);
  return *b;
}

// One delegate built by hand: blob, call values, method memory.
struct Harness {
  std::vector<std::unique_ptr<OwnedTensor>> tensors;
  std::vector<EValue> values;
  std::vector<EValue*> args;
  std::vector<uint8_t> pool = std::vector<uint8_t>(64 * 1024);
  MemoryAllocator allocator{pool.data(), pool.size()};
  // Scratch for intermediate results comes from the temp allocator.
  std::vector<uint8_t> temp_pool = std::vector<uint8_t>(64 * 1024);
  MemoryAllocator temp{temp_pool.data(), temp_pool.size()};
  DelegateHandle* handle = nullptr;
  bool freed = false;

  void add(std::unique_ptr<OwnedTensor> t) { tensors.push_back(std::move(t)); }
  void add_f(std::vector<SizesType> sizes, std::vector<float> v) {
    add(make_tensor<float>(ScalarType::Float, std::move(sizes), v));
  }

  Error init(const std::string& blob, std::vector<CompileSpec> specs = {},
             bool with_call_args = true) {
    values.clear();
    for (auto& t : tensors) values.emplace_back(t->tensor());
    args.clear();
    for (auto& v : values) args.push_back(&v);
    BackendInitContext ctx(&allocator, nullptr, "forward",
                           with_call_args ? Span<EValue* const>(args.data(), args.size())
                                          : Span<EValue* const>());
    FreeableBuffer processed(blob.data(), blob.size(),
                             [](void* self, void*, size_t) { *static_cast<bool*>(self) = true; },
                             &freed);
    Result<DelegateHandle*> h =
        backend().init(ctx, &processed, Span<const CompileSpec>(specs.data(), specs.size()));
    if (!h.ok()) return h.error();
    handle = *h;
    return Error::Ok;
  }

  Error execute(EventTracer* tracer = nullptr) {
    temp.reset();
    BackendExecutionContext ctx(&temp, tracer, "forward");
    return backend().execute(ctx, handle, Span<EValue*>(args.data(), args.size()));
  }

  std::vector<float> output() { return tensors.back()->values<float>(); }
};

std::string instruction(const char* op, int numel, int handle) {
  return "op:demo::" + std::string(op) + ", numel:" + std::to_string(numel) +
         ", dtype:torch.float32<debug_handle>" + std::to_string(handle) + "#";
}

std::string blob(std::initializer_list<std::string> instructions) {
  std::string text = std::to_string(instructions.size()) + "version:0#";
  for (const std::string& i : instructions) text += i;
  return text;
}

TEST(DemoBackend, IsRegistered) {
  EXPECT_NE(find_backend("BackendWithCompilerDemo"), nullptr);
  EXPECT_TRUE(backend().is_available());
}

TEST(DemoBackend, TutorialChainComputesMmThenAdd) {
  // z = a @ x + b, as the tutorial's partition (a, x, b) -> z.
  Harness h;
  h.add_f({2, 2}, {1, 2, 3, 4});
  h.add_f({2, 2}, {5, 6, 7, 8});
  h.add_f({2, 2}, {0.5f, -1, 2, 0});
  h.add_f({2, 2}, {0, 0, 0, 0});
  ASSERT_EQ(h.init(kMmAdd, {{"max_value", {reinterpret_cast<const uint8_t*>("\x04"), 1}}}),
            Error::Ok)
      << message();
  EXPECT_TRUE(h.freed) << "the plan keeps nothing from the blob";
  ASSERT_EQ(h.execute(), Error::Ok) << message();
  EXPECT_EQ(h.output(), (std::vector<float>{19.5f, 21, 45, 50}));
  ASSERT_EQ(h.execute(), Error::Ok) << message();  // again, same plan
  EXPECT_EQ(h.output(), (std::vector<float>{19.5f, 21, 45, 50}));
}

TEST(DemoBackend, LongerChainsUseScratch) {
  // sin(add(mm(mm(a, x), y), bias)) over [2, 3] x [3, 2] x [2, 4] + [4].
  Harness h;
  h.add_f({2, 3}, {1, 0, -1, 0.5f, 2, 1});
  h.add_f({3, 2}, {1, 2, 0, 1, -1, 0});
  h.add_f({2, 4}, {1, 0, 2, -1, 0, 1, 1, 0.25f});
  h.add_f({4}, {0.1f, 0.2f, 0.3f, 0.4f});
  h.add_f({2, 4}, std::vector<float>(8, 0));
  const std::string text = blob({instruction("aten.mm.default", 4, 1),
                                 instruction("aten.mm.default", 8, 2),
                                 instruction("aten.add.Tensor", 8, 3),
                                 instruction("aten.sin.default", 8, 4)});
  ASSERT_EQ(h.init(text), Error::Ok) << message();
  ASSERT_EQ(h.execute(), Error::Ok) << message();
  // Reference in double.
  const float a[6] = {1, 0, -1, 0.5f, 2, 1}, x[6] = {1, 2, 0, 1, -1, 0};
  const float y[8] = {1, 0, 2, -1, 0, 1, 1, 0.25f}, bias[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  double ax[4] = {};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) ax[i * 2 + j] += double(a[i * 3 + k]) * x[k * 2 + j];
  const std::vector<float> got = h.output();
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = 0;
      for (int k = 0; k < 2; ++k) s += ax[i * 2 + k] * y[k * 4 + j];
      EXPECT_NEAR(got[size_t(i * 4 + j)], std::sin(s + bias[j]), 1e-5) << i << "," << j;
    }
  }
}

TEST(DemoBackend, CompileSpecs) {
  const uint8_t five = 5, four = 4;
  Harness h;
  h.add_f({1}, {0.5f});
  h.add_f({1}, {0});
  const std::string sin = blob({instruction("aten.sin.default", 1, 1)});
  EXPECT_EQ(h.init(sin, {{"max_value", {&five, 1}}}), Error::InvalidArgument);
  EXPECT_NE(message().find("max_value is 5"), std::string::npos) << message();
  EXPECT_EQ(h.init(sin, {{"max_value", {}}}), Error::InvalidProgram);
  EXPECT_EQ(h.init(sin, {{"other", {&five, 1}}, {"max_value", {&four, 1}}}), Error::Ok)
      << message();
  ASSERT_EQ(h.execute(), Error::Ok);
  EXPECT_FLOAT_EQ(h.output()[0], std::sin(0.5f));
}

TEST(DemoBackend, CallValuesMustFitTheChain) {
  {
    // The tutorial's blob over one input (the export aliases a = x = b).
    Harness h;
    h.add_f({2, 2}, {1, 2, 3, 4});
    h.add_f({2, 2}, {0, 0, 0, 0});
    EXPECT_EQ(h.init(kMmAdd), Error::NotSupported);
    EXPECT_NE(message().find("takes 3 inputs and gives 1 output"), std::string::npos)
        << message();
  }
  {
    // Shapes that cannot be multiplied as wired.
    Harness h;
    h.add_f({2, 3}, std::vector<float>(6, 1));
    h.add_f({2, 2}, std::vector<float>(4, 1));
    h.add_f({2, 2}, std::vector<float>(4, 1));
    h.add_f({2, 2}, std::vector<float>(4, 0));
    EXPECT_EQ(h.init(kMmAdd), Error::NotSupported);
    EXPECT_NE(message().find("[2, 3] and [2, 2]"), std::string::npos) << message();
  }
  {
    // The blob's element count disagrees with the shapes.
    Harness h;
    for (int i = 0; i < 3; ++i) h.add_f({2, 2}, std::vector<float>(4, 1));
    h.add_f({2, 2}, std::vector<float>(4, 0));
    std::string text = kMmAdd;
    text.replace(text.find("numel:4"), 7, "numel:6");
    EXPECT_EQ(h.init(text), Error::InvalidProgram);
    EXPECT_NE(message().find("records 6 result elements"), std::string::npos) << message();
  }
  {
    // Broadcasting along a leading dimension is refused.
    Harness h;
    h.add_f({2, 3}, std::vector<float>(6, 1));
    h.add_f({2, 1}, std::vector<float>(2, 1));
    h.add_f({2, 3}, std::vector<float>(6, 0));
    EXPECT_EQ(h.init(blob({instruction("aten.add.Tensor", 6, 0)})), Error::NotSupported);
    EXPECT_NE(message().find("leading dimension"), std::string::npos) << message();
  }
  {
    // Only float32.
    Harness h;
    h.add(make_tensor<int64_t>(ScalarType::Long, {1}, {1}));
    h.add_f({1}, {0});
    EXPECT_EQ(h.init(blob({instruction("aten.sin.default", 1, 0)})), Error::NotSupported);
    EXPECT_NE(message().find("call value 0"), std::string::npos) << message();
  }
  {
    // The output's shape must be the chain's.
    Harness h;
    h.add_f({2, 2}, std::vector<float>(4, 1));
    h.add_f({4}, std::vector<float>(4, 0));
    EXPECT_EQ(h.init(blob({instruction("aten.sin.default", 4, 0)})), Error::InvalidProgram);
    EXPECT_NE(message().find("output is [4]"), std::string::npos) << message();
  }
}

TEST(DemoBackend, ExecuteChecksItsArguments) {
  Harness h;
  h.add_f({3}, {1, 2, 3});
  h.add_f({3}, {0, 0, 0});
  const std::string sin = blob({instruction("aten.sin.default", 3, 0)});
  // Loaded without call values: the shapes were never checked.
  ASSERT_EQ(h.init(sin, {}, /*with_call_args=*/false), Error::Ok) << message();
  EXPECT_EQ(h.execute(), Error::InvalidState);
  ASSERT_EQ(h.init(sin), Error::Ok);
  h.args.pop_back();
  EXPECT_EQ(h.execute(), Error::InvalidArgument);
}

TEST(DemoBackend, MalformedBlobsFailInit) {
  Harness h;
  for (int i = 0; i < 3; ++i) h.add_f({2, 2}, std::vector<float>(4, 1));
  h.add_f({2, 2}, std::vector<float>(4, 0));
  for (size_t n = 0; n < kMmAdd.size(); n += 7) {
    EXPECT_EQ(h.init(kMmAdd.substr(0, n)), Error::InvalidProgram) << n;
  }
  std::string unknown = kMmAdd;
  unknown.replace(unknown.find("aten.add.Tensor"), 15, "aten.div.Tensor");
  EXPECT_EQ(h.init(unknown), Error::InvalidProgram);
  EXPECT_NE(message().find("unknown operator 'demo::aten.div.Tensor'"), std::string::npos)
      << message();
  std::string count = kMmAdd;
  count[0] = '5';
  EXPECT_EQ(h.init(count), Error::InvalidProgram);
  std::string linear = kMmAdd;
  linear.replace(linear.find("aten.mm.default"), 15, "aten.linear.default");
  EXPECT_EQ(h.init(linear), Error::NotSupported);
}

TEST(DemoBackend, SmallMethodMemoryFailsWithAnError) {
  Harness h;
  for (int i = 0; i < 3; ++i) h.add_f({2, 2}, std::vector<float>(4, 1));
  h.add_f({2, 2}, std::vector<float>(4, 0));
  for (size_t size : {0, 16, 64, 200}) {
    MemoryAllocator tiny(h.pool.data(), size);
    std::vector<EValue> values;
    for (auto& t : h.tensors) values.emplace_back(t->tensor());
    std::vector<EValue*> args;
    for (auto& v : values) args.push_back(&v);
    BackendInitContext ctx(&tiny, nullptr, "forward", {args.data(), args.size()});
    FreeableBuffer processed(kMmAdd.data(), kMmAdd.size(), nullptr);
    Result<DelegateHandle*> r = backend().init(ctx, &processed, {});
    ASSERT_FALSE(r.ok()) << size;
    EXPECT_EQ(r.error(), Error::MemoryAllocationFailed);
  }
}

// ---------------------------------------------------------------- fixtures

struct Entry {
  std::string file;
  std::string kind;
  int delegates = 0;
  double rtol = 1e-5, atol = 1e-6;
};

std::vector<Entry> manifest() {
  std::vector<Entry> out;
  std::ifstream in(kDir + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Entry e;
    std::string word;
    if (!(words >> e.file >> e.kind)) continue;
    // "<case>" stands for <case>.bpte; other files are named in full.
    const bool named = e.file.size() > 4 && (e.file.substr(e.file.size() - 4) == ".pte" ||
                                             e.file.substr(e.file.size() - 5) == ".bpte");
    if (!named) e.file += ".bpte";
    while (words >> word) {
      if (word.rfind("delegates=", 0) == 0) e.delegates = std::stoi(word.substr(10));
      if (word.rfind("rtol=", 0) == 0) e.rtol = std::stod(word.substr(5));
      if (word.rfind("atol=", 0) == 0) e.atol = std::stod(word.substr(5));
    }
    out.push_back(e);
  }
  return out;
}

std::vector<std::string> bundles(bool delegated_only) {
  std::vector<std::string> out;
  for (const Entry& e : manifest()) {
    const bool bpte = e.file.size() > 5 && e.file.substr(e.file.size() - 5) == ".bpte";
    if (bpte && (!delegated_only || e.kind == "demo")) out.push_back(e.file);
  }
  return out;
}

Entry entry(const std::string& file) {
  for (const Entry& e : manifest()) {
    if (e.file == file) return e;
  }
  return Entry();
}

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

using Loaded = testing::LoadedBundle;

::testing::AssertionResult load(const std::string& file, Loaded* l,
                                EventTracer* tracer = nullptr) {
  return testing::load_bundle(kDir + "/" + file, l, tracer);
}

class DemoFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(DemoFixture, Verifies) {
  const Entry e = entry(GetParam());
  Loaded l;
  ASSERT_TRUE(load(GetParam(), &l));
  Result<size_t> cases = l.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  ASSERT_GT(*cases, 0u);
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    for (int run = 0; run < 2; ++run) {
      ASSERT_EQ(load_bundled_input(*l.method, *l.bundle, k), Error::Ok) << last_error_message();
      ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
      EXPECT_EQ(verify_method_outputs(*l.method, *l.bundle, k, e.rtol, e.atol), Error::Ok)
          << last_error_message();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DemoFixture, ::testing::ValuesIn(bundles(false)),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

class DemoDelegated : public ::testing::TestWithParam<std::string> {};

TEST_P(DemoDelegated, RunsInTheDelegateAndMatchesPortable) {
  const std::string file = GetParam();
  const Entry e = entry(file);
  const std::string twin = file.substr(0, file.size() - 5) + ".portable.bpte";
  std::vector<uint8_t> event_buffer(1 << 16);
  devtools::EventRecorder recorder({event_buffer.data(), event_buffer.size()});
  Loaded delegated, portable;
  ASSERT_TRUE(load(file, &delegated, &recorder));
  ASSERT_TRUE(load(twin, &portable));
  Result<size_t> cases = delegated.bundle->num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    SCOPED_TRACE("test case " + std::to_string(k));
    recorder.reset();
    ASSERT_EQ(load_bundled_input(*delegated.method, *delegated.bundle, k), Error::Ok);
    ASSERT_EQ(load_bundled_input(*portable.method, *portable.bundle, k), Error::Ok);
    ASSERT_EQ(delegated.method->execute(), Error::Ok) << last_error_message();
    ASSERT_EQ(portable.method->execute(), Error::Ok) << last_error_message();
    // The delegate ran its instructions: one event per instruction, keyed
    // by the blob's debug handle.
    size_t delegate_events = 0;
    for (size_t i = 0; i < recorder.num_events(); ++i) {
      const devtools::RecordedEvent ev = recorder.event(i);
      if (ev.kind == devtools::RecordedEventKind::Profile && ev.delegate_debug_id_int >= 0) {
        ++delegate_events;
      }
    }
    EXPECT_GE(delegate_events, size_t(e.delegates));
    ASSERT_EQ(delegated.method->outputs_size(), portable.method->outputs_size());
    for (size_t o = 0; o < delegated.method->outputs_size(); ++o) {
      const Tensor a = portable.method->get_output(o).to_tensor();
      const Tensor b = delegated.method->get_output(o).to_tensor();
      ASSERT_EQ(a.numel(), b.numel());
      OutputReport report;
      EXPECT_TRUE(compare_tensor_data(a.scalar_type(), a.const_data_ptr(), b.const_data_ptr(),
                                      a.numel(), e.rtol, e.atol, &report))
          << "output " << o << ": max abs error " << report.max_abs_error;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DemoDelegated, ::testing::ValuesIn(bundles(true)),
                         [](const auto& info) {
                           return info.param.substr(0, info.param.size() - 5);
                         });

TEST(DemoTrace, IntermediateOutputsAreLogged) {
  // tutorial_partition: two delegates of mm then add; at the
  // intermediate-outputs level each instruction's result is logged under
  // its debug handle.
  std::vector<uint8_t> event_buffer(1 << 16), debug_buffer(1 << 14);
  devtools::EventRecorder recorder({event_buffer.data(), event_buffer.size()},
                                   {debug_buffer.data(), debug_buffer.size()});
  recorder.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
  Loaded l;
  ASSERT_TRUE(load("tutorial_partition.bpte", &l, &recorder));
  recorder.reset();
  ASSERT_EQ(load_bundled_input(*l.method, *l.bundle, 0), Error::Ok);
  ASSERT_EQ(l.method->execute(), Error::Ok) << last_error_message();
  std::vector<int32_t> handles;
  for (size_t i = 0; i < recorder.num_events(); ++i) {
    const devtools::RecordedEvent ev = recorder.event(i);
    if (ev.kind == devtools::RecordedEventKind::Debug && ev.delegate_debug_id_int >= 0) {
      handles.push_back(ev.delegate_debug_id_int);
      EXPECT_EQ(recorder.tensor(i, 0).nbytes, 4 * sizeof(float));
    }
  }
  // The blobs hold debug handles 1, 2 (first delegate) and 4, 5.
  EXPECT_EQ(handles, (std::vector<int32_t>{1, 2, 4, 5}));
}

// ---------------------------------------------------------------- hostile programs

// tutorial_partition.pte with `from` replaced by `to` (same length) in its
// first delegate blob: loading "forward" must fail with `err`.
void expect_patched_fails(const std::string& from, const std::string& to, Error err,
                          const std::string& says) {
  ASSERT_EQ(from.size(), to.size());
  std::vector<uint8_t> raw = read(kDir + "/tutorial_partition.pte");
  std::string text(raw.begin(), raw.end());
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  std::memcpy(raw.data() + at, to.data(), to.size());
  std::vector<uint64_t> storage(raw.size() / 8 + 8);
  std::memcpy(storage.data(), raw.data(), raw.size());
  Result<std::unique_ptr<Module>> m = Module::load(std::make_unique<BufferDataLoader>(
      reinterpret_cast<const uint8_t*>(storage.data()), raw.size()));
  ASSERT_TRUE(m.ok()) << last_error_message();
  Result<Method*> method = (*m)->method("forward");
  ASSERT_FALSE(method.ok()) << "patched " << from << " -> " << to;
  EXPECT_EQ(method.error(), err) << message();
  EXPECT_NE(message().find(says), std::string::npos) << message();
}

TEST(DemoHostile, PatchedProgramsFailToLoad) {
  expect_patched_fails("aten.mm.default", "aten.mx.default", Error::InvalidProgram,
                       "unknown operator 'demo::aten.mx.default'");
  expect_patched_fails("2version:0#", "2version:7#", Error::DelegateInvalidCompatibility,
                       "version 7");
  expect_patched_fails("2version:0#", "3version:0#", Error::InvalidProgram,
                       "declares 3 instructions, the blob holds 2");
  expect_patched_fails("numel:4, dtype:torch.float32<debug_handle>1#",
                       "numel:5, dtype:torch.float32<debug_handle>1#", Error::InvalidProgram,
                       "records 5 result elements");
  expect_patched_fails("dtype:torch.float32<debug_handle>1#",
                       "dtype:torch.float32<debug_handle>1;", Error::InvalidProgram,
                       "expected '#'");
}

}  // namespace
}  // namespace ember::demo

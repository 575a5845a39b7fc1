// Weights held once (xnn_weights_cache.h): after a delegated method loads,
// the named-data buffers whose only reader is a packed operand have been
// freed by the delegate. Every XNNPACK fixture still verifies afterwards,
// across repeated executions and after the method is unloaded and loaded
// again (which reads the released bytes from the file once more).
//
// That freeing an mmap'd buffer gives its pages back is data_loader_test's
// (MmapDataLoader.FreeingNamedDataGivesItsPagesBack). Here, with the small
// fixtures, a released page can be mapped again by the kernel's fault-
// around when XNNPACK reads a neighbouring tensor in the same 64 KiB window
// (correct: the bytes come from the file); in a real model's megabytes of
// weights that is a few edge pages (bench/compare_memory.py measures RSS).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/xnnpack/xnnpack_backend.h"
#include "bundled_program/bundled_program.h"
#include "extension/data_loader/file_data_loader.h"
#include "extension/data_loader/mmap_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "test/xnnpack/xnnpack_cpu_level.h"

namespace ember::testing {
namespace {

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/xnnpack";

// Forwards to a loader and records, for named data, which buffers were
// freed (the inner buffer's own release runs too).
class RecordingLoader final : public DataLoader {
 public:
  struct Record {
    FreeableBuffer inner;
    const void* data = nullptr;
    size_t size = 0;
    bool freed = false;
  };

  explicit RecordingLoader(std::unique_ptr<DataLoader> inner) : inner_(std::move(inner)) {}

  Result<FreeableBuffer> load(size_t offset, size_t size, SegmentKind kind) override {
    Result<FreeableBuffer> buffer = inner_->load(offset, size, kind);
    if (!buffer.ok() || kind != SegmentKind::External) return buffer;
    records_.emplace_back();
    Record& r = records_.back();
    r.data = buffer->data();
    r.size = buffer->size();
    r.inner = std::move(*buffer);
    return FreeableBuffer(r.data, r.size, &RecordingLoader::release, &r);
  }
  Result<size_t> size() const override { return inner_->size(); }

  const std::deque<Record>& records() const { return records_; }

 private:
  static void release(void* context, void*, size_t) {
    Record* r = static_cast<Record*>(context);
    r->freed = true;
    r->inner.free();
  }

  std::unique_ptr<DataLoader> inner_;
  std::deque<Record> records_;
};

struct Case {
  std::vector<uint64_t> storage;  // the bundle, 8-byte aligned
  std::unique_ptr<BundledProgram> bundle;
  std::string program_path;  // the embedded program, written out for mmap
};

::testing::AssertionResult open_case(const std::string& name, Case* c) {
  std::ifstream in(kDir + "/" + name + ".bpte", std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.empty()) return ::testing::AssertionFailure() << "cannot read " << name;
  c->storage.assign(raw.size() / 8 + 1, 0);
  std::memcpy(c->storage.data(), raw.data(), raw.size());
  Result<BundledProgram> b = BundledProgram::from(c->storage.data(), raw.size());
  if (!b.ok()) return ::testing::AssertionFailure() << last_error_message();
  c->bundle = std::make_unique<BundledProgram>(*b);
  c->program_path = ::testing::TempDir() + "weight_release_" + name + ".pte";
  std::ofstream out(c->program_path, std::ios::binary);
  out.write(static_cast<const char*>(b->program_data()), std::streamsize(b->program_size()));
  return out ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "write failed";
}

struct Tolerance {
  double rtol = 1e-4;
  double atol = 1e-5;
  std::string kind;  // fp32, int8, dq, fp16
};

// The MANIFEST's tolerance for `name` (as xnnpack_fixture_test reads it).
Tolerance tolerance(const std::string& name) {
  std::ifstream in(kDir + "/MANIFEST");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string n, kind, word;
    if (!(words >> n >> kind) || n != name) continue;
    Tolerance t;
    t.kind = kind;
    while (words >> word) {
      if (word.rfind("rtol=", 0) == 0) t.rtol = std::stod(word.substr(5));
      if (word.rfind("atol=", 0) == 0) t.atol = std::stod(word.substr(5));
    }
    return t;
  }
  return Tolerance();
}

void verify_cases(Module& module, const BundledProgram& bundle, const Tolerance& tol) {
  Result<Method*> method = module.method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  Result<size_t> cases = bundle.num_test_cases("forward");
  ASSERT_TRUE(cases.ok());
  for (size_t k = 0; k < *cases; ++k) {
    for (int run = 0; run < 2; ++run) {
      ASSERT_EQ(load_bundled_input(**method, bundle, k), Error::Ok) << last_error_message();
      ASSERT_EQ((*method)->execute(), Error::Ok) << last_error_message();
      std::vector<OutputReport> reports((*method)->outputs_size());
      EXPECT_EQ(verify_method_outputs(**method, bundle, k, tol.rtol, tol.atol, reports.data(),
                                      reports.size()),
                Error::Ok)
          << "test case " << k << ": " << last_error_message();
    }
  }
}

// Returns the number of named-data bytes the delegate released.
// `mmap`: the mmap loader (released pages are given back); else the file
// loader (released copies are freed: under ASan a late read is reported).
size_t load_verify_reload(const std::string& name, bool mmap) {
  Case c;
  EXPECT_TRUE(open_case(name, &c));
  if (::testing::Test::HasFailure()) return 0;
  std::unique_ptr<DataLoader> inner;
  if (mmap) {
    Result<MmapDataLoader> l = MmapDataLoader::from(c.program_path.c_str());
    EXPECT_TRUE(l.ok()) << last_error_message();
    if (l.ok()) inner = std::make_unique<MmapDataLoader>(std::move(*l));
  } else {
    Result<FileDataLoader> l = FileDataLoader::from(c.program_path.c_str());
    EXPECT_TRUE(l.ok()) << last_error_message();
    if (l.ok()) inner = std::make_unique<FileDataLoader>(std::move(*l));
  }
  if (inner == nullptr) return 0;
  auto recording = std::make_unique<RecordingLoader>(std::move(inner));
  RecordingLoader* loader = recording.get();
  Result<std::unique_ptr<Module>> module = Module::load(std::move(recording));
  EXPECT_TRUE(module.ok()) << last_error_message();
  if (!module.ok()) return 0;
  Result<Method*> method = (*module)->method("forward");
  if (!method.ok() && method.error() == Error::OperatorMissing) return 0;  // portable ops Ember lacks
  const Tolerance tol = tolerance(name);
  if (!fp16_kernels_available() && tol.kind == "fp16") {
    // No XNNPACK kernels at this CPU level: the clear refusal is the result.
    EXPECT_TRUE(refused_for_this_cpu(last_error_message())) << last_error_message();
    std::filesystem::remove(c.program_path);
    return 0;
  }
  EXPECT_TRUE(method.ok()) << last_error_message();
  if (!method.ok()) return 0;
  size_t released = 0;
  for (const RecordingLoader::Record& r : loader->records()) {
    if (r.freed) released += r.size;
  }
  verify_cases(**module, *c.bundle, tol);
  // Unloaded and loaded again: the released bytes come back from the file.
  EXPECT_TRUE((*module)->unload_method("forward"));
  verify_cases(**module, *c.bundle, tol);
  std::filesystem::remove(c.program_path);
  return released;
}

std::vector<std::string> fixture_names() {
  std::vector<std::string> out;
  std::ifstream in(kDir + "/MANIFEST");
  std::string name, kind;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (words >> name >> kind) out.push_back(name);
  }
  return out;
}

class XnnpackWeightRelease : public ::testing::TestWithParam<std::string> {};

TEST_P(XnnpackWeightRelease, VerifiesAfterReleaseAndReload) {
  load_verify_reload(GetParam(), /*mmap=*/true);
  load_verify_reload(GetParam(), /*mmap=*/false);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, XnnpackWeightRelease, ::testing::ValuesIn(fixture_names()),
                         [](const auto& info) { return info.param; });

// Fixtures whose weights are packed operands: their filter bytes (at least
// a page each, so some whole page is inside) are released.
TEST(XnnpackWeightRelease, ConvolutionAndLinearWeightsAreReleased) {
  for (const char* name : {"conv2d", "linear", "tiny_cnn"}) {
    SCOPED_TRACE(name);
    EXPECT_GT(load_verify_reload(name, /*mmap=*/true), 0u);
    EXPECT_GT(load_verify_reload(name, /*mmap=*/false), 0u);
  }
}

// An LSTM over six steps is eight delegates (the partitioner leaves each
// step's split and squeeze out), six of them reading the recurrent weight.
// The method's delegates share one weights cache, found by named-data key,
// so that weight is packed once, with either loader (the file loader gives
// each delegate its own copy of the bytes), and the outputs still verify.
TEST(XnnpackWeightRelease, ARecurrentWeightIsPackedOnceForEveryStep) {
  for (bool mmap : {true, false}) {
    SCOPED_TRACE(mmap ? "mmap" : "file");
    const xnnpack::MemoryStats before = xnnpack::memory_stats();
    Case c;
    ASSERT_TRUE(open_case("lstm", &c));
    std::unique_ptr<DataLoader> loader;
    if (mmap) {
      Result<MmapDataLoader> l = MmapDataLoader::from(c.program_path.c_str());
      ASSERT_TRUE(l.ok()) << last_error_message();
      loader = std::make_unique<MmapDataLoader>(std::move(*l));
    } else {
      Result<FileDataLoader> l = FileDataLoader::from(c.program_path.c_str());
      ASSERT_TRUE(l.ok()) << last_error_message();
      loader = std::make_unique<FileDataLoader>(std::move(*l));
    }
    Result<std::unique_ptr<Module>> module = Module::load(std::move(loader));
    ASSERT_TRUE(module.ok()) << last_error_message();
    ASSERT_TRUE((*module)->method("forward").ok()) << last_error_message();
    const xnnpack::MemoryStats loaded = xnnpack::memory_stats();
    EXPECT_EQ(loaded.delegates - before.delegates, 8u);
    // Measured 6656 bytes on AVX-512 (the input weight and the recurrent
    // one, packed once each); a packed copy per step would be 28 KiB.
    EXPECT_LE(loaded.packed_weight_bytes - before.packed_weight_bytes, 8u * 1024);
    verify_cases(**module, *c.bundle, tolerance("lstm"));
    std::filesystem::remove(c.program_path);
  }
}

}  // namespace
}  // namespace ember::testing

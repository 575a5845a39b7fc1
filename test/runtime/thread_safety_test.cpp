// The thread-safety contract (README.md, "Thread safety"; the headers of
// program.h, method.h, threadpool.h, backend.h and module.h state it):
// one Program loaded once and shared; every thread loads its own Method
// from it (concurrently) and executes it, many times, at the same time as
// the others, with the shared pool at 1 and at 2 threads; the XNNPACK
// delegate and the portable kernels side by side.
//
// Every output is compared bit for bit with the output of the same method
// and test case run alone, on one thread, at the same pool size, before
// any thread starts. Bit-exact is the right bar: nothing here depends on
// timing (each Method has its own memory and delegate state; the pool
// runs one parallel section at a time, and how a kernel splits its work
// depends on the thread count, not on which caller ran first). Across
// pool sizes, too, the results are the same bits (kernels/math/isa.h
// promises it for the optimized kernels; checked below for these fixtures).
//
// scripts/test.sh --tsan runs this binary under ThreadSanitizer
// (build-tsan/, EMBER_TSAN=ON).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/platform/threadpool.h"

namespace ember::testing {
namespace {

const std::string kDir = std::string(EMBER_TEST_MODELS_DIR) + "/xnnpack/";

// Delegated fixtures and their portable twins (the same module, not
// delegated): convolutions, a residual block, a transformer encoder layer.
const char* const kFixtures[] = {
    "tiny_cnn",     "tiny_cnn.portable",     "residual_cnn", "residual_cnn.portable",
    "tiny_encoder", "tiny_encoder.portable",
};

constexpr size_t kThreads = 4;      // application threads, each with its own Method
constexpr size_t kIterations = 40;  // executions per thread (each over every test case)

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<uint8_t, FreeDeleter>;

Buffer zeroed(size_t bytes) { return Buffer(static_cast<uint8_t*>(std::calloc(bytes, 1))); }

// A bundled program read once, and the Program loaded from it once: what
// every thread shares.
struct SharedProgram {
  std::string name;
  Buffer bytes;
  std::unique_ptr<BundledProgram> bundle;
  std::unique_ptr<BufferDataLoader> loader;
  std::unique_ptr<Program> program;
  size_t cases = 0;
};

::testing::AssertionResult load_shared(const std::string& name, SharedProgram* s) {
  s->name = name;
  std::ifstream in(kDir + name + ".bpte", std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (raw.empty()) return ::testing::AssertionFailure() << "cannot read " << name;
  s->bytes.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (raw.size() + 63) / 64 * 64)));
  std::memcpy(s->bytes.get(), raw.data(), raw.size());
  Result<BundledProgram> bundle = BundledProgram::from(s->bytes.get(), raw.size());
  if (!bundle.ok()) return ::testing::AssertionFailure() << name << ": " << last_error_message();
  s->bundle = std::make_unique<BundledProgram>(*bundle);
  s->loader = std::make_unique<BufferDataLoader>(bundle->program_data(), bundle->program_size());
  Result<Program> program = Program::load(s->loader.get());
  if (!program.ok()) return ::testing::AssertionFailure() << name << ": " << last_error_message();
  s->program = std::make_unique<Program>(std::move(*program));
  Result<size_t> cases = s->bundle->num_test_cases("forward");
  if (!cases.ok() || *cases == 0) return ::testing::AssertionFailure() << name << ": no cases";
  s->cases = *cases;
  return ::testing::AssertionSuccess();
}

// One thread's Method and the memory it owns (nothing shared).
class OwnMethod {
 public:
  // Loads "forward" from `shared`; false with a message on failure.
  bool load(const SharedProgram& shared, std::string* error) {
    Result<MethodMeta> meta = shared.program->method_meta("forward");
    if (!meta.ok()) return fail(error);
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      Result<int64_t> size = meta->memory_planned_buffer_size(i);
      if (!size.ok()) return fail(error);
      planned_.push_back(zeroed(size_t(*size) + 1));
      spans_.emplace_back(planned_.back().get(), size_t(*size));
    }
    planned_memory_ = std::make_unique<HierarchicalAllocator>(
        Span<Span<uint8_t>>(spans_.data(), spans_.size()));
    method_pool_ = zeroed(kMethodPool);
    temp_pool_ = zeroed(kTempPool);
    method_allocator_ = std::make_unique<MemoryAllocator>(method_pool_.get(), kMethodPool);
    temp_allocator_ = std::make_unique<MemoryAllocator>(temp_pool_.get(), kTempPool);
    memory_ = std::make_unique<MemoryManager>(method_allocator_.get(), planned_memory_.get(),
                                              temp_allocator_.get());
    Result<Method> method = shared.program->load_method("forward", memory_.get());
    if (!method.ok()) return fail(error);
    method_ = std::make_unique<Method>(std::move(*method));
    return true;
  }

  // Sets test case `k`'s inputs, executes, and copies every tensor
  // output's bytes into `out`.
  bool run(const SharedProgram& shared, size_t k, std::vector<std::vector<uint8_t>>* out,
           std::string* error) {
    if (load_bundled_input(*method_, *shared.bundle, k) != Error::Ok) return fail(error);
    if (method_->execute() != Error::Ok) return fail(error);
    out->resize(method_->outputs_size());
    for (size_t i = 0; i < method_->outputs_size(); ++i) {
      const EValue& v = method_->get_output(i);
      if (!v.is_tensor()) {
        (*out)[i].clear();
        continue;
      }
      const Tensor t = v.to_tensor();
      const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
      (*out)[i].assign(p, p + t.nbytes());
    }
    return true;
  }

 private:
  static constexpr size_t kMethodPool = size_t(8) << 20;  // calloc: mapped lazily
  static constexpr size_t kTempPool = size_t(8) << 20;

  static bool fail(std::string* error) {
    *error = last_error_message();
    return false;
  }

  std::vector<Buffer> planned_;
  std::vector<Span<uint8_t>> spans_;
  std::unique_ptr<HierarchicalAllocator> planned_memory_;
  Buffer method_pool_;
  Buffer temp_pool_;
  std::unique_ptr<MemoryAllocator> method_allocator_;
  std::unique_ptr<MemoryAllocator> temp_allocator_;
  std::unique_ptr<MemoryManager> memory_;
  std::unique_ptr<Method> method_;
};

using Outputs = std::vector<std::vector<uint8_t>>;  // per output, its bytes

// Each test case's outputs from one Method on this thread, alone.
::testing::AssertionResult serial_reference(const SharedProgram& s, std::vector<Outputs>* ref) {
  OwnMethod m;
  std::string error;
  if (!m.load(s, &error)) return ::testing::AssertionFailure() << s.name << ": " << error;
  ref->assign(s.cases, Outputs());
  for (size_t k = 0; k < s.cases; ++k) {
    if (!m.run(s, k, &(*ref)[k], &error)) {
      return ::testing::AssertionFailure() << s.name << ": " << error;
    }
  }
  return ::testing::AssertionSuccess();
}

// What one application thread saw.
struct Report {
  std::string error;     // a failed load or execute (first one)
  size_t executions = 0;
  size_t mismatches = 0;  // outputs whose bytes differ from the reference
  std::string first_mismatch;
};

// Makes every thread wait until all have loaded, so that executions overlap.
class StartLine {
 public:
  explicit StartLine(size_t n) : waiting_(n) {}
  void arrive_and_wait() {
    waiting_.fetch_sub(1);
    while (waiting_.load() != 0) std::this_thread::yield();
  }

 private:
  std::atomic<size_t> waiting_;
};

// kThreads threads; thread t loads programs[t % n] (concurrently with the
// others' loads), then runs every test case kIterations times, comparing
// each output with refs[t % n].
void run_concurrently(const std::vector<SharedProgram*>& programs,
                      const std::vector<std::vector<Outputs>>& refs) {
  std::vector<Report> reports(kThreads);
  StartLine start(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const size_t p = t % programs.size();
      const SharedProgram& s = *programs[p];
      Report& r = reports[t];
      OwnMethod m;
      const bool loaded = m.load(s, &r.error);
      start.arrive_and_wait();
      if (!loaded) return;
      Outputs out;
      for (size_t i = 0; i < kIterations; ++i) {
        // Each thread walks the cases from a different offset, so that
        // concurrent executions run different inputs.
        const size_t k = (i + t) % s.cases;
        if (!m.run(s, k, &out, &r.error)) return;
        ++r.executions;
        const Outputs& want = refs[p][k];
        for (size_t o = 0; o < want.size(); ++o) {
          if (o >= out.size() || out[o] != want[o]) {
            if (r.mismatches++ == 0) {
              r.first_mismatch = s.name + " case " + std::to_string(k) + " output " +
                                 std::to_string(o) + " (execution " + std::to_string(i) + ")";
            }
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t) + " (" + programs[t % programs.size()]->name + ")");
    EXPECT_EQ(reports[t].error, "");
    EXPECT_EQ(reports[t].executions, kIterations);
    EXPECT_EQ(reports[t].mismatches, 0u) << "first: " << reports[t].first_mismatch;
  }
}

class ThreadSafety : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override { ASSERT_EQ(set_num_threads(GetParam()), Error::Ok); }
  void TearDown() override { (void)set_num_threads(1); }
};

// Several threads, each with its own Method of one shared Program (so
// concurrent loads of the same method too), executing at the same time.
TEST_P(ThreadSafety, SameProgramOnEveryThread) {
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    SharedProgram s;
    ASSERT_TRUE(load_shared(name, &s));
    std::vector<std::vector<Outputs>> refs(1);
    ASSERT_TRUE(serial_reference(s, &refs[0]));
    run_concurrently({&s}, refs);
  }
}

// Every fixture at once: delegated and portable methods share the pool.
TEST_P(ThreadSafety, DifferentProgramsAtOnce) {
  std::vector<SharedProgram> shared(std::size(kFixtures));
  std::vector<SharedProgram*> programs;
  std::vector<std::vector<Outputs>> refs(shared.size());
  for (size_t i = 0; i < shared.size(); ++i) {
    ASSERT_TRUE(load_shared(kFixtures[i], &shared[i]));
    ASSERT_TRUE(serial_reference(shared[i], &refs[i]));
    programs.push_back(&shared[i]);
  }
  // kThreads may be fewer than the fixtures: rotate so every one runs.
  for (size_t first = 0; first < programs.size(); first += kThreads) {
    std::vector<SharedProgram*> group;
    std::vector<std::vector<Outputs>> group_refs;
    for (size_t t = 0; t < kThreads; ++t) {
      const size_t i = (first + t) % programs.size();
      group.push_back(programs[i]);
      group_refs.push_back(refs[i]);
    }
    run_concurrently(group, group_refs);
  }
}

// Loads and destroys Methods of one Program on several threads at once
// (the XNNPACK delegate's init and destroy included); every Method's
// first execution is right.
TEST_P(ThreadSafety, ConcurrentLoadAndDestroy) {
  for (const char* name : {"tiny_cnn", "tiny_encoder"}) {
    SCOPED_TRACE(name);
    SharedProgram s;
    ASSERT_TRUE(load_shared(name, &s));
    std::vector<Outputs> ref;
    ASSERT_TRUE(serial_reference(s, &ref));
    constexpr size_t kLoads = 8;
    std::vector<Report> reports(kThreads);
    StartLine start(kThreads);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        Report& r = reports[t];
        start.arrive_and_wait();
        for (size_t i = 0; i < kLoads && r.error.empty(); ++i) {
          OwnMethod m;
          Outputs out;
          if (!m.load(s, &r.error) || !m.run(s, 0, &out, &r.error)) break;
          ++r.executions;
          if (out != ref[0]) ++r.mismatches;
        }
      });
    }
    for (std::thread& th : threads) th.join();
    for (size_t t = 0; t < kThreads; ++t) {
      SCOPED_TRACE("thread " + std::to_string(t));
      EXPECT_EQ(reports[t].error, "");
      EXPECT_EQ(reports[t].executions, kLoads);
      EXPECT_EQ(reports[t].mismatches, 0u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PoolThreads, ThreadSafety, ::testing::Values(size_t(1), size_t(2)),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return "pool" + std::to_string(info.param);
                         });

// The same bits at every pool size, for these fixtures: the serial
// references above could then be shared, and an application may change
// the thread count (between executions) without changing its results.
TEST(ThreadSafetyPoolSize, ResultsDoNotDependOnThreadCount) {
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    SharedProgram s;
    ASSERT_TRUE(load_shared(name, &s));
    std::vector<Outputs> one, two;
    ASSERT_EQ(set_num_threads(1), Error::Ok);
    ASSERT_TRUE(serial_reference(s, &one));
    ASSERT_EQ(set_num_threads(2), Error::Ok);
    ASSERT_TRUE(serial_reference(s, &two));
    ASSERT_EQ(set_num_threads(1), Error::Ok);
    EXPECT_TRUE(one == two);
  }
}

// Module::method from several threads: one load, one Method for all.
TEST(ThreadSafetyModule, MethodFromSeveralThreads) {
  SharedProgram s;
  ASSERT_TRUE(load_shared("tiny_cnn", &s));  // for the bundle's program bytes
  Result<std::unique_ptr<Module>> module = Module::load(
      std::make_unique<BufferDataLoader>(s.bundle->program_data(), s.bundle->program_size()));
  ASSERT_TRUE(module.ok()) << last_error_message();
  std::vector<Method*> got(kThreads, nullptr);
  StartLine start(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      Result<Method*> m = (*module)->method("forward");
      if (m.ok()) got[t] = *m;
    });
  }
  for (std::thread& th : threads) th.join();
  ASSERT_NE(got[0], nullptr);
  for (size_t t = 1; t < kThreads; ++t) EXPECT_EQ(got[t], got[0]);
}

}  // namespace
}  // namespace ember::testing

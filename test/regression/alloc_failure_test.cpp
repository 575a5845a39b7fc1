// Allocation failure: every request the loader and executor make to the
// caller's allocators is failed in turn (an allocator that fails its Nth
// allocate()). Each run must end in Error::MemoryAllocationFailed with a
// message, and no crash or leak (LeakSanitizer under scripts/test.sh
// --sanitize); N runs from 0 until a run succeeds, and the test asserts
// that run made exactly N requests, so every allocation site of loading
// and executing the fixture was failed once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_manager.h"
#include "test/regression/regression_util.h"

namespace ember::testing {
namespace {

// A bump allocator whose allocate() call number `fail_at` (0-based) returns
// null; every other call behaves normally. fail_at < 0: never fails.
class FailingAllocator final : public MemoryAllocator {
 public:
  FailingAllocator(void* base, size_t size, long fail_at)
      : MemoryAllocator(base, size), fail_at_(fail_at) {}
  void* allocate(size_t size, size_t alignment) override {
    if (long(calls_++) == fail_at_) {
      failed_ = true;
      return nullptr;
    }
    return MemoryAllocator::allocate(size, alignment);
  }
  size_t calls() const { return calls_; }
  bool failed() const { return failed_; }

 private:
  long fail_at_;
  size_t calls_ = 0;
  bool failed_ = false;
};

const char* const kFixtures[] = {"add",     "linear",   "linear_inline", "stateful",
                                 "two_methods", "dynamic", "int_bool",  "mlp",
                                 "convnet", "scalar_ops"};

constexpr size_t kPoolBytes = size_t(1) << 20;

// One attempt at load_method + fill inputs + execute with the method
// allocator failing at `method_fail_at` and the temp allocator at
// `temp_fail_at` (-1: never).
struct Attempt {
  Error error = Error::Ok;
  size_t method_calls = 0;
  size_t temp_calls = 0;
  bool method_failed = false;
  bool temp_failed = false;
  std::string message;
  std::vector<std::vector<uint8_t>> outputs;  // tensor outputs' bytes, on success
};

Attempt attempt(const Program& program, const char* method_name, long method_fail_at,
                long temp_fail_at) {
  Attempt out;
  MethodMeta meta = *program.method_meta(method_name);
  std::vector<std::vector<uint8_t>> planned;
  std::vector<Span<uint8_t>> spans;
  for (size_t i = 0; i < meta.num_memory_planned_buffers(); ++i) {
    planned.emplace_back(size_t(*meta.memory_planned_buffer_size(i)));
  }
  for (auto& p : planned) spans.emplace_back(p.data(), p.size());
  HierarchicalAllocator planned_memory({spans.data(), spans.size()});
  std::vector<uint8_t> method_pool(kPoolBytes), temp_pool(kPoolBytes);
  FailingAllocator method_allocator(method_pool.data(), method_pool.size(), method_fail_at);
  FailingAllocator temp_allocator(temp_pool.data(), temp_pool.size(), temp_fail_at);
  MemoryManager memory(&method_allocator, &planned_memory, &temp_allocator);
  {
    Result<Method> method = program.load_method(method_name, &memory);
    out.error = method.ok() ? Error::Ok : method.error();
    if (method.ok()) {
      Result<InputBuffers> inputs = prepare_input_tensors(*method);
      out.error = inputs.ok() ? method->execute() : inputs.error();
      for (size_t i = 0; out.error == Error::Ok && i < method->outputs_size(); ++i) {
        const EValue& v = method->get_output(i);
        if (!v.is_tensor()) continue;
        const Tensor t = v.to_tensor();
        const uint8_t* p = static_cast<const uint8_t*>(t.const_data_ptr());
        out.outputs.emplace_back(p, p + t.nbytes());
      }
    }
    out.message = last_error_message();
  }  // the Method is destroyed before its memory
  out.method_calls = method_allocator.calls();
  out.temp_calls = temp_allocator.calls();
  out.method_failed = method_allocator.failed();
  out.temp_failed = temp_allocator.failed();
  return out;
}

// Same outputs up to float rounding: every 4 bytes read as a float.
bool close_outputs(const std::vector<std::vector<uint8_t>>& a,
                   const std::vector<std::vector<uint8_t>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != b[i].size() || a[i].size() % 4 != 0) return false;
    for (size_t j = 0; j < a[i].size(); j += 4) {
      float x, y;
      std::memcpy(&x, &a[i][j], 4);
      std::memcpy(&y, &b[i][j], 4);
      if (!(std::fabs(x - y) <= 1e-5f * std::max(1.0f, std::fabs(y)))) return false;
    }
  }
  return true;
}

TEST(AllocationFailure, EveryMethodAllocationOfEveryFixture) {
  size_t total_sites = 0;
  for (const char* fixture : kFixtures) {
    const std::vector<uint8_t> bytes = read_file(models_dir() + "/" + fixture + "/model.pte");
    BufferDataLoader loader(bytes.data(), bytes.size());
    Result<Program> program = Program::load(&loader);
    ASSERT_TRUE(program.ok()) << fixture << ": " << last_error_message();
    for (size_t m = 0; m < program->num_methods(); ++m) {
      const char* name = *program->get_method_name(m);
      SCOPED_TRACE(std::string(fixture) + "." + name);
      const Attempt clean = attempt(*program, name, -1, -1);
      ASSERT_EQ(clean.error, Error::Ok) << clean.message;
      ASSERT_GT(clean.method_calls, 0u);
      for (long n = 0;; ++n) {
        const Attempt a = attempt(*program, name, n, -1);
        if (a.error == Error::Ok) {
          EXPECT_FALSE(a.method_failed);
          // The first success is the run that made exactly n requests.
          EXPECT_EQ(size_t(n), a.method_calls);
          EXPECT_EQ(a.method_calls, clean.method_calls);
          total_sites += size_t(n);
          break;
        }
        EXPECT_TRUE(a.method_failed) << "failed without the injected failure: " << a.message;
        EXPECT_EQ(a.error, Error::MemoryAllocationFailed) << "n=" << n << ": " << a.message;
        EXPECT_NE(a.message.find("allocat"), std::string::npos) << a.message;
        // The failed request was made (a site may make a few sibling
        // requests before it checks them all, as parse_tensor does).
        EXPECT_GE(a.method_calls, size_t(n) + 1);
        ASSERT_LT(size_t(n), clean.method_calls) << "did not converge";
      }
      // Temp allocator: kernels ask it for scratch during execute(). A
      // kernel either fails cleanly or falls back to a form that needs
      // less (the optimized GEMM reads B in place when packing space is
      // missing, a Float product without room for an accumulating beta
      // uses the reference GEMM) and then gives the clean run's outputs up
      // to float rounding (these fixtures' outputs are Float).
      for (long n = 0; size_t(n) < clean.temp_calls; ++n) {
        const Attempt a = attempt(*program, name, -1, n);
        EXPECT_TRUE(a.temp_failed);
        if (a.error == Error::Ok) {
          EXPECT_TRUE(close_outputs(a.outputs, clean.outputs))
              << "temp n=" << n << ": the fallback changed the outputs";
          continue;
        }
        EXPECT_EQ(a.error, Error::MemoryAllocationFailed) << "temp n=" << n << ": " << a.message;
      }
      RecordProperty(std::string(fixture) + "." + name + ".method_allocations",
                     int(clean.method_calls));
      RecordProperty(std::string(fixture) + "." + name + ".temp_allocations",
                     int(clean.temp_calls));
    }
  }
  EXPECT_GT(total_sites, 100u);
}

// load_bundled_input copies inputs through a caller's allocator when given
// one: each of those requests failed in turn, for every bundled fixture.
TEST(AllocationFailure, EveryBundledInputCopy) {
  for (const char* fixture : {"add", "int_bool", "two_methods", "mlp", "dynamic"}) {
    SCOPED_TRACE(fixture);
    AlignedCopy bytes(read_file(models_dir() + "/bundled/" + fixture + ".bpte"));
    Result<BundledProgram> bundle = BundledProgram::from(bytes.data(), bytes.size());
    ASSERT_TRUE(bundle.ok()) << last_error_message();
    Result<std::unique_ptr<Module>> module = Module::load(
        std::make_unique<BufferDataLoader>(bundle->program_data(), bundle->program_size()));
    ASSERT_TRUE(module.ok()) << last_error_message();
    const char* name = bundle->suite_method_name(0);
    Result<Method*> method = (*module)->method(name);
    ASSERT_TRUE(method.ok());
    std::vector<uint8_t> pool(kPoolBytes);
    for (long n = 0;; ++n) {
      FailingAllocator copies(pool.data(), pool.size(), n);
      const Error err = load_bundled_input(**method, *bundle, 0, &copies);
      if (err == Error::Ok) {
        EXPECT_EQ(copies.calls(), size_t(n));
        EXPECT_EQ((*method)->execute(), Error::Ok) << last_error_message();
        EXPECT_EQ(verify_method_outputs(**method, *bundle, 0, kDefaultBundledRtol,
                                        kDefaultBundledAtol),
                  Error::Ok)
            << last_error_message();
        break;
      }
      EXPECT_EQ(err, Error::MemoryAllocationFailed) << last_error_message();
      ASSERT_LT(n, 64) << "did not converge";
    }
  }
}

}  // namespace
}  // namespace ember::testing

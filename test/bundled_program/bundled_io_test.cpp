// load_bundled_input on a program that leaves its graph inputs and outputs
// to the application (test/models/io/unplanned_portable/model.bpte,
// examples/export/export_io.py: MemoryPlanningPass(alloc_graph_input=
// False, alloc_graph_output=False), bundled by upstream's BundledProgram).
// Upstream's own bundled runtime crashes on it (the outputs get no
// memory); here the load-input path gives them memory from the caller's
// allocator, and without one execute() names the output that has none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/bundled_program/bundled_test_util.h"
#include "test/runtime/raw_method.h"

namespace ember::testing {
namespace {

std::string unplanned_bpte() { return models_dir() + "/io/unplanned_portable/model.bpte"; }

bool inside(const void* p, const std::vector<uint8_t>& pool) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  return b >= pool.data() && b < pool.data() + pool.size();
}

TEST(BundledIo, AllocatorGivesUnplannedOutputsMemory) {
  AlignedBytes file(read_bytes(unplanned_bpte()));
  ASSERT_NE(file.size(), 0u);
  Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  const uint8_t* program = static_cast<const uint8_t*>(bundle->program_data());
  std::unique_ptr<Raw> r = load_raw(
      std::vector<uint8_t>(program, program + bundle->program_size()), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  Method& m = *r->method;

  // No allocator: the inputs are bound in place, the outputs stay without
  // memory and execute() says so.
  ASSERT_EQ(load_bundled_input(m, *bundle, 0), Error::Ok) << last_error_message();
  EXPECT_EQ(m.get_output(0).to_tensor().const_data_ptr(), nullptr);
  EXPECT_EQ(m.execute(), Error::InvalidState);
  EXPECT_NE(std::string(last_error_message()).find("output 0 has no memory"),
            std::string::npos)
      << last_error_message();

  // With an allocator: inputs copied into it, outputs given memory from it
  // once (a second load reuses them).
  std::vector<uint8_t> pool(4096);
  MemoryAllocator allocator(pool.data(), pool.size());
  size_t grew[2] = {};
  for (size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    const size_t before = allocator.used();
    ASSERT_EQ(load_bundled_input(m, *bundle, k, &allocator), Error::Ok)
        << last_error_message();
    grew[k] = allocator.used() - before;
    for (size_t i = 0; i < m.inputs_size(); ++i) {
      EXPECT_TRUE(inside(m.get_input(i).to_tensor().const_data_ptr(), pool)) << i;
    }
    for (size_t i = 0; i < m.outputs_size(); ++i) {
      EXPECT_TRUE(inside(m.get_output(i).to_tensor().const_data_ptr(), pool)) << i;
    }
    ASSERT_EQ(m.execute(), Error::Ok) << last_error_message();
    std::vector<OutputReport> reports(m.outputs_size());
    EXPECT_EQ(verify_method_outputs(m, *bundle, k, 1e-5, 1e-6, reports.data(),
                                    reports.size()),
              Error::Ok)
        << last_error_message();
  }
  // Case 0 allocated the inputs and both [3, 6] float outputs, case 1 only
  // its inputs.
  EXPECT_GE(grew[0], grew[1] + 2 * 18 * sizeof(float));

  // An allocator too small for an output is an Error naming it.
  std::unique_ptr<Raw> fresh = load_raw(
      std::vector<uint8_t>(program, program + bundle->program_size()), "forward");
  ASSERT_NE(fresh, nullptr);
  std::vector<uint8_t> tiny(24 * 4 + 18 * 4 + 64);
  MemoryAllocator small(tiny.data(), tiny.size());
  EXPECT_EQ(load_bundled_input(*fresh->method, *bundle, 0, &small),
            Error::MemoryAllocationFailed);
  EXPECT_NE(std::string(last_error_message()).find("output 0: the allocator cannot hold"),
            std::string::npos)
      << last_error_message();
}

// Verifying an output that has no memory (nothing gave it any and the
// method did not run) reports it, never reads through a null pointer.
// (Module now gives such outputs memory, so the regression file
// crash_bundled_program_output_without_storage.bpte no longer reaches this.)
TEST(BundledIo, VerifyingAnOutputWithoutMemoryReportsIt) {
  AlignedBytes file(read_bytes(unplanned_bpte()));
  Result<BundledProgram> bundle = BundledProgram::from(file.data(), file.size());
  ASSERT_TRUE(bundle.ok()) << last_error_message();
  const uint8_t* program = static_cast<const uint8_t*>(bundle->program_data());
  std::unique_ptr<Raw> r = load_raw(
      std::vector<uint8_t>(program, program + bundle->program_size()), "forward");
  ASSERT_NE(r, nullptr) << last_error_message();
  ASSERT_EQ(load_bundled_input(*r->method, *bundle, 0), Error::Ok) << last_error_message();
  std::vector<OutputReport> reports(2);
  EXPECT_EQ(verify_method_outputs(*r->method, *bundle, 0, 1e-5, 1e-6, reports.data(),
                                  reports.size()),
            Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("has no storage"), std::string::npos)
      << last_error_message();
  EXPECT_EQ(reports[0].mismatch, OutputMismatch::NoData);
}

// Through Module (which gives the outputs memory at load): every test case
// of the bundle verifies.
TEST(BundledIo, ModuleRunsEveryTestCase) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(unplanned_bpte()), &lb));
  for (size_t k = 0; k < 2; ++k) {
    std::vector<OutputReport> reports;
    EXPECT_EQ(run_case(lb, "forward", k, 1e-5, 1e-6, &reports), Error::Ok)
        << last_error_message();
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_TRUE(reports[0].passed && reports[1].passed);
  }
}

// The device flow on caller memory: bytes in, a Program from the view, the
// inputs of every test case copied into a buffer of exactly
// bundled_case_memory_bytes(), every output verified with a report.
// (load_raw: Program::load over the view's program bytes, the method on
// memory sized from its MethodMeta.) The unplanned fixture's outputs get
// their memory from the same buffer.
TEST(ProgramView, RunsEveryCaseOnCallerMemory) {
  for (const std::string& path :
       {bundled_fixture("add"), bundled_fixture("mlp"), bundled_fixture("two_methods"),
        models_dir() + "/io/unplanned_portable/model.bpte"}) {
    SCOPED_TRACE(path);
    AlignedBytes bytes(read_bytes(path));
    Result<ProgramView> view = ProgramView::open(bytes.data(), bytes.size());
    ASSERT_TRUE(view.ok()) << last_error_message();
    ASSERT_TRUE(view->is_bundled());
    const uint8_t* program = static_cast<const uint8_t*>(view->program_data());
    const BundledProgram& bundle = *view->bundle();
    for (size_t s = 0; s < bundle.num_method_suites(); ++s) {
      const char* method_name = bundle.suite_method_name(s);
      std::unique_ptr<Raw> raw = load_raw(
          std::vector<uint8_t>(program, program + view->program_size()), method_name);
      ASSERT_NE(raw, nullptr) << last_error_message();
      Method& method = *raw->method;
      std::vector<uint8_t> memory(bundled_case_memory_bytes(method));
      MemoryAllocator allocator(memory.data(), memory.size());
      Result<size_t> cases = bundle.num_test_cases(method_name);
      ASSERT_TRUE(cases.ok());
      for (size_t k = 0; k < *cases; ++k) {
        allocator.reset();
        ASSERT_EQ(load_bundled_input(method, bundle, k, &allocator), Error::Ok)
            << last_error_message();
        ASSERT_EQ(method.execute(), Error::Ok) << last_error_message();
        std::vector<OutputReport> reports(method.outputs_size());
        EXPECT_EQ(verify_method_outputs(method, bundle, k, kDefaultBundledRtol,
                                        kDefaultBundledAtol, reports.data(), reports.size()),
                  Error::Ok)
            << last_error_message();
        for (size_t j = 0; j < reports.size(); ++j) {
          EXPECT_TRUE(reports[j].passed);
          EXPECT_LE(reports[j].max_abs_error, 1e-4);
          Result<BundledTensor> expected = bundled_expected_tensor(bundle, method_name, k, j);
          if (!expected.ok()) continue;  // a scalar output
          EXPECT_EQ(expected->dtype, reports[j].expected_dtype);
          EXPECT_EQ(expected->dim, reports[j].expected_rank);
        }
      }
      EXPECT_EQ(bundled_expected_tensor(bundle, method_name, 0, 99).error(),
                Error::InvalidArgument);
    }
  }
}

}  // namespace
}  // namespace ember::testing

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

}  // namespace
}  // namespace ember::testing

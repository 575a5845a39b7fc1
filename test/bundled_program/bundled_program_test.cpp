// The bundled program library: fixtures written by upstream's tooling,
// the upstream bundle, tolerance boundaries, reports, malformed bundles.
#include <cmath>
#include <cstring>
#include <limits>

#include "schema/bundled_program_schema_generated.h"
#include "test/bundled_program/bundled_test_util.h"

namespace ember::testing {
namespace {

namespace fb = ::ember_bundled_fb;

const char* const kFixtures[] = {"add", "int_bool", "two_methods", "mlp", "dynamic"};

// Every test case of every suite; returns the number of cases run.
size_t verify_all(LoadedBundle& lb, double rtol, double atol) {
  size_t cases = 0;
  for (size_t s = 0; s < lb.bundle->num_method_suites(); ++s) {
    const std::string method = lb.bundle->suite_method_name(s);
    Result<size_t> n = lb.bundle->num_test_cases(method.c_str());
    EXPECT_TRUE(n.ok());
    for (size_t k = 0; n.ok() && k < *n; ++k) {
      std::vector<OutputReport> reports;
      EXPECT_EQ(run_case(lb, method, k, rtol, atol, &reports), Error::Ok)
          << method << " case " << k << ": " << last_error_message();
      for (const OutputReport& r : reports) {
        EXPECT_TRUE(r.passed) << method << " case " << k << " output " << r.output_index;
        EXPECT_EQ(r.testset_index, k);
      }
      ++cases;
    }
  }
  return cases;
}

TEST(BundledFixtures, EveryFixtureVerifies) {
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    LoadedBundle lb;
    ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture(name)), &lb));
    EXPECT_EQ(lb.bundle->version(), 2u);
    EXPECT_GE(verify_all(lb, kDefaultBundledRtol, kDefaultBundledAtol), 3u);
  }
}

TEST(BundledFixtures, TwoMethodsHasBothSuites) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("two_methods")), &lb));
  ASSERT_EQ(lb.bundle->num_method_suites(), 2u);
  EXPECT_STREQ(lb.bundle->suite_method_name(0), "double_it");
  EXPECT_STREQ(lb.bundle->suite_method_name(1), "forward");
  EXPECT_EQ(*lb.bundle->num_test_cases("forward"), 3u);
  EXPECT_EQ(lb.bundle->num_test_cases("nope").error(), Error::NotFound);
}

TEST(BundledUpstream, AddMulIntVerifiesAllTenCases) {
  if (!std::filesystem::exists(upstream_bpte())) {
    GTEST_SKIP() << upstream_bpte() << " not present";
  }
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(upstream_bpte()), &lb));
  ASSERT_EQ(*lb.bundle->num_test_cases("forward"), 10u);
  EXPECT_EQ(verify_all(lb, 0.0, 0.0), 10u);
}

TEST(ProgramView, PlainAndBundled) {
  const std::vector<uint8_t> pte = read_bytes(models_dir() + "/add/model.pte");
  Result<ProgramView> plain = ProgramView::open(pte.data(), pte.size());
  ASSERT_TRUE(plain.ok()) << last_error_message();
  EXPECT_EQ(plain->program_data(), pte.data());
  EXPECT_EQ(plain->program_size(), pte.size());
  EXPECT_FALSE(plain->is_bundled());
  EXPECT_EQ(plain->bundle(), nullptr);
  EXPECT_FALSE(is_bundled_program(pte.data(), pte.size()));

  AlignedBytes bpte(read_bytes(bundled_fixture("add")));
  EXPECT_TRUE(is_bundled_program(bpte.data(), bpte.size()));
  Result<ProgramView> bundled = ProgramView::open(bpte.data(), bpte.size());
  ASSERT_TRUE(bundled.ok()) << last_error_message();
  ASSERT_TRUE(bundled->is_bundled());
  ASSERT_NE(bundled->bundle(), nullptr);
  const void* p = bundled->program_data();
  EXPECT_EQ(p, bundled->bundle()->program_data());
  EXPECT_EQ(std::memcmp(static_cast<const uint8_t*>(p) + 4, "ET12", 4), 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kBundledProgramAlignment, 0u);

  // A malformed bundle is an error; null bytes with a size are refused.
  EXPECT_EQ(ProgramView::open(bpte.data(), 64).error(), Error::InvalidProgram);
  EXPECT_EQ(ProgramView::open(nullptr, 8).error(), Error::InvalidArgument);
}

// ---- Malformed bundles and lookups ----

TEST(BundledErrors, NotABundleTruncatedAndCorrupt) {
  const std::vector<uint8_t> pte = read_bytes(models_dir() + "/add/model.pte");
  EXPECT_EQ(BundledProgram::from(pte.data(), pte.size()).error(), Error::NotSupported);
  EXPECT_EQ(BundledProgram::from(pte.data(), 4).error(), Error::NotSupported);

  const std::vector<uint8_t> file = read_bytes(bundled_fixture("int_bool"));
  AlignedBytes truncated;
  truncated.assign(file.data(), file.size() / 2);
  EXPECT_EQ(BundledProgram::from(truncated.data(), truncated.size()).error(),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("verification"), std::string::npos);

  // Flip every byte in turn (after the identifier): never a crash, and a
  // bundle that still opens must still be safe to walk.
  AlignedBytes corrupt(file);
  for (size_t i = 8; i < file.size(); i += 7) {
    corrupt.data()[i] ^= 0xff;
    Result<BundledProgram> b = BundledProgram::from(corrupt.data(), corrupt.size());
    if (b.ok()) {
      for (size_t s = 0; s < b->num_method_suites(); ++s) {
        (void)b->num_test_cases(b->suite_method_name(s));
      }
    }
    corrupt.data()[i] ^= 0xff;
  }
}

TEST(BundledErrors, MissingSuiteAndIndexOutOfRange) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("add")), &lb));
  Result<Method*> m = lb.module->method("forward");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(load_bundled_input(**m, *lb.bundle, 4), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("out of range"), std::string::npos);
  EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 99, 0, 0), Error::InvalidArgument);

  // A method the bundle has no suite for: two_methods' program, add's bundle.
  LoadedBundle two;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("two_methods")), &two));
  Result<Method*> d = two.module->method("double_it");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(load_bundled_input(**d, *lb.bundle, 0), Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("no test suite for method 'double_it'"),
            std::string::npos);
  // Raw-bytes overloads verify first.
  EXPECT_EQ(load_bundled_input(**m, lb.bytes.data(), lb.bytes.size(), 0), Error::Ok);
  EXPECT_EQ(load_bundled_input(**m, lb.bytes.data(), 16, 0), Error::InvalidProgram);
}

TEST(BundledErrors, InputWithAllocatorAndTooSmallAllocator) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("add")), &lb));
  Result<Method*> m = lb.module->method("forward");
  ASSERT_TRUE(m.ok());
  alignas(16) uint8_t arena[256];
  MemoryAllocator allocator(arena, sizeof(arena));
  EXPECT_EQ(load_bundled_input(**m, *lb.bundle, 1, &allocator), Error::Ok);
  EXPECT_EQ((*m)->execute(), Error::Ok);
  EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 1, 1e-5, 1e-8), Error::Ok);
  MemoryAllocator tiny(arena, 8);
  EXPECT_EQ(load_bundled_input(**m, *lb.bundle, 1, &tiny), Error::MemoryAllocationFailed);
}

// ---- Altered expected outputs ----

// Pointer to the bytes of expected output `output` of test case `k` of
// `method`, inside `bytes` (which the test owns, so writing is fine).
uint8_t* expected_data(AlignedBytes& bytes, const char* method, size_t k, size_t output) {
  const fb::BundledProgram* root = fb::GetBundledProgram(bytes.data());
  for (const fb::BundledMethodTestSuite* suite : *root->method_test_suites()) {
    if (suite->method_name()->str() != method) continue;
    const fb::Value* v = suite->test_cases()->Get(flatbuffers::uoffset_t(k))
                             ->expected_outputs()
                             ->Get(flatbuffers::uoffset_t(output));
    return const_cast<uint8_t*>(v->val_as_Tensor()->data()->data());
  }
  return nullptr;
}

float get_f32(const uint8_t* p) {
  float f;
  std::memcpy(&f, p, 4);
  return f;
}
void put_f32(uint8_t* p, float f) { std::memcpy(p, &f, 4); }

// The largest float `a` on the side `direction` of `b` with
// |a - b| <= atol + rtol * |b| (in double), and the next float beyond it.
void boundary(float b, double rtol, double atol, float direction, float* pass, float* fail) {
  const double allowed = atol + rtol * std::fabs(double(b));
  float a = float(double(b) + (direction > 0 ? allowed : -allowed));
  while (std::fabs(double(a) - double(b)) > allowed) a = std::nextafter(a, b);
  while (true) {
    const float next = std::nextafter(a, direction * std::numeric_limits<float>::infinity());
    if (std::fabs(double(next) - double(b)) > allowed) break;
    a = next;
  }
  *pass = a;
  *fail = std::nextafter(a, direction * std::numeric_limits<float>::infinity());
}

TEST(BundledBoundary, OneUlpAcrossTheToleranceEdge) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("add")), &lb));
  Result<Method*> m = lb.module->method("forward");
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(load_bundled_input(**m, *lb.bundle, 0), Error::Ok);
  ASSERT_EQ((*m)->execute(), Error::Ok);
  const Tensor out = (*m)->get_output(0).to_tensor();
  uint8_t* expected = expected_data(lb.bytes, "forward", 0, 0);
  ASSERT_NE(expected, nullptr);

  struct Tol {
    double rtol, atol;
  };
  const Tol tolerances[] = {{1e-5, 0.0}, {0.0, 1e-6}, {1e-3, 1e-4}, {1e-5, 1e-8}};
  for (int element = 0; element < 3; ++element) {
    const float b = out.const_data_ptr<float>()[element];
    uint8_t* slot = expected + 4 * element;
    const float original = get_f32(slot);
    for (const Tol& t : tolerances) {
      for (float direction : {1.0f, -1.0f}) {
        SCOPED_TRACE(::testing::Message() << "element " << element << " rtol " << t.rtol
                                          << " atol " << t.atol << " dir " << direction);
        float pass, fail;
        boundary(b, t.rtol, t.atol, direction, &pass, &fail);
        OutputReport r;
        put_f32(slot, pass);
        EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 0, t.rtol, t.atol, &r, 1),
                  Error::Ok)
            << last_error_message();
        EXPECT_TRUE(r.passed);
        put_f32(slot, fail);
        EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 0, t.rtol, t.atol, &r, 1),
                  Error::NotFound);
        EXPECT_FALSE(r.passed);
        EXPECT_EQ(r.num_outside_tolerance, 1);
        EXPECT_EQ(r.worst_index, element);
        EXPECT_EQ(r.worst_expected, double(fail));
        EXPECT_EQ(r.worst_actual, double(b));
      }
    }
    // rtol == atol == 0 is exact: the output itself passes, one ulp fails.
    put_f32(slot, b);
    EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 0, 0.0, 0.0), Error::Ok);
    put_f32(slot, std::nextafter(b, 1e30f));
    EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 0, 0.0, 0.0), Error::NotFound);
    put_f32(slot, original);
  }
  EXPECT_EQ(verify_method_outputs(**m, *lb.bundle, 0, 1e-5, 1e-8), Error::Ok);
}

TEST(BundledReport, GrossFloatAlterationNamesCaseOutputElement) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("two_methods")), &lb));
  uint8_t* expected = expected_data(lb.bytes, "double_it", 2, 0);
  ASSERT_NE(expected, nullptr);
  put_f32(expected + 4, get_f32(expected + 4) + 1000.0f);
  std::vector<OutputReport> reports;
  for (size_t k = 0; k < 3; ++k) {
    const Error err = run_case(lb, "double_it", k, 1e-5, 1e-8, &reports);
    if (k != 2) {
      EXPECT_EQ(err, Error::Ok) << last_error_message();
      continue;
    }
    EXPECT_EQ(err, Error::NotFound);
    const std::string message = last_error_message();
    EXPECT_NE(message.find("method 'double_it' test case 2 output 0"), std::string::npos)
        << message;
    EXPECT_NE(message.find("worst element 1"), std::string::npos) << message;
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_FALSE(reports[0].passed);
    EXPECT_EQ(reports[0].mismatch, OutputMismatch::Values);
    EXPECT_EQ(reports[0].testset_index, 2u);
    EXPECT_EQ(reports[0].num_outside_tolerance, 1);
    EXPECT_EQ(reports[0].worst_index, 1);
    EXPECT_NEAR(reports[0].max_abs_error, 1000.0, 1e-3);
    EXPECT_NEAR(reports[0].mean_abs_error, 1000.0 / 3, 1e-3);
  }
  // The other method is untouched.
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(run_case(lb, "forward", k, 1e-5, 1e-8, &reports), Error::Ok);
  }
}

TEST(BundledReport, IntegerAlterationOfOneOutputOfMany) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("int_bool")), &lb));
  uint8_t* expected = expected_data(lb.bytes, "forward", 1, 1);
  ASSERT_NE(expected, nullptr);
  int64_t v;
  std::memcpy(&v, expected + 3 * 8, 8);
  v += 100;
  std::memcpy(expected + 3 * 8, &v, 8);
  std::vector<OutputReport> reports;
  EXPECT_EQ(run_case(lb, "forward", 1, 1.0, 1000.0, &reports), Error::NotFound)
      << "integers compare exactly, whatever the tolerance";
  EXPECT_NE(std::string(last_error_message()).find("test case 1 output 1"),
            std::string::npos)
      << last_error_message();
  ASSERT_EQ(reports.size(), 4u);
  EXPECT_TRUE(reports[0].passed);
  EXPECT_FALSE(reports[1].passed);
  EXPECT_TRUE(reports[2].passed);
  EXPECT_TRUE(reports[3].passed);
  EXPECT_EQ(reports[1].worst_index, 3);
  EXPECT_EQ(reports[1].worst_expected, double(v));
  EXPECT_EQ(reports[1].max_abs_error, 100.0);
  EXPECT_EQ(run_case(lb, "forward", 0, 0, 0, &reports), Error::Ok);
}

TEST(BundledReport, DtypeMismatchFails) {
  LoadedBundle lb;
  ASSERT_TRUE(load_bundle(read_bytes(bundled_fixture("add")), &lb));
  // Rewrite the expected output's scalar type byte: Float -> Int (same size).
  const fb::BundledProgram* root = fb::GetBundledProgram(lb.bytes.data());
  const fb::Tensor* t = root->method_test_suites()
                            ->Get(0)
                            ->test_cases()
                            ->Get(0)
                            ->expected_outputs()
                            ->Get(0)
                            ->val_as_Tensor();
  // Tables derive privately from flatbuffers::Table; same address.
  auto* table = reinterpret_cast<flatbuffers::Table*>(const_cast<fb::Tensor*>(t));
  ASSERT_TRUE(table->SetField<int8_t>(fb::Tensor::VT_SCALAR_TYPE, int8_t(ScalarType::Int), 0));
  std::vector<OutputReport> reports;
  EXPECT_EQ(run_case(lb, "forward", 0, 1e-5, 1e-8, &reports), Error::NotFound);
  EXPECT_EQ(reports[0].mismatch, OutputMismatch::Dtype);
  EXPECT_NE(std::string(last_error_message()).find("dtype Float, expected Int"),
            std::string::npos)
      << last_error_message();
}

// ---- The element rules on their own, every floating dtype ----

TEST(BundledCompare, FloatSpecialValues) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float a[] = {nan, inf, -inf, 1.0f, nan, inf, 2.0f};
  const float b[] = {nan, inf, -inf, 1.0f, 1.0f, -inf, inf};
  OutputReport r;
  EXPECT_TRUE(compare_tensor_data(ScalarType::Float, a, b, 4, 1e-5, 1e-8, &r));
  EXPECT_TRUE(compare_tensor_data(ScalarType::Float, a, b, 4, 0, 0, &r));
  EXPECT_EQ(r.max_abs_error, 0.0);
  EXPECT_FALSE(compare_tensor_data(ScalarType::Float, a, b, 7, 1e9, 1e9, &r));
  EXPECT_EQ(r.num_outside_tolerance, 3);  // nan vs 1, inf vs -inf, 2 vs inf
  EXPECT_EQ(r.worst_index, 4);
  EXPECT_TRUE(std::isinf(r.max_abs_error));
}

TEST(BundledCompare, HalfAndBFloat16UseTheFormula) {
  // Half: 1.0 and the next half up (1 + 2^-10).
  const Half one(1.0f), next(1.0f + 1.0f / 1024);
  OutputReport r;
  EXPECT_FALSE(compare_tensor_data(ScalarType::Half, &next, &one, 1, 0, 0, &r));
  EXPECT_TRUE(compare_tensor_data(ScalarType::Half, &next, &one, 1, 0, 1.0 / 1024, &r));
  EXPECT_FALSE(compare_tensor_data(ScalarType::Half, &next, &one, 1, 0, 1.0 / 2048, &r));
  EXPECT_TRUE(compare_tensor_data(ScalarType::Half, &next, &one, 1, 1.0 / 1024, 0, &r));
  EXPECT_EQ(r.max_abs_error, 1.0 / 1024);
  // BFloat16: 1.0 and 1 + 2^-7.
  const BFloat16 bone(1.0f), bnext(1.0f + 1.0f / 128);
  EXPECT_FALSE(compare_tensor_data(ScalarType::BFloat16, &bnext, &bone, 1, 0, 0, &r));
  EXPECT_TRUE(compare_tensor_data(ScalarType::BFloat16, &bnext, &bone, 1, 1.0 / 128, 0, &r));
  EXPECT_FALSE(compare_tensor_data(ScalarType::BFloat16, &bnext, &bone, 1, 1.0 / 256, 0, &r));
  EXPECT_EQ(r.worst_expected, 1.0 + 1.0 / 128);
  EXPECT_EQ(r.worst_actual, 1.0);
  // Double.
  const double da[] = {1.0, 2.0}, db[] = {1.0, 2.0 + 1e-12};
  EXPECT_TRUE(compare_tensor_data(ScalarType::Double, da, db, 2, 1e-12, 0, &r));
  EXPECT_FALSE(compare_tensor_data(ScalarType::Double, da, db, 2, 1e-13, 0, &r));
  EXPECT_EQ(r.worst_index, 1);
}

TEST(BundledCompare, IntegersAndBoolsAreExact) {
  const int32_t a[] = {1, 2, 3}, b[] = {1, 2, 4};
  OutputReport r;
  EXPECT_FALSE(compare_tensor_data(ScalarType::Int, a, b, 3, 10, 10, &r));
  EXPECT_EQ(r.worst_index, 2);
  EXPECT_EQ(r.max_abs_error, 1.0);
  EXPECT_NEAR(r.max_rel_error, 0.25, 1e-12);
  const bool ba[] = {true, false}, bb[] = {true, true};
  EXPECT_FALSE(compare_tensor_data(ScalarType::Bool, ba, bb, 2, 1, 1, &r));
  EXPECT_EQ(r.worst_index, 1);
  const uint8_t ua[] = {7}, ub[] = {7};
  EXPECT_TRUE(compare_tensor_data(ScalarType::Byte, ua, ub, 1, 0, 0, &r));
  const int64_t la[] = {INT64_MAX}, lb[] = {INT64_MAX - 1};
  EXPECT_FALSE(compare_tensor_data(ScalarType::Long, la, lb, 1, 0, 0, &r))
      << "values that are equal as doubles still differ";
}

}  // namespace
}  // namespace ember::testing

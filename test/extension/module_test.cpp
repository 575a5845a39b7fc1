// extension/module: Module::execute/forward on portable and XNNPACK
// fixtures (equal to the Method path and to PyTorch's outputs), input
// checks that name the input, owned outputs, method metadata and loading,
// the load modes (their names, and the mlock ones), and verify() on
// committed bundled programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "extension/data_loader/mmap_data_loader.h"
#include "extension/module/module.h"
#include "extension/tensor/tensor_ptr.h"
#include "runtime/core/error_message.h"
#include "test/data_loader/memlock_limit.h"
#include "test/runtime/fixture_util.h"

namespace ember::testing {
namespace {

std::string message() { return last_error_message(); }

::testing::AssertionResult mentions(const std::string& text) {
  const std::string m = message();
  if (m.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "message '" << m << "' lacks '" << text << "'";
}

std::unique_ptr<Module> load_module(const std::string& path,
                                    Module::LoadMode mode = Module::LoadMode::Mmap) {
  Result<std::unique_ptr<Module>> m = Module::load(path, mode);
  EXPECT_TRUE(m.ok()) << path << ": " << message();
  return m.ok() ? std::move(*m) : nullptr;
}

// The .npy file as a TensorPtr that owns a copy of its bytes.
TensorPtr npy_tensor(const std::string& path) {
  Result<NpyArray> a = read_npy(path);
  EXPECT_TRUE(a.ok()) << path << ": " << message();
  if (!a.ok()) return nullptr;
  auto bytes = std::make_shared<std::vector<uint8_t>>(std::move(a->data));
  Result<TensorPtr> t = from_blob(bytes->data(), a->shape, a->dtype,
                                  [bytes](void*) mutable { bytes.reset(); });
  EXPECT_TRUE(t.ok()) << message();
  return t.ok() ? *t : nullptr;
}

std::vector<TensorPtr> run_inputs(const std::string& dir, size_t n) {
  std::vector<TensorPtr> inputs;
  for (size_t i = 0; i < n; ++i) {
    inputs.push_back(npy_tensor(dir + "/input" + std::to_string(i) + ".npy"));
  }
  return inputs;
}

// Checks `outputs` against run folder `dir`'s expected .npy files.
void expect_outputs(const Outputs& outputs, const std::string& dir, double rtol = 1e-5,
                    double atol = 1e-6) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    Result<NpyArray> expected = read_npy(dir + "/output" + std::to_string(i) + ".npy");
    ASSERT_TRUE(expected.ok()) << message();
    EXPECT_TRUE(output_matches(outputs[i], *expected, rtol, atol)) << dir << " output " << i;
  }
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  return a.scalar_type() == b.scalar_type() && a.nbytes() == b.nbytes() &&
         std::memcmp(a.const_data_ptr(), b.const_data_ptr(), a.nbytes()) == 0;
}

// --- forward on the fixtures ---------------------------------------------

TEST(Module, ForwardOnAPortableFixtureMatchesPyTorchAndTheMethodPath) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  std::unique_ptr<Module> reference = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  ASSERT_NE(reference, nullptr);
  Result<Method*> method = reference->method("forward");
  ASSERT_TRUE(method.ok()) << message();
  for (const std::string& dir : run_dirs("add", "forward")) {
    SCOPED_TRACE(dir);
    const std::vector<TensorPtr> inputs = run_inputs(dir, 2);
    Result<Outputs> out = module->forward(inputs);
    ASSERT_TRUE(out.ok()) << message();
    ASSERT_EQ(out->size(), 1u);
    expect_outputs(*out, dir);
    // The Method path on the same inputs gives the same bytes.
    for (size_t i = 0; i < inputs.size(); ++i) {
      ASSERT_EQ((*method)->set_input(EValue(*inputs[i]), i), Error::Ok) << message();
    }
    ASSERT_EQ((*method)->execute(), Error::Ok) << message();
    EXPECT_TRUE(same_bytes((*out)[0].to_tensor(), (*method)->get_output(0).to_tensor()));
    ASSERT_NE(out->tensor(0), nullptr);
    EXPECT_EQ(out->tensor(0)->impl(), (*out)[0].to_tensor().impl());
  }
}

TEST(Module, ForwardTakesEValuesAndTensorPtrs) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  const std::string dir = run_dirs("add", "forward")[0];
  const std::vector<TensorPtr> inputs = run_inputs(dir, 2);
  Result<Outputs> out = module->forward({EValue(*inputs[0]), EValue(*inputs[1])});
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);
  Result<Outputs> again = module->execute("forward", {inputs[0], inputs[1]});
  ASSERT_TRUE(again.ok()) << message();
  expect_outputs(*again, dir);
}

TEST(Module, ForwardOnABoundedDynamicFixture) {
  std::unique_ptr<Module> module = load_module(fixture_path("dynamic"));
  ASSERT_NE(module, nullptr);
  for (const std::string& dir : run_dirs("dynamic", "forward")) {  // [8,4] then [3,4]
    SCOPED_TRACE(dir);
    Result<Outputs> out = module->forward(run_inputs(dir, 1));
    ASSERT_TRUE(out.ok()) << message();
    expect_outputs(*out, dir);
  }
  // Above the upper bound [8, 4]: refused, naming the input and the bound.
  Result<TensorPtr> big = zeros({9, 4});
  ASSERT_TRUE(big.ok());
  Result<Outputs> out = module->forward(*big);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), Error::InvalidArgument);
  EXPECT_TRUE(mentions("input 0: shape [9, 4] is above the method's upper bound [8, 4]"));
}

#ifdef EMBER_TEST_XNNPACK
// The whole graph in one XNNPACK delegate, inputs and outputs left to the
// application: Module binds the TensorPtrs' data and gives the outputs
// memory.
TEST(Module, ForwardOnAnXnnpackFixtureMatchesPyTorch) {
  std::unique_ptr<Module> module = load_module(fixture_path("io/unplanned_xnnpack"));
  ASSERT_NE(module, nullptr);
  Result<MethodMeta> meta = module->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_TRUE(meta->uses_backend("XnnpackBackend"));
  EXPECT_FALSE(meta->input_tensor_meta(0)->is_memory_planned());
  const std::vector<std::string> runs = run_dirs("io/unplanned_xnnpack", "forward");
  ASSERT_EQ(runs.size(), 2u);
  for (const std::string& dir : runs) {
    SCOPED_TRACE(dir);
    Result<Outputs> out = module->forward(run_inputs(dir, 2));
    ASSERT_TRUE(out.ok()) << message();
    ASSERT_EQ(out->size(), 2u);
    expect_outputs(*out, dir);
  }
}

// External weights (.ptd) for both the delegate and a portable buffer.
TEST(Module, ForwardOnAnXnnpackProgramWithExternalData) {
  const std::string dir = models_dir() + "/external";
  Result<std::unique_ptr<Module>> module = Module::load(
      dir + "/xnnpack.pte", {dir + "/portable.ptd", dir + "/xnnpack.ptd"});
  ASSERT_TRUE(module.ok()) << message();
  Result<Outputs> out = (*module)->forward(run_inputs(dir + "/forward/run0", 1));
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir + "/forward/run0", 1e-4, 1e-5);
}

TEST(Module, VerifyAnXnnpackBundle) {
  std::unique_ptr<Module> module = load_module(models_dir() + "/xnnpack/linear.bpte");
  ASSERT_NE(module, nullptr);
  Result<VerifyReport> report = module->verify(0, 1e-4, 1e-5);  // the MANIFEST's tolerances
  ASSERT_TRUE(report.ok()) << message();
  EXPECT_TRUE(report->passed) << report->message;
}
// XNNPACK's convolutions sum in another order than PyTorch's: the outputs
// agree within the MANIFEST's tolerances (rtol 1e-4, atol 1e-5) but not
// bit for bit, so a tolerance of 1e-9 makes verify() report the failure
// (a report, not an Error) with the library's per-output fields.
TEST(Module, VerifyReportsFailureOnAToleranceTheOutputsMiss) {
  std::unique_ptr<Module> module = load_module(models_dir() + "/xnnpack/fused_cnn.bpte");
  ASSERT_NE(module, nullptr);
  Result<VerifyReport> loose = module->verify(0, 1e-4, 1e-5);
  ASSERT_TRUE(loose.ok()) << message();
  EXPECT_TRUE(loose->passed) << loose->message;

  Result<VerifyReport> tight = module->verify(0, 0.0, 1e-9);
  ASSERT_TRUE(tight.ok()) << message();
  EXPECT_FALSE(tight->passed);
  ASSERT_EQ(tight->outputs.size(), 1u);
  const OutputReport& r = tight->outputs[0];
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatch, OutputMismatch::Values);
  EXPECT_GT(r.num_outside_tolerance, 0);
  EXPECT_GT(r.max_abs_error, 1e-9);
  EXPECT_LE(r.max_abs_error, 1e-5);
  EXPECT_GE(r.worst_index, 0);
  EXPECT_NE(tight->message.find("output 0"), std::string::npos) << tight->message;
}
#endif

// The README's Module snippet, on the add fixture.
TEST(Module, ReadmeSnippet) {
  auto module = ember::Module::load(fixture_path("add"));
  ASSERT_TRUE(module.ok()) << message();
  auto x = ember::make_tensor_ptr({2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  auto y = ember::ones({2, 3});
  auto out = (*module)->forward({*x, *y});
  ASSERT_TRUE(out.ok()) << message();
  const float* sum = (*out)[0].to_tensor().const_data_ptr<float>();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(sum[i], float(i + 2));
}

// --- input checks ----------------------------------------------------------

TEST(Module, WrongDtypeNamesTheInput) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  Result<TensorPtr> x = zeros({2, 3});
  Result<TensorPtr> y = zeros({2, 3}, ScalarType::Long);
  Result<Outputs> out = module->forward({*x, *y});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), Error::InvalidArgument);
  EXPECT_TRUE(mentions("method 'forward' input 1: expected dtype Float, got Long"));
}

TEST(Module, WrongRankNamesTheInput) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  Result<TensorPtr> x = zeros({1, 2, 3});
  Result<TensorPtr> y = zeros({2, 3});
  Result<Outputs> out = module->forward({*x, *y});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), Error::InvalidArgument);
  EXPECT_TRUE(mentions(
      "method 'forward' input 0: expected 2 dimensions (shape [2, 3]), got 3 (shape [1, 2, 3])"));
}

TEST(Module, WrongSizeNamesTheInput) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  Result<TensorPtr> x = zeros({2, 3});
  Result<TensorPtr> y = zeros({2, 4});
  Result<Outputs> out = module->forward({*x, *y});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), Error::InvalidArgument);
  EXPECT_TRUE(
      mentions("method 'forward' input 1: expected shape [2, 3], got [2, 4] (dimension 1)"));
}

TEST(Module, TooManyInputsNamesTheFirstExtraIndex) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  Result<TensorPtr> x = zeros({2, 3});
  Result<Outputs> out = module->forward({*x, *x, *x});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error(), Error::InvalidArgument);
  EXPECT_TRUE(mentions("method 'forward': input 2 is one too many: the method takes 2 inputs, "
                       "got 3"));
  // set_inputs wants them all.
  EXPECT_EQ(module->set_inputs("forward", std::vector<TensorPtr>{*x}), Error::InvalidArgument);
  EXPECT_TRUE(mentions("input 1 is missing"));
  // set_input: index out of range, a scalar for a tensor, a null TensorPtr.
  EXPECT_EQ(module->set_input("forward", *x, 5), Error::InvalidArgument);
  EXPECT_TRUE(mentions("input index 5 out of range (the method takes 2 inputs)"));
  EXPECT_EQ(module->set_input("forward", EValue(int64_t(3)), 0), Error::InvalidArgument);
  EXPECT_TRUE(mentions("method 'forward' input 0: expected a Tensor, got an Int"));
  EXPECT_EQ(module->set_input("forward", TensorPtr(), 0), Error::InvalidArgument);
  EXPECT_TRUE(mentions("the TensorPtr is null"));
}

TEST(Module, UnknownMethodIsNotFound) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->execute("backward").error(), Error::NotFound);
  EXPECT_EQ(module->method_meta("backward").error(), Error::NotFound);
  EXPECT_EQ(module->load_method("backward"), Error::NotFound);
  EXPECT_FALSE(module->is_method_loaded("backward"));
}

// --- outputs and state -----------------------------------------------------

TEST(Module, OutputsSurviveTheNextExecuteAndTheModule) {
  std::unique_ptr<Module> module = load_module(fixture_path("add"));
  ASSERT_NE(module, nullptr);
  const std::vector<std::string> runs = run_dirs("add", "forward");
  ASSERT_GE(runs.size(), 1u);
  Result<Outputs> first = module->forward(run_inputs(runs[0], 2));
  ASSERT_TRUE(first.ok()) << message();
  Result<TensorPtr> a = full({2, 3}, 100.0);
  Result<TensorPtr> b = full({2, 3}, 23.0);
  Result<Outputs> second = module->forward({*a, *b});
  ASSERT_TRUE(second.ok()) << message();
  for (int i = 0; i < 6; ++i) EXPECT_EQ((*second)[0].to_tensor().const_data_ptr<float>()[i], 123.f);
  // The first call's outputs are copies: unchanged by the second execute.
  expect_outputs(*first, runs[0]);
  Result<Method*> method = module->method("forward");
  ASSERT_TRUE(method.ok());
  EXPECT_NE((*first)[0].to_tensor().const_data_ptr(),
            (*method)->get_output(0).to_tensor().const_data_ptr());
  const Outputs kept = *first;  // copies share the tensors
  module.reset();
  expect_outputs(kept, runs[0]);
}

TEST(Module, SetInputThenExecuteWithoutInputs) {
  std::unique_ptr<Module> module = load_module(fixture_path("two_methods"));
  ASSERT_NE(module, nullptr);
  const std::string dir = run_dirs("two_methods", "double_it")[0];
  ASSERT_EQ(module->set_input("double_it", npy_tensor(dir + "/input0.npy"), 0), Error::Ok)
      << message();
  Result<Outputs> out = module->execute("double_it");
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);
  // An input never set is the Method's InvalidState.
  Result<Outputs> unset = module->forward();
  ASSERT_FALSE(unset.ok());
  EXPECT_EQ(unset.error(), Error::InvalidState);
}

// An input the program leaves to the application is read in place: given
// as a TensorPtr, Module keeps it alive for a later execute().
TEST(Module, KeepsTensorPtrInputsThatAreReadInPlace) {
  const std::string fixture = "io/unplanned_portable";
  std::unique_ptr<Module> module = load_module(fixture_path(fixture));
  ASSERT_NE(module, nullptr);
  Result<MethodMeta> meta = module->method_meta("forward");
  ASSERT_TRUE(meta.ok());
  ASSERT_FALSE(meta->input_tensor_meta(0)->is_memory_planned());
  const std::string dir = run_dirs(fixture, "forward")[0];
  int released = 0;
  {
    std::vector<TensorPtr> inputs = run_inputs(dir, 2);
    for (size_t i = 0; i < inputs.size(); ++i) {
      TensorPtr copy = clone_tensor_ptr(inputs[i]).get();
      void* data = copy->mutable_data_ptr();
      Result<TensorPtr> watched = from_blob(data, {copy->sizes().begin(), copy->sizes().end()},
                                            ScalarType::Float,
                                            [copy, &released](void*) { ++released; });
      ASSERT_TRUE(watched.ok());
      ASSERT_EQ(module->set_input("forward", *watched, i), Error::Ok) << message();
    }
  }
  EXPECT_EQ(released, 0);  // the Module holds them
  Result<Outputs> out = module->forward();
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);
  EXPECT_TRUE(module->unload_method("forward"));
  EXPECT_EQ(released, 2);
}

// --- metadata and loading --------------------------------------------------

TEST(Module, MethodMetaAndLoading) {
  std::unique_ptr<Module> module = load_module(fixture_path("two_methods"));
  ASSERT_NE(module, nullptr);
  std::vector<std::string> names = module->method_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"double_it", "forward"}));

  Result<MethodMeta> meta = module->method_meta("forward");
  ASSERT_TRUE(meta.ok()) << message();
  EXPECT_STREQ(meta->name(), "forward");
  EXPECT_EQ(meta->num_inputs(), 1u);
  EXPECT_EQ(meta->num_outputs(), 1u);
  EXPECT_EQ(*meta->input_tag(0), Tag::Tensor);
  Result<TensorInfo> in = meta->input_tensor_meta(0);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->scalar_type(), ScalarType::Float);
  ASSERT_EQ(in->sizes().size(), 1u);
  EXPECT_EQ(in->sizes()[0], 3);
  EXPECT_EQ(in->nbytes(), 3 * sizeof(float));
  EXPECT_EQ(in->shape_dynamism(), ShapeDynamism::Static);
  Result<TensorInfo> out = meta->output_tensor_meta(0);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->scalar_type(), ScalarType::Float);
  EXPECT_EQ(meta->num_backends(), 0u);

  EXPECT_FALSE(module->is_method_loaded("forward"));  // metadata loads nothing
  ASSERT_EQ(module->load_method("forward"), Error::Ok) << message();
  EXPECT_TRUE(module->is_method_loaded("forward"));
  EXPECT_FALSE(module->is_method_loaded("double_it"));
  EXPECT_TRUE(module->unload_method("forward"));
  EXPECT_FALSE(module->is_method_loaded("forward"));
  EXPECT_FALSE(module->unload_method("forward"));
  // execute() loads on first use.
  Result<Outputs> run = module->execute("forward", npy_tensor(
      run_dirs("two_methods", "forward")[0] + "/input0.npy"));
  ASSERT_TRUE(run.ok()) << message();
  EXPECT_TRUE(module->is_method_loaded("forward"));
  expect_outputs(*run, run_dirs("two_methods", "forward")[0]);
}

// --- bundled programs ------------------------------------------------------

TEST(Module, VerifyPassesOnEveryTestCaseOfACommittedBundle) {
  for (Module::LoadMode mode : {Module::LoadMode::Mmap, Module::LoadMode::File,
                                Module::LoadMode::Buffer,
                                Module::LoadMode::MmapUseMlockIgnoreErrors}) {
    std::unique_ptr<Module> module = load_module(models_dir() + "/bundled/mlp.bpte", mode);
    ASSERT_NE(module, nullptr);
    ASSERT_NE(module->bundle(), nullptr);
    Result<size_t> cases = module->bundle()->num_test_cases("forward");
    ASSERT_TRUE(cases.ok());
    ASSERT_EQ(*cases, 3u);
    for (size_t k = 0; k < *cases; ++k) {
      Result<VerifyReport> report = module->verify(k);
      ASSERT_TRUE(report.ok()) << message();
      EXPECT_TRUE(report->passed) << report->message;
      EXPECT_EQ(report->testset_index, k);
      EXPECT_EQ(report->method_name, "forward");
      ASSERT_EQ(report->outputs.size(), 1u);
      EXPECT_TRUE(report->outputs[0].passed);
      EXPECT_EQ(report->outputs[0].mismatch, OutputMismatch::None);
      EXPECT_EQ(report->outputs[0].numel, 8);
    }
  }
}

TEST(Module, VerifyOnTwoSuitesAndItsErrors) {
  std::unique_ptr<Module> module = load_module(models_dir() + "/bundled/two_methods.bpte");
  ASSERT_NE(module, nullptr);
  Result<VerifyReport> d = module->verify(2, kDefaultBundledRtol, kDefaultBundledAtol,
                                          "double_it");
  ASSERT_TRUE(d.ok()) << message();
  EXPECT_TRUE(d->passed) << d->message;
  EXPECT_EQ(module->verify(3).error(), Error::InvalidArgument);  // 3 cases: 0..2
  EXPECT_EQ(module->verify(0, 1e-5, 1e-8, "missing").error(), Error::NotFound);
  // The bundle's embedded program also runs on the application's inputs.
  const std::string dir = run_dirs("two_methods", "forward")[0];
  Result<Outputs> out = module->forward(npy_tensor(dir + "/input0.npy"));
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);

  std::unique_ptr<Module> plain = load_module(fixture_path("two_methods"));
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->bundle(), nullptr);
  EXPECT_EQ(plain->verify(0).error(), Error::InvalidState);
  EXPECT_TRUE(mentions("not loaded from a bundled program"));
  EXPECT_EQ(plain->load_bundled_input("forward", 0), Error::InvalidState);
  EXPECT_EQ(plain->verify_outputs("forward", 0).error(), Error::InvalidState);
}

// The steps verify() is made of, as the runner and the conformance suite
// use them: set a test case's inputs (again before every execution),
// execute, compare; a comparison that fails is a report, not an Error;
// every loader opens the bundle alike.
TEST(Module, BundledInputsAndOutputsStepByStep) {
  for (const char* name : {"file", "mmap", "mmap_mlock_ignore_errors", "buffer"}) {
    SCOPED_TRACE(name);
    Module::LoadMode mode = Module::LoadMode::Mmap;
    ASSERT_TRUE(Module::parse_load_mode(name, &mode));
    EXPECT_STREQ(Module::load_mode_name(mode), name);
    std::unique_ptr<Module> module =
        load_module(models_dir() + "/bundled/two_methods.bpte", mode);
    ASSERT_NE(module, nullptr);
    ASSERT_NE(module->bundle(), nullptr);
    for (int run = 0; run < 2; ++run) {
      ASSERT_EQ(module->load_bundled_input("double_it", 1), Error::Ok) << message();
      Result<Method*> method = module->method("double_it");
      ASSERT_TRUE(method.ok()) << message();
      ASSERT_EQ((*method)->execute(), Error::Ok) << message();
    }
    Result<VerifyReport> r = module->verify_outputs("double_it", 1);
    ASSERT_TRUE(r.ok()) << message();
    EXPECT_TRUE(r->passed) << r->message;
    ASSERT_EQ(r->outputs.size(), 1u);
    EXPECT_TRUE(r->outputs[0].passed);
    // Case 1's outputs against case 2's expectations: a failing report.
    Result<VerifyReport> other = module->verify_outputs("double_it", 2, 0.0, 0.0);
    ASSERT_TRUE(other.ok()) << message();
    EXPECT_FALSE(other->passed);
    EXPECT_NE(other->message.find("test case 2"), std::string::npos) << other->message;
    EXPECT_GT(other->outputs[0].max_abs_error, 0.0);
    EXPECT_EQ(module->verify_outputs("double_it", 3).error(), Error::InvalidArgument);
    EXPECT_EQ(module->verify_outputs("missing", 0).error(), Error::NotFound);
    EXPECT_EQ(module->load_bundled_input("double_it", 3), Error::InvalidArgument);
  }
}

// --- load modes --------------------------------------------------------------

constexpr Module::LoadMode kEveryLoadMode[] = {
    Module::LoadMode::File, Module::LoadMode::Mmap, Module::LoadMode::MmapUseMlock,
    Module::LoadMode::MmapUseMlockIgnoreErrors, Module::LoadMode::Buffer};

TEST(Module, EveryLoadModeNameRoundTrips) {
  const char* names[] = {"file", "mmap", "mmap_mlock", "mmap_mlock_ignore_errors", "buffer"};
  for (size_t i = 0; i < std::size(kEveryLoadMode); ++i) {
    SCOPED_TRACE(names[i]);
    EXPECT_STREQ(Module::load_mode_name(kEveryLoadMode[i]), names[i]);
    Module::LoadMode parsed = kEveryLoadMode[(i + 1) % std::size(kEveryLoadMode)];
    ASSERT_TRUE(Module::parse_load_mode(names[i], &parsed));
    EXPECT_EQ(parsed, kEveryLoadMode[i]);
  }
  EXPECT_STREQ(Module::load_mode_names(),
               "file, mmap, mmap_mlock, mmap_mlock_ignore_errors or buffer");
}

TEST(Module, UnknownLoadModeNamesAreRefused) {
  for (const char* name : {"tape", "", "MMAP", "mlock", "mmap_mlock_ignore", "mmap-mlock",
                           "mmap_use_mlock", " mmap", "buffer "}) {
    SCOPED_TRACE(name);
    Module::LoadMode mode = Module::LoadMode::File;
    EXPECT_FALSE(Module::parse_load_mode(name, &mode));
    EXPECT_EQ(mode, Module::LoadMode::File);  // untouched
  }
}

void expect_add_runs(Module::LoadMode mode) {
  SCOPED_TRACE(Module::load_mode_name(mode));
  const std::string dir = run_dirs("add", "forward")[0];
  std::unique_ptr<Module> module = load_module(fixture_path("add"), mode);
  ASSERT_NE(module, nullptr);
  Result<Outputs> out = module->forward(run_inputs(dir, 2));
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);
}

// Each mode opens a fixture and runs it to PyTorch's outputs (mmap_mlock
// in the next test: it needs a process that may lock the file).
TEST(Module, EveryLoadModeLoadsAndRunsAFixture) {
  for (Module::LoadMode mode : kEveryLoadMode) {
    if (mode != Module::LoadMode::MmapUseMlock) expect_add_runs(mode);
  }
}

TEST(Module, MmapMlockLoadsAndRunsAFixture) {
  const size_t size = read_file_bytes(fixture_path("add")).size();
  ASSERT_GT(size, 0u);
  if (const int err = mlock_probe(size); err != 0) {
    GTEST_SKIP() << "this process may not lock " << size << " bytes: " << std::strerror(err);
  }
  expect_add_runs(Module::LoadMode::MmapUseMlock);
}

// External data files are opened with the same mode as the program: a
// .ptd that mmap_mlock cannot lock fails the load, naming that file.
TEST(Module, ExternalDataFilesOpenWithTheMlockModes) {
  const std::string dir = models_dir() + "/external";
  const std::string pte = dir + "/portable.pte";
  const std::string ptd = dir + "/portable.ptd";
  Result<std::unique_ptr<Module>> module =
      Module::load(pte, {ptd}, Module::LoadMode::MmapUseMlockIgnoreErrors);
  ASSERT_TRUE(module.ok()) << message();
  Result<Outputs> out = (*module)->forward(run_inputs(dir + "/forward/run0", 1));
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir + "/forward/run0", 1e-4, 1e-5);

  Result<MmapDataLoader> program = MmapDataLoader::from(pte.c_str());  // never locks
  ASSERT_TRUE(program.ok()) << message();
  MemlockRefusedScope refused;
  if (!refused.refused()) {
    GTEST_SKIP() << "cannot make mlock() fail here: " << refused.reason();
  }
  Result<std::unique_ptr<Module>> locked =
      Module::load(std::make_unique<MmapDataLoader>(std::move(*program)), {ptd},
                   Module::LoadMode::MmapUseMlock);
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.error(), Error::AccessFailed);
  EXPECT_TRUE(mentions(ptd));
  EXPECT_TRUE(mentions("cannot mlock"));
}

// Under RLIMIT_MEMLOCK 0 (and without CAP_IPC_LOCK where it can be
// dropped) mmap_mlock refuses the program, naming the file and range, and
// mmap_mlock_ignore_errors loads and runs it unlocked. The limit and the
// capability are restored when the scope ends.
TEST(Module, MlockModesUnderARefusingMemlockLimit) {
  const std::string path = fixture_path("add");
  const std::string dir = run_dirs("add", "forward")[0];
  MemlockRefusedScope refused;
  std::unique_ptr<Module> module = load_module(path, Module::LoadMode::MmapUseMlockIgnoreErrors);
  ASSERT_NE(module, nullptr);
  Result<Outputs> out = module->forward(run_inputs(dir, 2));
  ASSERT_TRUE(out.ok()) << message();
  expect_outputs(*out, dir);
  if (!refused.refused()) {
    GTEST_SKIP() << "cannot make mlock() fail here: " << refused.reason();
  }
  Result<std::unique_ptr<Module>> locked = Module::load(path, Module::LoadMode::MmapUseMlock);
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.error(), Error::AccessFailed);
  EXPECT_TRUE(mentions(path));
  EXPECT_TRUE(mentions("cannot mlock"));
  EXPECT_TRUE(mentions(std::strerror(refused.probe_errno())));
}

// VmRSS of this process in KiB (0 where /proc is absent).
long rss_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  }
  std::fclose(f);
  return kib;
}

// RSS growth (KiB) of loading every method of `path`, measured in a forked
// child so that neither mode reuses the other's freed pages; -1 on error.
long load_growth_in_child(const std::string& path, bool prefault) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    long growth = -1;
    Result<std::unique_ptr<Module>> module = Module::load(path);
    if (module.ok()) {
      (*module)->set_prefault_planned_memory(prefault);
      const long before = rss_kib();
      bool ok = true;
      for (const std::string& name : (*module)->method_names()) {
        ok = ok && (*module)->load_method(name) == Error::Ok;
      }
      if (ok) growth = rss_kib() - before;
    }
    (void)!write(fds[1], &growth, sizeof(growth));
    _exit(0);
  }
  close(fds[1]);
  long growth = -1;
  if (pid < 0 || read(fds[0], &growth, sizeof(growth)) != sizeof(growth)) growth = -1;
  close(fds[0]);
  if (pid > 0) waitpid(pid, nullptr, 0);
  return growth;
}

// The largest planned memory of the committed fixtures: Voxtral's text
// decoder, 3 MiB over its methods. With prefault on, loading maps every
// planned page: RSS grows by at least half the planned bytes more than
// without. (The LLM runners, which turn it on, are tested end to end in
// test/llm.)
TEST(Module, PrefaultMapsPlannedMemoryAtLoad) {
  if (rss_kib() == 0) GTEST_SKIP() << "no /proc/self/status";
  const std::string path = models_dir() + "/multimodal/voxtral/model.pte";
  std::unique_ptr<Module> module = load_module(path);
  ASSERT_NE(module, nullptr);
  size_t planned = 0;
  for (const std::string& name : module->method_names()) {
    Result<MethodMeta> meta = module->method_meta(name);
    ASSERT_TRUE(meta.ok()) << message();
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      planned += size_t(meta->memory_planned_buffer_size(i).get());
    }
  }
  ASSERT_GT(planned, size_t(2) << 20);
  const long off = load_growth_in_child(path, false), on = load_growth_in_child(path, true);
  ASSERT_GE(off, 0);
  ASSERT_GE(on, 0);
  EXPECT_GE(on - off, long(planned / 2048))
      << "RSS growth " << off << " KiB without prefault, " << on << " KiB with, planned "
      << planned / 1024 << " KiB";
}

}  // namespace
}  // namespace ember::testing

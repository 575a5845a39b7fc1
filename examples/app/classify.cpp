// Sample: an application built against the installed package; read it and copy it.
// ember_classify: the smallest useful application on an installed Ember.
//
//   ember_classify MODEL [INPUT.npy]
//   ember_classify --registry
//
// Loads MODEL (a .pte, or a .bpte whose embedded program runs), runs its
// first method once and prints the index and value of the largest element
// of output 0, a classifier's scores:
//
//   top class: 7 score: 3.14159
//
// Inputs: INPUT.npy for input 0 (dtype and shape as the method declares);
// otherwise, for a .bpte, the inputs of its first test case, and for a
// .pte every tensor input filled with ones (executor_runner's default).
//
// --registry lists what the static link registered (every kernel, fusion
// pattern and delegate backend), one per line, then the counts: the test
// in test/package compares it with the build tree's.
//
// Exit status 0 on success, 1 with one "error: ..." line on stderr.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/module/module.h"
#include "extension/npy/npy.h"
#include "extension/runner_util/inputs.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/kernel/fusion_registry.h"
#include "runtime/kernel/operator_registry.h"

namespace {

using namespace ember;

int fail(const std::string& what, Error e) {
  std::fprintf(stderr, "error: %s: %s (%s)\n", what.c_str(), error_name(e),
               last_error_message());
  return 1;
}

int print_registry() {
  for (size_t i = 0; i < num_registered_kernels(); ++i) {
    const Kernel& k = registered_kernel(i);
    if (k.key[0] != '\0') {
      std::printf("kernel %s key=%s\n", k.name, k.key);
    } else {
      std::printf("kernel %s\n", k.name);
    }
  }
  for (size_t i = 0; i < num_fusion_patterns(); ++i) {
    std::printf("fusion %s\n", fusion_pattern(i).name);
  }
  for (size_t i = 0; i < num_registered_backends(); ++i) {
    std::printf("backend %s\n", registered_backend_id(i));
  }
  std::printf("kernels: %zu fusions: %zu backends: %zu\n", num_registered_kernels(),
              num_fusion_patterns(), num_registered_backends());
  return 0;
}

// Input 0 read from a .npy file; the tensor metadata lives here as long as
// the method reads the input.
struct NpyInput {
  NpyArray array;
  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
  std::unique_ptr<TensorImpl> impl;

  Error set(Method& method, const std::string& path) {
    Result<NpyArray> a = read_npy(path);
    if (!a.ok()) return a.error();
    array = std::move(*a);
    sizes = array.shape;
    for (size_t d = 0; d < sizes.size(); ++d) dim_order.push_back(DimOrderType(d));
    strides.resize(sizes.size());
    impl = std::make_unique<TensorImpl>(array.dtype, sizes.size(), sizes.data(),
                                        array.data.data(), dim_order.data(), strides.data());
    return method.set_input(EValue(Tensor(impl.get())), 0);
  }
};

// Largest element of a float tensor: its index (first one on ties) and value.
int print_top_class(const EValue& out) {
  if (!out.is_tensor() || out.to_tensor().numel() == 0) {
    std::fprintf(stderr, "error: output 0 is not a non-empty tensor\n");
    return 1;
  }
  const Tensor t = out.to_tensor();
  int64_t best = 0;
  double best_score = element_as_double(t, 0);
  for (int64_t i = 1; i < t.numel(); ++i) {
    const double v = element_as_double(t, i);
    if (v > best_score) {
      best = i;
      best_score = v;
    }
  }
  std::printf("top class: %lld score: %g\n", static_cast<long long>(best), best_score);
  return 0;
}

int run(const char* model_path, const char* npy_path) {
  // Module maps the file once; a .bpte's embedded program is loaded in
  // place and its test cases kept.
  Result<std::unique_ptr<Module>> module = Module::load(model_path);
  if (!module.ok()) return fail(std::string("loading ") + model_path, module.error());

  Result<const char*> name = (*module)->program().get_method_name(0);
  if (!name.ok()) return fail("reading the first method's name", name.error());
  const std::string shown = PrintableName(*name).c_str();  // read from the file
  Result<Method*> method = (*module)->method(*name);
  if (!method.ok()) return fail("loading method " + shown, method.error());
  Method& m = **method;

  // Ones everywhere first; then input 0 from the .npy, or the bundle's
  // first test case.
  Result<InputBuffers> ones = prepare_input_tensors(m);
  if (!ones.ok()) return fail("preparing inputs", ones.error());
  NpyInput npy;
  if (npy_path != nullptr) {
    const Error e = npy.set(m, npy_path);
    if (e != Error::Ok) return fail(std::string("setting input 0 from ") + npy_path, e);
  } else if ((*module)->bundle() != nullptr) {
    const Error e = (*module)->load_bundled_input(*name, 0);
    if (e != Error::Ok) return fail("setting the bundle's test case 0", e);
  }

  const Error e = m.execute();
  if (e != Error::Ok) return fail("running " + shown, e);
  if (m.outputs_size() == 0) {
    std::fprintf(stderr, "error: method %s has no outputs\n", shown.c_str());
    return 1;
  }
  return print_top_class(m.get_output(0));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--registry") == 0) return print_registry();
  if (argc < 2 || argc > 3 || argv[1][0] == '-') {
    std::fprintf(stderr,
                 "usage: ember_classify MODEL.pte|MODEL.bpte [INPUT.npy]\n"
                 "       ember_classify --registry\n");
    return 1;
  }
  return run(argv[1], argc == 3 ? argv[2] : nullptr);
}

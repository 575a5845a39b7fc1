// ember._ember: the pybind11 module. The names follow upstream's
// executorch.extension.pybindings where it has them (MethodMeta,
// TensorInfo, Verification, _get_operator_names, ...); python/ember wraps
// them into the executorch.runtime-shaped API.
#include <pybind11/stl.h>

#include <set>

#include "python/src/py_ember.h"
#include "runtime/backend/backend.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember_py {
namespace {

using ember::Error;

// A MethodMeta with the program it reads from kept alive.
struct PyMethodMeta {
  std::shared_ptr<PyProgram> program;
  ember::MethodMeta meta;
};

// A TensorInfo copied out of the program.
struct PyTensorInfo {
  std::vector<int64_t> sizes;
  std::vector<int64_t> dim_order;
  ember::ScalarType dtype;
  ember::ShapeDynamism dynamism;
  size_t nbytes;
  bool memory_planned;

  std::string repr() const {
    std::string s = "TensorInfo(sizes=[";
    for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    s += std::string("], dtype=") + ember::scalar_type_name(dtype) +
         ", is_memory_planned=" + (memory_planned ? "True" : "False") +
         ", nbytes=" + std::to_string(nbytes) + ")";
    return s;
  }
};

const char* dynamism_name(ember::ShapeDynamism d) {
  switch (d) {
    case ember::ShapeDynamism::Static: return "static";
    case ember::ShapeDynamism::DynamicBound: return "dynamic_bound";
    case ember::ShapeDynamism::DynamicUnbound: return "dynamic_unbound";
  }
  return "unknown";
}

PyTensorInfo tensor_info(ember::Result<ember::TensorInfo> info, const char* what, size_t index,
                         size_t count) {
  if (index >= count) {
    throw py::index_error(std::string(what) + " index " + std::to_string(index) +
                          " out of range (" + std::to_string(count) + ")");
  }
  if (!info.ok()) throw_error(std::string(what) + " " + std::to_string(index), info.error());
  PyTensorInfo out;
  for (int32_t s : info->sizes()) out.sizes.push_back(s);
  for (uint8_t d : info->dim_order()) out.dim_order.push_back(d);
  out.dtype = info->scalar_type();
  out.dynamism = info->shape_dynamism();
  out.nbytes = info->nbytes();
  out.memory_planned = info->is_memory_planned();
  return out;
}

std::string tag_at(ember::Result<ember::Tag> tag, const char* what, size_t index) {
  if (!tag.ok()) throw_error(std::string(what) + " " + std::to_string(index), tag.error());
  return ember::tag_name(*tag);
}

std::string meta_repr(const ember::MethodMeta& m) {
  std::string s = std::string("MethodMeta(name='") + ember::PrintableName(m.name()).c_str() +
                  "', num_inputs=" + std::to_string(m.num_inputs()) + ", inputs=[";
  for (size_t i = 0; i < m.num_inputs(); ++i) {
    ember::Result<ember::TensorInfo> t = m.input_tensor_meta(i);
    ember::Result<ember::Tag> tag = m.input_tag(i);
    s += i ? ", " : "";
    s += t.ok() ? tensor_info(std::move(t), "input", i, m.num_inputs()).repr()
                : (tag.ok() ? ember::tag_name(*tag) : "?");
  }
  s += "], num_outputs=" + std::to_string(m.num_outputs()) + ", outputs=[";
  for (size_t i = 0; i < m.num_outputs(); ++i) {
    ember::Result<ember::TensorInfo> t = m.output_tensor_meta(i);
    ember::Result<ember::Tag> tag = m.output_tag(i);
    s += i ? ", " : "";
    s += t.ok() ? tensor_info(std::move(t), "output", i, m.num_outputs()).repr()
                : (tag.ok() ? ember::tag_name(*tag) : "?");
  }
  return s + "])";
}

PyObject* g_ember_error = nullptr;

}  // namespace
}  // namespace ember_py

PYBIND11_MODULE(_ember, m) {
  using namespace ember_py;
  using ember::Program;
  m.doc() = "Native half of the `ember` module (Ember's ExecuTorch runtime).";

  // ember.EmberError: a RuntimeError with the Ember error's name and code.
  g_ember_error = PyErr_NewException("ember.EmberError", PyExc_RuntimeError, nullptr);
  m.add_object("EmberError", py::handle(g_ember_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const EmberException& e) {
      py::object error = py::reinterpret_borrow<py::object>(g_ember_error)(e.what());
      error.attr("error") = ember::error_name(e.code());
      error.attr("code") = uint32_t(e.code());
      PyErr_SetObject(g_ember_error, error.ptr());
    }
  });

#if EMBER_PY_LLM
  bind_llm(m);
#endif
  m.attr("HAS_LLM") = bool(EMBER_PY_LLM);

  py::enum_<Program::Verification>(m, "Verification")
      .value("Minimal", Program::Verification::Minimal)
      .value("InternalConsistency", Program::Verification::InternalConsistency);

  m.attr("DEFAULT_BUNDLED_RTOL") = ember::kDefaultBundledRtol;
  m.attr("DEFAULT_BUNDLED_ATOL") = ember::kDefaultBundledAtol;

  m.def("_load_program", &PyProgram::from_file, py::arg("path"),
        py::arg("data_files") = std::vector<std::string>(),
        py::arg("verification") = Program::Verification::InternalConsistency);
  m.def("_load_program_from_buffer", &PyProgram::from_bytes, py::arg("buffer"),
        py::arg("data_files") = std::vector<std::string>(),
        py::arg("verification") = Program::Verification::InternalConsistency);

  m.def(
      "set_num_threads",
      [](size_t threads) {
        py::gil_scoped_release nogil;
        std::unique_lock<std::shared_mutex> lock(g_pool_lock);
        ember::clear_error_message();
        check(ember::set_num_threads(threads), "set_num_threads");
      },
      py::arg("threads"),
      "Resizes the pool shared by threaded kernels and the XNNPACK delegate; 0: the "
      "number of cores, at most 8. Waits for running executions.");
  m.def("num_threads", []() { return ember::num_threads(); });

  m.def("_get_operator_names", []() {
    std::set<std::string> names;
    for (size_t i = 0; i < ember::num_registered_kernels(); ++i) {
      names.insert(ember::registered_kernel(i).name);
    }
    return std::vector<std::string>(names.begin(), names.end());
  });
  m.def("_get_registered_backend_names", []() {
    std::vector<std::string> names;
    for (size_t i = 0; i < ember::num_registered_backends(); ++i) {
      names.emplace_back(ember::registered_backend_id(i));
    }
    return names;
  });
  m.def("_is_available", [](const std::string& backend) {
    for (size_t i = 0; i < ember::num_registered_backends(); ++i) {
      if (backend == ember::registered_backend_id(i)) return true;
    }
    return false;
  }, py::arg("backend_name"));

  py::class_<PyTensorInfo>(m, "TensorInfo")
      .def("sizes", [](const PyTensorInfo& t) { return py::tuple(py::cast(t.sizes)); })
      .def("dtype", [](const PyTensorInfo& t) { return int(t.dtype); },
           "The ScalarType value (PyTorch's numbering), as upstream.")
      .def("dtype_name", [](const PyTensorInfo& t) { return ember::scalar_type_name(t.dtype); })
      .def("dim_order", [](const PyTensorInfo& t) { return py::tuple(py::cast(t.dim_order)); })
      .def("shape_dynamism", [](const PyTensorInfo& t) { return dynamism_name(t.dynamism); })
      .def("is_memory_planned", [](const PyTensorInfo& t) { return t.memory_planned; })
      .def("nbytes", [](const PyTensorInfo& t) { return t.nbytes; })
      .def("__repr__", &PyTensorInfo::repr);

  py::class_<PyMethodMeta>(m, "MethodMeta")
      .def("name", [](const PyMethodMeta& m) { return std::string(m.meta.name()); })
      .def("num_inputs", [](const PyMethodMeta& m) { return m.meta.num_inputs(); })
      .def("num_outputs", [](const PyMethodMeta& m) { return m.meta.num_outputs(); })
      .def("input_tag", [](const PyMethodMeta& m, size_t i) {
        return tag_at(m.meta.input_tag(i), "input", i);
      }, py::arg("index"))
      .def("output_tag", [](const PyMethodMeta& m, size_t i) {
        return tag_at(m.meta.output_tag(i), "output", i);
      }, py::arg("index"))
      .def("input_tensor_meta", [](const PyMethodMeta& m, size_t i) {
        return tensor_info(m.meta.input_tensor_meta(i), "input", i, m.meta.num_inputs());
      }, py::arg("index"))
      .def("output_tensor_meta", [](const PyMethodMeta& m, size_t i) {
        return tensor_info(m.meta.output_tensor_meta(i), "output", i, m.meta.num_outputs());
      }, py::arg("index"))
      .def("backend_names", [](const PyMethodMeta& m) {
        std::vector<std::string> names;
        for (size_t i = 0; i < m.meta.num_backends(); ++i) {
          ember::Result<const char*> name = m.meta.get_backend_name(i);
          if (name.ok()) names.emplace_back(*name);
        }
        return names;
      })
      .def("uses_backend", [](const PyMethodMeta& m, const std::string& id) {
        return m.meta.uses_backend(id.c_str());
      }, py::arg("backend_name"))
      .def("num_instructions", [](const PyMethodMeta& m) { return m.meta.num_instructions(); })
      .def("num_memory_planned_buffers",
           [](const PyMethodMeta& m) { return m.meta.num_memory_planned_buffers(); })
      .def("memory_planned_buffer_size", [](const PyMethodMeta& m, size_t i) {
        ember::Result<int64_t> size = m.meta.memory_planned_buffer_size(i);
        if (!size.ok()) throw py::index_error("planned buffer " + std::to_string(i) + " out of range");
        return *size;
      }, py::arg("index"))
      .def("__repr__", [](const PyMethodMeta& m) { return meta_repr(m.meta); });

  py::class_<PyMethod, std::shared_ptr<PyMethod>>(m, "_Method")
      .def_property_readonly("name", &PyMethod::name)
      .def("method_meta", [](const PyMethod& self) {
        return PyMethodMeta{self.program(), self.meta()};
      })
      .def("execute", &PyMethod::execute, py::arg("inputs"))
      .def("load_bundled_input", &PyMethod::load_bundled_input, py::arg("testset_idx"))
      .def("bundled_inputs", &PyMethod::bundled_inputs, py::arg("testset_idx"))
      .def("verify", &PyMethod::verify, py::arg("testset_idx"),
           py::arg("rtol") = ember::kDefaultBundledRtol,
           py::arg("atol") = ember::kDefaultBundledAtol)
      .def("verify_result_with_bundled_expected_output", &PyMethod::run_and_verify,
           py::arg("testset_idx"), py::arg("rtol") = ember::kDefaultBundledRtol,
           py::arg("atol") = ember::kDefaultBundledAtol);

  py::class_<PyProgram, std::shared_ptr<PyProgram>>(m, "_Program")
      .def("num_methods", &PyProgram::num_methods)
      .def("get_method_name", &PyProgram::get_method_name, py::arg("index"))
      .def("method_names", &PyProgram::method_names)
      .def("method_meta", [](const std::shared_ptr<PyProgram>& self, const std::string& name) {
        return PyMethodMeta{self, self->method_meta(name)};
      }, py::arg("method_name"))
      .def("load_method", &PyProgram::load_method, py::arg("method_name"))
      .def("is_bundled", &PyProgram::is_bundled)
      .def("bundled_method_names", &PyProgram::bundled_method_names)
      .def("num_test_cases", &PyProgram::num_test_cases, py::arg("method_name"));
}

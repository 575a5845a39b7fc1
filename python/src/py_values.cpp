// Python values <-> EValues: numpy arrays in (bound without a copy where
// the memory allows), copies out.
#include <cinttypes>
#include <cstring>
#include <limits>

#include "python/src/py_ember.h"

namespace ember_py {

using ember::EValue;
using ember::ScalarType;
using ember::Tag;

namespace {

// Which numpy dtype each ScalarType is. `numpy` is the dtype's name, as
// numpy (or, for the types numpy lacks, ml_dtypes) spells it; `builtin`
// says numpy itself has it. Outputs of a type without a builtin come back
// as their bits (an unsigned integer array) tagged with the type's name.
struct DtypeRow {
  ScalarType type;
  const char* numpy;
  bool builtin;
};

constexpr DtypeRow kDtypes[] = {
    {ScalarType::Byte, "uint8", true},
    {ScalarType::Char, "int8", true},
    {ScalarType::Short, "int16", true},
    {ScalarType::Int, "int32", true},
    {ScalarType::Long, "int64", true},
    {ScalarType::Half, "float16", true},
    {ScalarType::Float, "float32", true},
    {ScalarType::Double, "float64", true},
    {ScalarType::ComplexFloat, "complex64", true},
    {ScalarType::ComplexDouble, "complex128", true},
    {ScalarType::Bool, "bool", true},
    {ScalarType::UInt16, "uint16", true},
    {ScalarType::UInt32, "uint32", true},
    {ScalarType::UInt64, "uint64", true},
    {ScalarType::BFloat16, "bfloat16", false},
    {ScalarType::Float8_e5m2, "float8_e5m2", false},
    {ScalarType::Float8_e4m3fn, "float8_e4m3fn", false},
    {ScalarType::Float8_e5m2fnuz, "float8_e5m2fnuz", false},
    {ScalarType::Float8_e4m3fnuz, "float8_e4m3fnuz", false},
};

const DtypeRow* row_of(ScalarType type) {
  for (const DtypeRow& row : kDtypes) {
    if (row.type == type) return &row;
  }
  return nullptr;
}

py::module_ numpy() { return py::module_::import("numpy"); }

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

[[noreturn]] void type_error(const std::string& message) { throw py::type_error(message); }

// numpy scalars and 0-d arrays as Python scalars (for scalar inputs).
py::object as_python_scalar(py::handle value) {
  py::module_ np = numpy();
  if (py::isinstance(value, np.attr("generic")) ||
      (py::isinstance<py::array>(value) && py::array::ensure(value).ndim() == 0)) {
    return value.attr("item")();
  }
  return py::reinterpret_borrow<py::object>(value);
}

EValue scalar_input(py::handle raw, size_t index, Tag tag) {
  const py::object value = as_python_scalar(raw);
  const std::string where = "input " + std::to_string(index);
  switch (tag) {
    case Tag::None:
      if (!value.is_none()) type_error(where + ": the method takes None, got " + type_name(value));
      return EValue();
    case Tag::Bool:
      if (!py::isinstance<py::bool_>(value)) {
        type_error(where + ": the method takes a bool, got " + type_name(value));
      }
      return EValue(value.cast<bool>());
    case Tag::Int:
      if (!py::isinstance<py::int_>(value)) {
        type_error(where + ": the method takes an int, got " + type_name(value));
      }
      return EValue(value.cast<int64_t>());
    case Tag::Double:
      if (!py::isinstance<py::float_>(value) && !py::isinstance<py::int_>(value)) {
        type_error(where + ": the method takes a float, got " + type_name(value));
      }
      return EValue(value.cast<double>());
    default:
      throw EmberException(ember::Error::NotSupported,
                           where + ": inputs of kind " + ember::tag_name(tag) +
                               " cannot be set from Python");
  }
}

}  // namespace

ScalarType scalar_type_of(const py::dtype& dtype) {
  const std::string name = py::str(dtype.attr("name")).cast<std::string>();
  for (const DtypeRow& row : kDtypes) {
    if (name == row.numpy) return row.type;
  }
  type_error("numpy dtype '" + name + "' has no Ember equivalent");
}

EValue InputTensors::convert(py::handle value, size_t index, Tag tag,
                             const ember::TensorInfo* info) {
  if (tag != Tag::Tensor) return scalar_input(value, index, tag);
  const std::string where = "input " + std::to_string(index);
  py::module_ np = numpy();

  // (array, scalar_type): bits of a dtype numpy lacks (bfloat16 from torch).
  py::object source = py::reinterpret_borrow<py::object>(value);
  bool explicit_type = false;
  ScalarType type = ScalarType::Float;
  if (py::isinstance<py::tuple>(value) && py::len(value) == 2 &&
      py::isinstance<py::array>(py::reinterpret_borrow<py::tuple>(value)[0]) &&
      py::isinstance<py::int_>(py::reinterpret_borrow<py::tuple>(value)[1])) {
    const py::tuple pair = py::reinterpret_borrow<py::tuple>(value);
    const int raw = pair[1].cast<int>();
    if (!ember::is_valid_scalar_type(raw)) {
      type_error(where + ": " + std::to_string(raw) + " is not a ScalarType");
    }
    source = pair[0];
    type = ScalarType(raw);
    explicit_type = true;
  } else if (value.is_none() || py::isinstance<py::str>(value) ||
             py::isinstance<py::bytes>(value)) {
    type_error(where + ": the method takes a tensor, got " + type_name(value));
  }

  // Python lists and numbers take the method's dtype; arrays (and other
  // array-likes) keep theirs, which must then be the method's.
  const DtypeRow* wanted = info != nullptr ? row_of(info->scalar_type()) : nullptr;
  const bool plain = py::isinstance<py::list>(source) || py::isinstance<py::tuple>(source) ||
                     py::isinstance<py::float_>(source) || py::isinstance<py::int_>(source);
  py::array array = (plain && !explicit_type && wanted != nullptr && wanted->builtin)
                        ? np.attr("asarray")(source, py::dtype(wanted->numpy))
                        : np.attr("asarray")(source);
  if (!py::bool_(array.dtype().attr("isnative"))) {
    array = array.attr("astype")(array.dtype().attr("newbyteorder")("="));
  }
  if (!explicit_type) type = scalar_type_of(array.dtype());
  if (size_t(array.itemsize()) != ember::element_size(type)) {
    type_error(where + ": " + std::to_string(array.itemsize()) + "-byte elements cannot hold " +
               ember::scalar_type_name(type));
  }

  auto owned = std::make_unique<Owned>();
  const size_t rank = size_t(array.ndim());
  if (rank > ember::kMaxTensorDim) {
    throw py::value_error(where + ": " + std::to_string(rank) + " dims, more than Ember's " +
                          std::to_string(ember::kMaxTensorDim));
  }
  owned->sizes.resize(rank + 1);
  owned->dim_order.resize(rank + 1);
  owned->strides.resize(rank + 1);
  for (size_t d = 0; d < rank; ++d) {
    if (array.shape(d) > std::numeric_limits<ember::SizesType>::max()) {
      throw py::value_error(where + ": dimension " + std::to_string(d) + " is too large");
    }
    owned->sizes[d] = ember::SizesType(array.shape(d));
    owned->dim_order[d] = ember::DimOrderType(d);
  }
  // The method's dim order when the ranks agree (else set_input says
  // what differs): the data must then lie in that memory order.
  bool identity = true;
  if (info != nullptr && info->dim_order().size() == rank) {
    for (size_t d = 0; d < rank; ++d) {
      owned->dim_order[d] = info->dim_order()[d];
      identity = identity && owned->dim_order[d] == d;
    }
  }
  py::array memory = array;
  if (!identity) {
    py::tuple perm(rank);
    for (size_t d = 0; d < rank; ++d) perm[d] = py::int_(owned->dim_order[d]);
    memory = array.attr("transpose")(perm);
  }
  // Bound in place (no copy) when the method can use the memory as it is:
  // dense in the method's order, aligned, and writable when the program
  // leaves the input to the application (it binds the data and may write).
  const bool planned = info == nullptr || info->is_memory_planned();
  const bool dense = (memory.flags() & py::array::c_style) != 0;
  const bool aligned = reinterpret_cast<uintptr_t>(memory.data()) % memory.itemsize() == 0;
  if (!dense || !aligned || (!planned && !memory.writeable())) {
    memory = np.attr("array")(memory, py::arg("copy") = true, py::arg("order") = "C");
  }
  owned->impl = std::make_unique<ember::TensorImpl>(
      type, rank, owned->sizes.data(), const_cast<void*>(memory.data()),
      owned->dim_order.data(), owned->strides.data());
  owned->keep = memory;
  const ember::Tensor tensor(owned->impl.get());
  owned_.push_back(std::move(owned));
  return EValue(tensor);
}

namespace {

py::object tensor_to_python(const ember::Tensor& t) {
  const ScalarType type = t.scalar_type();
  const DtypeRow* row = row_of(type);
  const size_t item = t.element_size();
  py::module_ np = numpy();
  py::dtype dtype = (row != nullptr && row->builtin)
                        ? py::dtype(row->numpy)
                        : py::dtype("uint" + std::to_string(item * 8));
  std::vector<py::ssize_t> shape(t.dim()), strides(t.dim());
  for (size_t d = 0; d < t.dim(); ++d) {
    shape[d] = t.sizes()[d];
    strides[d] = py::ssize_t(t.strides()[d]) * py::ssize_t(item);
  }
  py::array out;
  if (t.numel() == 0 || t.const_data_ptr() == nullptr) {
    out = np.attr("zeros")(py::tuple(py::cast(shape)), dtype);
  } else {
    // No base object: pybind11 copies the data, so the array outlives the
    // method's memory; then C order whatever the dim order was.
    out = py::array(dtype, shape, strides, t.const_data_ptr());
    out = np.attr("ascontiguousarray")(out);
  }
  if (row != nullptr && row->builtin) return std::move(out);
  return py::make_tuple(py::str(ember::scalar_type_name(type)), out);
}

}  // namespace

py::object to_python(const EValue& value) {
  switch (value.tag()) {
    case Tag::None:
      return py::none();
    case Tag::Int:
      return py::int_(value.to_int());
    case Tag::Double:
      return py::float_(value.to_double());
    case Tag::Bool:
      return py::bool_(value.to_bool());
    case Tag::String: {
      const ember::StringView s = value.to_string();
      PyObject* text = PyUnicode_DecodeUTF8(s.data, py::ssize_t(s.size), "replace");
      if (text == nullptr) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(text);
    }
    case Tag::Tensor:
      return tensor_to_python(value.to_tensor());
    case Tag::ListInt: {
      py::list out;
      for (int64_t x : value.to_int_list()) out.append(py::int_(x));
      return std::move(out);
    }
    case Tag::ListDouble: {
      py::list out;
      for (double x : value.to_double_list()) out.append(py::float_(x));
      return std::move(out);
    }
    case Tag::ListBool: {
      py::list out;
      for (bool x : value.to_bool_list()) out.append(py::bool_(x));
      return std::move(out);
    }
    case Tag::ListTensor: {
      py::list out;
      for (const ember::Tensor& t : value.to_tensor_list()) out.append(tensor_to_python(t));
      return std::move(out);
    }
    case Tag::ListOptionalTensor: {
      py::list out;
      for (const ember::Optional<ember::Tensor>& t : value.to_optional_tensor_list()) {
        out.append(t.has_value() ? tensor_to_python(t.value()) : py::none());
      }
      return std::move(out);
    }
  }
  return py::none();
}

}  // namespace ember_py

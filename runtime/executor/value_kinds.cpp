// One row per kind of value (value_kinds.h): its checks, its method
// allocator bytes and how it is built, side by side.
#include "runtime/executor/value_kinds.h"

#include <cinttypes>
#include <new>

#include "runtime/core/error_message.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/tensor_data_kind.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

using ember_fb::KernelTypes;

template <typename T>
uint32_t count(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

bool index_ok(int64_t index, size_t n) { return index >= 0 && uint64_t(index) < n; }

// The kind of value `index` of the plan (NONE when absent).
KernelTypes kind_at(const ember_fb::ExecutionPlan* plan, int64_t index) {
  const ember_fb::EValue* v = plan->values()->Get(flatbuffers::uoffset_t(index));
  return v == nullptr ? KernelTypes::NONE : v->val_type();
}

Error no_checks(const ValueCheck&, const ember_fb::EValue&) { return Error::Ok; }
size_t no_bytes(const ember_fb::EValue&) { return 0; }

// IntList, TensorList and OptionalTensorList are boxed lists: pointers to
// the values they name (null for an OptionalTensorList's -1) and room for
// the unboxed elements, which kernels read.
template <typename T>
size_t boxed_list_bytes(size_t n) {
  return add_bytes(method_allocation_bytes<EValue*>(n), method_allocation_bytes<T>(n));
}

template <typename T, typename Items>
Error build_boxed_list(const ValueBuild& b, const Items* items, const char* what) {
  const uint32_t n = count(items);
  EValue** boxed = allocate_method_array<EValue*>(b.allocator, n, b.method, what);
  T* unboxed = allocate_method_array<T>(b.allocator, n, b.method, what);
  if (boxed == nullptr || unboxed == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (uint32_t j = 0; j < n; ++j) {
    const int64_t item = items->Get(j);
    boxed[j] = item < 0 ? nullptr : &b.values[size_t(item)];
    new (&unboxed[j]) T();
  }
  b.values[b.index] = EValue(BoxedList<T>(boxed, unboxed, n));
  return Error::Ok;
}

// ---- scalars and strings: held in the EValue itself --------------------

Error build_null(const ValueBuild& b, const ember_fb::EValue&) {
  b.values[b.index] = EValue();
  return Error::Ok;
}

Error build_int(const ValueBuild& b, const ember_fb::EValue& v) {
  b.values[b.index] = EValue(int64_t(v.val_as_Int()->int_val()));
  return Error::Ok;
}

Error build_bool(const ValueBuild& b, const ember_fb::EValue& v) {
  b.values[b.index] = EValue(bool(v.val_as_Bool()->bool_val()));
  return Error::Ok;
}

Error build_double(const ValueBuild& b, const ember_fb::EValue& v) {
  b.values[b.index] = EValue(double(v.val_as_Double()->double_val()));
  return Error::Ok;
}

Error build_string(const ValueBuild& b, const ember_fb::EValue& v) {
  const flatbuffers::String* s = v.val_as_String()->string_val();
  b.values[b.index] = EValue(StringView{s ? s->c_str() : "", s ? s->size() : 0});
  return Error::Ok;
}

// ---- Tensor: sizes, dim order, strides and the TensorImpl ---------------

Error check_tensor(const ValueCheck& c, const ember_fb::EValue& v) {
  return validate_tensor_value(c, v.val_as_Tensor());
}

size_t tensor_bytes(const ember_fb::EValue& v) {
  const size_t dim = count(v.val_as_Tensor()->sizes());
  return add_bytes(add_bytes(method_allocation_bytes<SizesType>(dim),
                             method_allocation_bytes<DimOrderType>(dim)),
                   add_bytes(method_allocation_bytes<StridesType>(dim),
                             method_allocation_bytes<TensorImpl>(1)));
}

Error build_tensor(const ValueBuild& b, const ember_fb::EValue& v) {
  return b.tensor(b.owner, b.index, v.val_as_Tensor());
}

// ---- IntList: a boxed list of Int values ------------------------------

// Each item of a list names another value, which `accepts` checks.
template <typename Items, typename Accepts>
Error check_list_items(const ValueCheck& c, const Items* items, const char* list,
                       const char* wanted, Accepts accepts) {
  for (flatbuffers::uoffset_t j = 0; j < count(items); ++j) {
    const int64_t item = items->Get(j);
    EMBER_CHECK_OR_RETURN(accepts(item), Error::InvalidProgram,
                          "method '%s' value %zu (%s) item %u: %" PRId64
                          " is not the index of %s",
                          c.method, c.index, list, unsigned(j), item, wanted);
  }
  return Error::Ok;
}

// A value of kind `kind`, or (for OptionalTensorList) also a None value.
bool names_kind(const ValueCheck& c, int64_t item, KernelTypes kind, bool or_null = false) {
  if (!index_ok(item, count(c.plan->values()))) return false;
  const KernelTypes found = kind_at(c.plan, item);
  return found == kind || (or_null && found == KernelTypes::Null);
}

Error check_int_list(const ValueCheck& c, const ember_fb::EValue& v) {
  return check_list_items(c, v.val_as_IntList()->items(), "IntList", "an Int value",
                          [&](int64_t item) { return names_kind(c, item, KernelTypes::Int); });
}

size_t int_list_bytes(const ember_fb::EValue& v) {
  return boxed_list_bytes<int64_t>(count(v.val_as_IntList()->items()));
}

Error build_int_list(const ValueBuild& b, const ember_fb::EValue& v) {
  return build_boxed_list<int64_t>(b, v.val_as_IntList()->items(), "IntList");
}

// ---- DoubleList and BoolList: copied out of the file --------------------

size_t double_list_bytes(const ember_fb::EValue& v) {
  return method_allocation_bytes<double>(count(v.val_as_DoubleList()->items()));
}

// Copied element by element: a bool is stored as a byte in the file, and
// the file's doubles need not stay mapped.
template <typename T, typename Items>
Error build_copied_list(const ValueBuild& b, const Items* items, const char* what) {
  const uint32_t n = count(items);
  T* data = allocate_method_array<T>(b.allocator, n, b.method, what);
  if (data == nullptr) {
    return Error::MemoryAllocationFailed;
  }
  for (uint32_t j = 0; j < n; ++j) {
    data[j] = T(items->Get(j));
  }
  b.values[b.index] = EValue(Span<T>(data, n));
  return Error::Ok;
}

Error build_double_list(const ValueBuild& b, const ember_fb::EValue& v) {
  return build_copied_list<double>(b, v.val_as_DoubleList()->items(), "DoubleList");
}

size_t bool_list_bytes(const ember_fb::EValue& v) {
  return method_allocation_bytes<bool>(count(v.val_as_BoolList()->items()));
}

Error build_bool_list(const ValueBuild& b, const ember_fb::EValue& v) {
  return build_copied_list<bool>(b, v.val_as_BoolList()->items(), "BoolList");
}

// ---- TensorList: a boxed list of Tensor values -------------------------

Error check_tensor_list(const ValueCheck& c, const ember_fb::EValue& v) {
  return check_list_items(c, v.val_as_TensorList()->items(), "TensorList", "a Tensor value",
                          [&](int64_t item) { return names_kind(c, item, KernelTypes::Tensor); });
}

size_t tensor_list_bytes(const ember_fb::EValue& v) {
  return boxed_list_bytes<Tensor>(count(v.val_as_TensorList()->items()));
}

Error build_tensor_list(const ValueBuild& b, const ember_fb::EValue& v) {
  return build_boxed_list<Tensor>(b, v.val_as_TensorList()->items(), "TensorList");
}

// ---- OptionalTensorList: items are Tensor or None values, or -1 --------

Error check_optional_tensor_list(const ValueCheck& c, const ember_fb::EValue& v) {
  return check_list_items(c, v.val_as_OptionalTensorList()->items(), "OptionalTensorList",
                          "a Tensor or None value", [&](int64_t item) {
                            return item == -1 || names_kind(c, item, KernelTypes::Tensor, true);
                          });
}

size_t optional_tensor_list_bytes(const ember_fb::EValue& v) {
  return boxed_list_bytes<Optional<Tensor>>(count(v.val_as_OptionalTensorList()->items()));
}

Error build_optional_tensor_list(const ValueBuild& b, const ember_fb::EValue& v) {
  return build_boxed_list<Optional<Tensor>>(b, v.val_as_OptionalTensorList()->items(),
                                            "OptionalTensorList");
}

constexpr ValueKind kValueKinds[] = {
    {uint8_t(KernelTypes::Null), "None", no_checks, no_bytes, build_null},
    {uint8_t(KernelTypes::Int), "Int", no_checks, no_bytes, build_int},
    {uint8_t(KernelTypes::Bool), "Bool", no_checks, no_bytes, build_bool},
    {uint8_t(KernelTypes::Double), "Double", no_checks, no_bytes, build_double},
    {uint8_t(KernelTypes::String), "String", no_checks, no_bytes, build_string},
    {uint8_t(KernelTypes::Tensor), "Tensor", check_tensor, tensor_bytes, build_tensor},
    {uint8_t(KernelTypes::IntList), "IntList", check_int_list, int_list_bytes, build_int_list},
    {uint8_t(KernelTypes::DoubleList), "DoubleList", no_checks, double_list_bytes,
     build_double_list},
    {uint8_t(KernelTypes::BoolList), "BoolList", no_checks, bool_list_bytes, build_bool_list},
    {uint8_t(KernelTypes::TensorList), "TensorList", check_tensor_list, tensor_list_bytes,
     build_tensor_list},
    {uint8_t(KernelTypes::OptionalTensorList), "OptionalTensorList",
     check_optional_tensor_list, optional_tensor_list_bytes, build_optional_tensor_list},
};

}  // namespace

const ValueKind* find_value_kind(const ember_fb::EValue* value) {
  if (value == nullptr) return nullptr;
  for (const ValueKind& kind : kValueKinds) {
    if (kind.type == uint8_t(value->val_type())) return &kind;
  }
  return nullptr;
}

Error validate_plan_value(const ValueCheck& c) {
  const ember_fb::EValue* value = c.plan->values()->Get(flatbuffers::uoffset_t(c.index));
  EMBER_CHECK_OR_RETURN(value != nullptr && value->val_type() != KernelTypes::NONE,
                        Error::InvalidProgram, "method '%s' value %zu has no type", c.method,
                        c.index);
  // A union may carry a type with no table (the Verifier accepts that).
  EMBER_CHECK_OR_RETURN(value->val() != nullptr, Error::InvalidProgram,
                        "method '%s' value %zu has type %d but no data", c.method, c.index,
                        int(value->val_type()));
  const ValueKind* kind = find_value_kind(value);
  EMBER_CHECK_OR_RETURN(kind != nullptr, Error::InvalidProgram,
                        "method '%s' value %zu has unknown type %d", c.method, c.index,
                        int(value->val_type()));
  return kind->validate(c, *value);
}

size_t value_allocation_bytes(const ember_fb::EValue* value) {
  const ValueKind* kind = find_value_kind(value);
  return kind != nullptr && value->val() != nullptr ? kind->bytes(*value) : 0;
}

size_t count_external_tensors(const ember_fb::ExecutionPlan* plan) {
  size_t n = 0;
  for (uint32_t i = 0; i < count(plan->values()); ++i) {
    const ember_fb::EValue* v = plan->values()->Get(i);
    const ember_fb::Tensor* t = v != nullptr ? v->val_as_Tensor() : nullptr;
    n += t != nullptr && tensor_data_kind(t) == TensorDataKind::External ? 1 : 0;
  }
  return n;
}

}  // namespace ember

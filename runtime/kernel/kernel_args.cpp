#include "runtime/kernel/kernel_args.h"
#include "runtime/platform/format.h"

#include <cstdarg>
#include <cstdio>

namespace ember {

KernelArgs::KernelArgs(KernelContext& context, Span<EValue*> args,
                       const char* op_name, size_t expected_count)
    : context_(context), args_(args), op_name_(op_name) {
  if (args.size() != expected_count) {
    set_error_message("%s: expected %zu arguments (inputs and returns), got %zu",
                      op_name, expected_count, args.size());
    context_.fail(Error::InvalidProgram);
    ok_ = false;
  }
}

bool KernelArgs::usable(size_t i) const {
  // After a failure (a wrong argument count included) nothing is read, so a
  // short argument list never indexes past its end.
  return ok_ && i < args_.size() && args_[i] != nullptr;
}

bool KernelArgs::expect(size_t i, bool matches, const char* wanted) {
  if (!ok_) {
    return false;
  }
  return matches || wrong_type(i, wanted);
}

bool KernelArgs::wrong_type(size_t i, const char* wanted) {
  if (!ok_) {
    return false;
  }
  const bool present = i < args_.size() && args_[i] != nullptr;
  return fail(Error::InvalidType, "argument %zu should be %s, got %s", i,
              wanted, present ? tag_name(args_[i]->tag()) : "no value");
}

bool KernelArgs::check_tag(size_t i, Tag tag) {
  if (!usable(i)) {
    return false;
  }
  return expect(i, args_[i]->tag() == tag, tag_name(tag));
}

bool KernelArgs::fail(Error error, const char* fmt, ...) {
  char detail[kMaxErrorMessage / 2];
  va_list ap;
  va_start(ap, fmt);
  vformat_text(detail, sizeof(detail), fmt, ap);
  va_end(ap);
  set_error_message("%s: %s", op_name_, detail);
  context_.fail(error);
  ok_ = false;
  return false;
}

bool KernelArgs::fail_with_cause(Error error) {
  prefix_error_message(error_name(error), "%s", op_name_);
  context_.fail(error);
  ok_ = false;
  return false;
}

Tensor KernelArgs::tensor(size_t i) { return any_tensor(i, true); }

Tensor KernelArgs::tensor_maybe_unbound(size_t i) {
  return any_tensor(i, false);
}

Tensor KernelArgs::any_tensor(size_t i, bool needs_storage) {
  if (!usable(i)) {
    return Tensor();
  }
  if (!prepared() && !expect(i, args_[i]->is_tensor(), "Tensor")) {
    return Tensor();
  }
  const Tensor t = args_[i]->to_tensor();
  return !needs_storage || preparing() || has_storage(i, t) ? t : Tensor();
}

bool KernelArgs::has_storage(size_t i, const Tensor& t) {
  // A tensor that was neither memory-planned nor bound (an unset input of a
  // hostile program, say) has no data; kernels must never see it.
  if (t.const_data_ptr() == nullptr && t.numel() != 0) {
    return fail(Error::InvalidState,
                "argument %zu is a tensor with no storage (not memory-planned and "
                "never bound)",
                i);
  }
  return true;
}

Optional<Tensor> KernelArgs::optional_tensor(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  return expect(i, args_[i]->is_tensor(), "Tensor or None") &&
                 (preparing() || has_storage(i, args_[i]->to_tensor()))
             ? Optional<Tensor>(args_[i]->to_tensor())
             : Optional<Tensor>();
}

Scalar KernelArgs::scalar(size_t i) {
  if (!usable(i)) {
    return Scalar();
  }
  Scalar s;
  if (!expect(i, args_[i]->is_scalar(), "Scalar")) {
    return s;
  }
  const EValue& v = *args_[i];
  if (v.is_int()) {
    s.kind = Scalar::Kind::Int;
    s.i = v.to_int();
  } else if (v.is_double()) {
    s.kind = Scalar::Kind::Double;
    s.d = v.to_double();
  } else {
    s.kind = Scalar::Kind::Bool;
    s.b = v.to_bool();
  }
  return s;
}

Optional<Scalar> KernelArgs::optional_scalar(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  Scalar s = scalar(i);
  return ok_ ? Optional<Scalar>(s) : Optional<Scalar>();
}

int64_t KernelArgs::int_value(size_t i) {
  if (!usable(i)) {
    return 0;
  }
  return expect(i, args_[i]->is_int(), "Int") ? args_[i]->to_int() : 0;
}

Optional<int64_t> KernelArgs::optional_int(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  return expect(i, args_[i]->is_int(), "Int or None")
             ? Optional<int64_t>(args_[i]->to_int())
             : Optional<int64_t>();
}

double KernelArgs::double_value(size_t i) {
  if (!usable(i)) {
    return 0.0;
  }
  // Python floats may be serialized as Int when integral; accept both.
  if (ok_ && args_[i]->is_int()) {
    return double(args_[i]->to_int());
  }
  return expect(i, args_[i]->is_double(), "Double") ? args_[i]->to_double()
                                                    : 0.0;
}

bool KernelArgs::bool_value(size_t i) {
  if (!usable(i)) {
    return false;
  }
  return expect(i, args_[i]->is_bool(), "Bool") ? args_[i]->to_bool() : false;
}

Optional<bool> KernelArgs::optional_bool(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  return expect(i, args_[i]->is_bool(), "Bool or None")
             ? Optional<bool>(args_[i]->to_bool())
             : Optional<bool>();
}

Span<int64_t> KernelArgs::int_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  return expect(i, args_[i]->is_int_list(), "IntList") ? args_[i]->to_int_list()
                                                       : Span<int64_t>();
}

Optional<Span<int64_t>> KernelArgs::optional_int_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  return expect(i, args_[i]->is_int_list(), "IntList or None")
             ? Optional<Span<int64_t>>(args_[i]->to_int_list())
             : Optional<Span<int64_t>>();
}

Span<double> KernelArgs::double_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  return expect(i, args_[i]->is_double_list(), "DoubleList")
             ? args_[i]->to_double_list()
             : Span<double>();
}

Span<bool> KernelArgs::bool_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  return expect(i, args_[i]->is_bool_list(), "BoolList")
             ? args_[i]->to_bool_list()
             : Span<bool>();
}

Span<Tensor> KernelArgs::tensor_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (!expect(i, args_[i]->is_tensor_list(), "TensorList")) {
    return {};
  }
  Span<Tensor> list = args_[i]->to_tensor_list();
  for (const Tensor& t : list) {
    if (!preparing() && !has_storage(i, t)) {
      return {};
    }
  }
  return list;
}

Span<Optional<Tensor>> KernelArgs::optional_tensor_list(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (!expect(i, args_[i]->is_optional_tensor_list(), "OptionalTensorList")) {
    return {};
  }
  Span<Optional<Tensor>> list = args_[i]->to_optional_tensor_list();
  for (const Optional<Tensor>& t : list) {
    if (t.has_value() && !preparing() && !has_storage(i, t.value())) {
      return {};
    }
  }
  return list;
}

StringView KernelArgs::string(size_t i) {
  if (!usable(i)) {
    return {};
  }
  return expect(i, args_[i]->is_string(), "String") ? args_[i]->to_string()
                                                    : StringView();
}

Optional<StringView> KernelArgs::optional_string(size_t i) {
  if (!usable(i)) {
    return {};
  }
  if (ok_ && args_[i]->is_none()) {
    return {};
  }
  return expect(i, args_[i]->is_string(), "String or None")
             ? Optional<StringView>(args_[i]->to_string())
             : Optional<StringView>();
}

}  // namespace ember

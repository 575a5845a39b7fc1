#include "examples/bundler/bundler.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "runtime/core/evalue.h"
#include "runtime/executor/program.h"
#include "schema/bundled_program_schema_generated.h"

namespace ember {

namespace fb = ::ember_bundled_fb;

namespace {

constexpr uint32_t kBundledSchemaVersion = 2;  // what upstream writes

const char* kind_name(BundlerValue::Kind k) {
  switch (k) {
    case BundlerValue::Kind::Tensor: return "Tensor";
    case BundlerValue::Kind::Int: return "Int";
    case BundlerValue::Kind::Bool: return "Bool";
    case BundlerValue::Kind::Double: return "Double";
  }
  return "?";
}

BundlerValue::Kind kind_of_tag(Tag tag) {
  switch (tag) {
    case Tag::Int: return BundlerValue::Kind::Int;
    case Tag::Bool: return BundlerValue::Kind::Bool;
    case Tag::Double: return BundlerValue::Kind::Double;
    default: return BundlerValue::Kind::Tensor;
  }
}

std::string shape_string(Span<const int32_t> s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

Error check_input(const MethodMeta& meta, const std::string& where, size_t index,
                  const BundlerValue& v) {
  Result<Tag> tag = meta.input_tag(index);
  if (!tag.ok()) return tag.error();
  const bool want_tensor = *tag == Tag::Tensor;
  const bool want_scalar = *tag == Tag::Int || *tag == Tag::Bool || *tag == Tag::Double;
  EMBER_CHECK_OR_RETURN(want_tensor || want_scalar, Error::InvalidArgument,
                        "%s input %zu: the method's input is a %s, which a bundle "
                        "cannot carry",
                        where.c_str(), index, tag_name(*tag));
  EMBER_CHECK_OR_RETURN(v.kind == kind_of_tag(*tag), Error::InvalidArgument,
                        "%s input %zu: got a %s, the method expects a %s", where.c_str(),
                        index, kind_name(v.kind), tag_name(*tag));
  if (!want_tensor) return Error::Ok;
  Result<TensorInfo> info = meta.input_tensor_meta(index);
  if (!info.ok()) return info.error();
  EMBER_CHECK_OR_RETURN(v.tensor.dtype == info->scalar_type(), Error::InvalidArgument,
                        "%s input %zu: dtype %s, the method expects %s", where.c_str(),
                        index, scalar_type_name(v.tensor.dtype),
                        scalar_type_name(info->scalar_type()));
  const Span<const int32_t> want = info->sizes();
  const Span<const int32_t> got(v.tensor.shape.data(), v.tensor.shape.size());
  bool ok = got.size() == want.size();
  const bool bounded = info->shape_dynamism() != ShapeDynamism::Static;
  for (size_t d = 0; ok && d < got.size(); ++d) {
    ok = bounded ? got[d] <= want[d] : got[d] == want[d];
  }
  EMBER_CHECK_OR_RETURN(ok, Error::InvalidArgument,
                        "%s input %zu: shape %s, the method expects %s%s", where.c_str(),
                        index, shape_string(got).c_str(),
                        bounded ? "at most " : "", shape_string(want).c_str());
  return Error::Ok;
}

Error check_output(const MethodMeta& meta, const std::string& where, size_t index,
                   const BundlerValue& v) {
  Result<Tag> tag = meta.output_tag(index);
  if (!tag.ok()) return tag.error();
  EMBER_CHECK_OR_RETURN(v.kind == kind_of_tag(*tag) &&
                            (*tag != Tag::Tensor || v.kind == BundlerValue::Kind::Tensor),
                        Error::InvalidArgument,
                        "%s expected output %zu: got a %s, the method returns a %s",
                        where.c_str(), index, kind_name(v.kind), tag_name(*tag));
  if (*tag != Tag::Tensor) return Error::Ok;
  Result<TensorInfo> info = meta.output_tensor_meta(index);
  if (!info.ok()) return info.error();
  EMBER_CHECK_OR_RETURN(v.tensor.dtype == info->scalar_type(), Error::InvalidArgument,
                        "%s expected output %zu: dtype %s, the method returns %s",
                        where.c_str(), index, scalar_type_name(v.tensor.dtype),
                        scalar_type_name(info->scalar_type()));
  EMBER_CHECK_OR_RETURN(v.tensor.shape.size() == info->sizes().size(),
                        Error::InvalidArgument,
                        "%s expected output %zu: rank %zu, the method returns rank %zu",
                        where.c_str(), index, v.tensor.shape.size(),
                        info->sizes().size());
  return Error::Ok;
}

Error check_suites(const void* program_bytes, size_t program_size,
                   const std::vector<BundlerSuite>& suites) {
  // Program::load wants 16-byte aligned bytes: work on an aligned copy.
  const size_t padded = (program_size + 63) / 64 * 64;
  std::unique_ptr<void, void (*)(void*)> copy(std::aligned_alloc(64, padded ? padded : 64),
                                              std::free);
  EMBER_CHECK_OR_RETURN(copy != nullptr, Error::MemoryAllocationFailed,
                        "bundler: cannot copy the %zu-byte program", program_size);
  std::memcpy(copy.get(), program_bytes, program_size);
  BufferDataLoader loader(copy.get(), program_size);
  Result<Program> program = Program::load(&loader);
  if (!program.ok()) return program.error();

  std::set<std::string> seen;
  for (const BundlerSuite& suite : suites) {
    Result<MethodMeta> meta = program->method_meta(suite.method_name.c_str());
    if (!meta.ok()) {
      set_error_message("bundler: the program has no method '%s' (methods:",
                        suite.method_name.c_str());
      for (size_t i = 0; i < program->num_methods(); ++i) {
        Result<const char*> name = program->get_method_name(i);
        if (name.ok()) append_error_message(" '%s'", *name);
      }
      append_error_message(")");
      return Error::InvalidArgument;
    }
    EMBER_CHECK_OR_RETURN(seen.insert(suite.method_name).second, Error::InvalidArgument,
                          "bundler: two test suites for method '%s'",
                          suite.method_name.c_str());
    for (size_t c = 0; c < suite.test_cases.size(); ++c) {
      const BundlerTestCase& tc = suite.test_cases[c];
      const std::string where =
          "bundler: method '" + suite.method_name + "' test case " + std::to_string(c);
      EMBER_CHECK_OR_RETURN(tc.inputs.size() == meta->num_inputs(), Error::InvalidArgument,
                            "%s: %zu inputs, the method takes %zu", where.c_str(),
                            tc.inputs.size(), meta->num_inputs());
      for (size_t i = 0; i < tc.inputs.size(); ++i) {
        EMBER_RETURN_IF_ERROR(check_input(*meta, where, i, tc.inputs[i]));
      }
      EMBER_CHECK_OR_RETURN(
          tc.expected_outputs.empty() || tc.expected_outputs.size() == meta->num_outputs(),
          Error::InvalidArgument, "%s: %zu expected outputs, the method returns %zu",
          where.c_str(), tc.expected_outputs.size(), meta->num_outputs());
      for (size_t i = 0; i < tc.expected_outputs.size(); ++i) {
        EMBER_RETURN_IF_ERROR(check_output(*meta, where, i, tc.expected_outputs[i]));
      }
    }
  }
  return Error::Ok;
}

flatbuffers::Offset<fb::Value> write_value(flatbuffers::FlatBufferBuilder& b,
                                           const BundlerValue& v) {
  switch (v.kind) {
    case BundlerValue::Kind::Int:
      return fb::CreateValue(b, fb::ValueUnion::Int, fb::CreateInt(b, v.int_value).Union());
    case BundlerValue::Kind::Bool:
      return fb::CreateValue(b, fb::ValueUnion::Bool,
                             fb::CreateBool(b, v.bool_value).Union());
    case BundlerValue::Kind::Double:
      return fb::CreateValue(b, fb::ValueUnion::Double,
                             fb::CreateDouble(b, v.double_value).Union());
    case BundlerValue::Kind::Tensor:
      break;
  }
  const NpyArray& a = v.tensor;
  auto sizes = b.CreateVector(a.shape);
  b.ForceVectorAlignment(a.data.size(), 1, 16);
  auto data = b.CreateVector(a.data);
  std::vector<uint8_t> order(a.shape.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint8_t(i);
  auto dim_order = b.CreateVector(order);
  auto tensor = fb::CreateTensor(b, ember_fb::ScalarType(a.dtype), sizes, data, dim_order);
  return fb::CreateValue(b, fb::ValueUnion::Tensor, tensor.Union());
}

}  // namespace

BundlerValue BundlerValue::from_tensor(NpyArray array) {
  BundlerValue v;
  v.kind = Kind::Tensor;
  v.tensor = std::move(array);
  return v;
}
BundlerValue BundlerValue::from_int(int64_t x) {
  BundlerValue v;
  v.kind = Kind::Int;
  v.int_value = x;
  return v;
}
BundlerValue BundlerValue::from_bool(bool x) {
  BundlerValue v;
  v.kind = Kind::Bool;
  v.bool_value = x;
  return v;
}
BundlerValue BundlerValue::from_double(double x) {
  BundlerValue v;
  v.kind = Kind::Double;
  v.double_value = x;
  return v;
}

BundlerValue value_for_slot(NpyArray array, int tag) {
  const bool scalar = array.shape.empty() && array.numel() == 1;
  if (scalar && Tag(tag) == Tag::Int && array.dtype == ScalarType::Long) {
    return BundlerValue::from_int(*array.as<int64_t>());
  }
  if (scalar && Tag(tag) == Tag::Bool && array.dtype == ScalarType::Bool) {
    return BundlerValue::from_bool(*array.as<bool>());
  }
  if (scalar && Tag(tag) == Tag::Double && array.dtype == ScalarType::Double) {
    return BundlerValue::from_double(*array.as<double>());
  }
  return BundlerValue::from_tensor(std::move(array));
}

Result<std::vector<uint8_t>> build_bundled_program(const void* program,
                                                   size_t program_size,
                                                   std::vector<BundlerSuite> suites) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(!is_bundled_program(program, program_size),
                        Error::InvalidArgument,
                        "bundler: the input is already a bundled program (.bpte), "
                        "not a program (.pte)");
  EMBER_RETURN_IF_ERROR(check_suites(program, program_size, suites));
  std::sort(suites.begin(), suites.end(), [](const BundlerSuite& a, const BundlerSuite& b) {
    return a.method_name < b.method_name;
  });

  flatbuffers::FlatBufferBuilder b(program_size + 4096);
  std::vector<flatbuffers::Offset<fb::BundledMethodTestSuite>> suite_offsets;
  for (const BundlerSuite& suite : suites) {
    std::vector<flatbuffers::Offset<fb::BundledMethodTestCase>> cases;
    for (const BundlerTestCase& tc : suite.test_cases) {
      std::vector<flatbuffers::Offset<fb::Value>> inputs, outputs;
      for (const BundlerValue& v : tc.inputs) inputs.push_back(write_value(b, v));
      for (const BundlerValue& v : tc.expected_outputs) outputs.push_back(write_value(b, v));
      cases.push_back(fb::CreateBundledMethodTestCase(b, b.CreateVector(inputs),
                                                      b.CreateVector(outputs)));
    }
    suite_offsets.push_back(fb::CreateBundledMethodTestSuite(
        b, b.CreateString(suite.method_name), b.CreateVector(cases)));
  }
  auto suites_vector = b.CreateVector(suite_offsets);
  b.ForceVectorAlignment(program_size, 1, kBundledProgramAlignment);
  auto program_vector =
      b.CreateVector(static_cast<const uint8_t*>(program), program_size);
  auto root = fb::CreateBundledProgram(b, kBundledSchemaVersion, suites_vector,
                                       program_vector);
  fb::FinishBundledProgramBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace ember

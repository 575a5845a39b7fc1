// Hostile bytes: truncations, flipped bytes and out-of-range fields must
// give an Error with a precise message, never a crash or an out-of-bounds
// read (this suite also runs under AddressSanitizer and UBSan).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/module/module.h"
#include "extension/runner_util/inputs.h"
#include "runtime/core/error_message.h"
#include "schema/program_generated.h"
#include "test/runtime/fixture_util.h"

namespace ember::testing {
namespace {

// Loads `bytes` at `level`, then loads, fills and executes every method.
// Returns the first error (Ok if everything ran). Never asserts on success:
// a corruption may land in bytes that do not matter.
Error load_and_run_all(const std::vector<uint8_t>& bytes, Program::Verification level) {
  auto loader = std::make_unique<BufferDataLoader>(bytes.data(), bytes.size());
  Result<std::unique_ptr<Module>> module = Module::load(std::move(loader), level);
  if (!module.ok()) return module.error();
  for (const std::string& name : (*module)->method_names()) {
    Result<Method*> method = (*module)->method(name);
    if (!method.ok()) return method.error();
    (*method)->set_instruction_limit(100000);
    Result<InputBuffers> inputs = prepare_input_tensors(**method);
    if (!inputs.ok()) return inputs.error();
    const Error err = (*method)->execute();
    if (err != Error::Ok) return err;
  }
  return Error::Ok;
}

const char* kFixtures[] = {"add", "linear", "linear_inline", "stateful", "two_methods",
                           "dynamic", "int_bool", "mlp", "convnet", "scalar_ops"};

TEST(Corruption, EveryTruncationFailsCleanly) {
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> full = read_file_bytes(fixture_path(name));
    ASSERT_FALSE(full.empty());
    ASSERT_EQ(load_and_run_all(full, Program::Verification::InternalConsistency), Error::Ok)
        << last_error_message();
    const bool has_extended_header = std::memcmp(full.data() + 8, "eh00", 4) == 0;
    for (size_t len = 0; len < full.size(); ++len) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + long(len));
      const Error err = load_and_run_all(cut, Program::Verification::Minimal);
      if (err == Error::Ok) {
        // Only trailing padding of a header-less file may be cut harmlessly.
        EXPECT_FALSE(has_extended_header) << "truncated to " << len << " loaded";
        continue;
      }
      const std::string message = last_error_message();
      EXPECT_FALSE(message.empty()) << "no message at length " << len;
      if (len < 8) {
        EXPECT_NE(message.find("truncated"), std::string::npos) << message;
      }
    }
  }
}

TEST(Corruption, EveryFlippedByteFailsCleanlyOrRuns) {
  size_t failures = 0;
  size_t total = 0;
  for (const char* name : kFixtures) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> full = read_file_bytes(fixture_path(name));
    for (size_t i = 0; i < full.size(); ++i) {
      for (uint8_t mask : {uint8_t(0xff), uint8_t(0x01)}) {
        std::vector<uint8_t> bytes = full;
        bytes[i] ^= mask;
        for (auto level : {Program::Verification::Minimal,
                           Program::Verification::InternalConsistency}) {
          ++total;
          const Error err = load_and_run_all(bytes, level);
          if (err != Error::Ok) {
            ++failures;
            EXPECT_NE(last_error_message()[0], '\0')
                << "no message for byte " << i << " ^ " << int(mask) << " ("
                << error_name(err) << ")";
          }
        }
      }
    }
  }
  // Most flips must be caught; the rest hit data or padding.
  EXPECT_GT(failures, 0u);
  RecordProperty("flips", int(total));
  RecordProperty("errors", int(failures));
}

TEST(Corruption, NotAProgramAndOtherVersion) {
  std::vector<uint8_t> bytes = read_file_bytes(fixture_path("add"));
  std::memcpy(bytes.data() + 4, "ET99", 4);
  EXPECT_EQ(load_and_run_all(bytes, Program::Verification::Minimal), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("another format version"),
            std::string::npos);
  std::memcpy(bytes.data() + 4, "ZZZZ", 4);
  EXPECT_EQ(load_and_run_all(bytes, Program::Verification::Minimal), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("not an ExecuTorch program"),
            std::string::npos);
}

// ---- Field patches: one structural field set out of range at a time. ----

// A copy of a fixture whose fields can be patched in place through the
// generated accessors (the field's address in the verified buffer).
class Patched {
 public:
  explicit Patched(const char* name) : bytes_(read_file_bytes(fixture_path(name))) {}
  const ember_fb::Program* program() const { return ember_fb::GetProgram(bytes_.data()); }
  const ember_fb::ExecutionPlan* plan() const { return program()->execution_plan()->Get(0); }

  template <typename T>
  void write(const void* field_address, T value) {
    ASSERT_NE(field_address, nullptr) << "field not present in the buffer";
    const size_t offset = static_cast<const uint8_t*>(field_address) - bytes_.data();
    ASSERT_LE(offset + sizeof(T), bytes_.size());
    std::memcpy(bytes_.data() + offset, &value, sizeof(T));
  }
  void write_at(size_t offset, uint64_t value) {
    std::memcpy(bytes_.data() + offset, &value, sizeof(value));
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

  const ember_fb::Tensor* first_tensor(bool planned) const {
    for (uint32_t i = 0; i < plan()->values()->size(); ++i) {
      const ember_fb::Tensor* t = plan()->values()->Get(i)->val_as_Tensor();
      if (t != nullptr && (t->allocation_info() != nullptr) == planned &&
          (planned || t->data_buffer_idx() > 0)) {
        return t;
      }
    }
    return nullptr;
  }
  const ember_fb::KernelCall* first_kernel_call() const {
    return plan()->chains()->Get(0)->instructions()->Get(0)->instr_args_as_KernelCall();
  }

 private:
  std::vector<uint8_t> bytes_;
};

// Expects both verification levels to fail with `error` and a message
// containing `needle` (Minimal at method load, Full at program load).
void expect_rejected(const Patched& p, Error error, const std::string& needle) {
  for (auto level :
       {Program::Verification::Minimal, Program::Verification::InternalConsistency}) {
    const Error err = load_and_run_all(p.bytes(), level);
    EXPECT_EQ(err, error) << error_name(err) << ": " << last_error_message();
    EXPECT_NE(std::string(last_error_message()).find(needle), std::string::npos)
        << "message: " << last_error_message();
  }
  // Full verification catches it at Program::load already.
  BufferDataLoader loader(p.bytes().data(), p.bytes().size());
  Result<Program> program =
      Program::load(&loader, Program::Verification::InternalConsistency);
  EXPECT_FALSE(program.ok());
}

using Field = flatbuffers::voffset_t;

// Address of a scalar field in the buffer (null when absent, i.e. default).
template <typename T>
const uint8_t* field(const T* table, Field f) {
  return reinterpret_cast<const flatbuffers::Table*>(table)->GetAddressOf(f);
}

TEST(Patch, MemoryIdOutOfRange) {
  Patched p("linear");
  const ember_fb::AllocationDetails* a = p.first_tensor(true)->allocation_info();
  p.write<uint32_t>(field(a, Field(ember_fb::AllocationDetails::VT_MEMORY_ID)), 7);
  expect_rejected(p, Error::InvalidProgram, "memory_id 7 out of range");
}

TEST(Patch, PlannedSlotOverrunsArena) {
  Patched p("linear");
  const ember_fb::AllocationDetails* a = nullptr;
  for (uint32_t i = 0; i < p.plan()->values()->size() && a == nullptr; ++i) {
    const ember_fb::Tensor* t = p.plan()->values()->Get(i)->val_as_Tensor();
    if (t && t->allocation_info() &&
        field(t->allocation_info(), 
            Field(ember_fb::AllocationDetails::VT_MEMORY_OFFSET_LOW))) {
      a = t->allocation_info();
    }
  }
  ASSERT_NE(a, nullptr);
  p.write<uint32_t>(field(a, Field(ember_fb::AllocationDetails::VT_MEMORY_OFFSET_LOW)),
                    0xfffffff0u);
  expect_rejected(p, Error::InvalidProgram, "overruns planned buffer");
}

TEST(Patch, KernelArgumentIndexOutOfRange) {
  Patched p("linear");
  const ember_fb::KernelCall* call = p.first_kernel_call();
  ASSERT_NE(call, nullptr);
  p.write<int32_t>(call->args()->data(), 100000);
  expect_rejected(p, Error::InvalidProgram, "out of range");
}

TEST(Patch, OperatorIndexOutOfRange) {
  Patched p("mlp");
  const ember_fb::KernelCall* call = nullptr;
  for (uint32_t i = 0; i < p.plan()->chains()->Get(0)->instructions()->size(); ++i) {
    const ember_fb::KernelCall* c =
        p.plan()->chains()->Get(0)->instructions()->Get(i)->instr_args_as_KernelCall();
    if (c && field(c, Field(ember_fb::KernelCall::VT_OP_INDEX))) call = c;
  }
  ASSERT_NE(call, nullptr);
  p.write<int32_t>(field(call, Field(ember_fb::KernelCall::VT_OP_INDEX)), 77);
  expect_rejected(p, Error::InvalidProgram, "operator index 77 out of range");
}

TEST(Patch, ConstantBufferIndexOutOfRange) {
  Patched p("linear");
  const ember_fb::Tensor* t = p.first_tensor(false);
  ASSERT_NE(t, nullptr);
  p.write<uint32_t>(field(t, Field(ember_fb::Tensor::VT_DATA_BUFFER_IDX)), 99);
  expect_rejected(p, Error::InvalidProgram, "constant buffer 99");
}

TEST(Patch, InlineConstantBufferIndexOutOfRange) {
  Patched p("linear_inline");
  const ember_fb::Tensor* t = p.first_tensor(false);
  ASSERT_NE(t, nullptr);
  p.write<uint32_t>(field(t, Field(ember_fb::Tensor::VT_DATA_BUFFER_IDX)), 42);
  expect_rejected(p, Error::InvalidProgram, "constant buffer 42");
}

TEST(Patch, NegativeSize) {
  Patched p("linear");
  const ember_fb::Tensor* t = p.first_tensor(true);
  p.write<int32_t>(t->sizes()->data(), -3);
  expect_rejected(p, Error::InvalidProgram, "negative size -3");
}

TEST(Patch, DimOrderNotAPermutation) {
  Patched p("linear");
  const ember_fb::Tensor* t = p.first_tensor(true);
  ASSERT_GE(t->dim_order()->size(), 2u);
  p.write<uint8_t>(t->dim_order()->data() + 1, 0);  // [0, 0]
  expect_rejected(p, Error::InvalidProgram, "not a permutation");
}

TEST(Patch, UnknownScalarType) {
  Patched p("linear");
  const ember_fb::Tensor* t = p.first_tensor(true);
  p.write<int8_t>(field(t, Field(ember_fb::Tensor::VT_SCALAR_TYPE)), 99);
  expect_rejected(p, Error::InvalidProgram, "unknown scalar type 99");
}

TEST(Patch, InputIndexOutOfRange) {
  Patched p("linear");
  p.write<int32_t>(p.plan()->inputs()->data(), -5);
  expect_rejected(p, Error::InvalidProgram, "input 0 is value -5");
}

TEST(Patch, ConstantOffsetPastSegment) {
  Patched p("linear");
  const auto* offsets = p.program()->constant_segment()->offsets();
  ASSERT_GE(offsets->size(), 2u);
  p.write<uint64_t>(offsets->data() + 1, uint64_t(1) << 40);
  for (auto level :
       {Program::Verification::Minimal, Program::Verification::InternalConsistency}) {
    EXPECT_EQ(load_and_run_all(p.bytes(), level), Error::InvalidProgram);
    EXPECT_NE(std::string(last_error_message()).find("past the end of the constant segment"),
              std::string::npos)
        << last_error_message();
  }
}

TEST(Patch, SegmentOffsetNear2To64) {
  Patched p("linear");
  const ember_fb::DataSegment* seg = p.program()->segments()->Get(0);
  const void* address = field(seg, Field(ember_fb::DataSegment::VT_OFFSET));
  if (address == nullptr) address = field(seg, Field(ember_fb::DataSegment::VT_SIZE));
  p.write<uint64_t>(address, ~uint64_t(0) - 3);
  EXPECT_EQ(load_and_run_all(p.bytes(), Program::Verification::Minimal),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("segment 0"), std::string::npos)
      << last_error_message();
}

TEST(Patch, ExtendedHeaderSizesBeyondFile) {
  Patched program_size("linear");
  program_size.write_at(16, uint64_t(1) << 33);
  EXPECT_EQ(load_and_run_all(program_size.bytes(), Program::Verification::Minimal),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("truncated"), std::string::npos)
      << last_error_message();

  Patched base("linear");
  base.write_at(24, ~uint64_t(0));
  EXPECT_EQ(load_and_run_all(base.bytes(), Program::Verification::Minimal),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("segment base offset"), std::string::npos)
      << last_error_message();

  Patched data_size("linear");
  data_size.write_at(32, ~uint64_t(0) - 1);
  EXPECT_EQ(load_and_run_all(data_size.bytes(), Program::Verification::Minimal),
            Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("segment data"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::testing

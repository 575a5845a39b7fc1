// Writes the hand-made hostile files of test/regression/ (the committed
// files are this tool's output; rerun it after a schema change):
//   build/test/regression/make_hostile test/regression
// Each file is one structural lie, made by patching a committed fixture or
// by building a small program with the flatbuffers builder. The expected
// Error of each file is in test/regression/MANIFEST.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "test/regression/hostile_file_util.h"
#include "schema/bundled_program_schema_generated.h"
#include "schema/program_generated.h"

namespace {

namespace fb = ember_fb;
namespace bfb = ember_bundled_fb;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using ember::hostile::Bytes;
using ember::hostile::field;
using ember::hostile::patch;
using ember::hostile::read;

std::string g_models;
std::string g_out;

void write(const std::string& name, const Bytes& bytes) { ember::hostile::write(g_out, name, bytes); }

Bytes fixture(const char* name) { return read(g_models + "/" + name + "/model.pte"); }

const fb::ExecutionPlan* plan(const Bytes& b) {
  return fb::GetProgram(b.data())->execution_plan()->Get(0);
}

const fb::Tensor* first_planned_tensor(const Bytes& b) {
  for (uint32_t i = 0; i < plan(b)->values()->size(); ++i) {
    const fb::Tensor* t = plan(b)->values()->Get(i)->val_as_Tensor();
    if (t != nullptr && t->allocation_info() != nullptr &&
        field(t->allocation_info(), fb::AllocationDetails::VT_MEMORY_OFFSET_LOW) != nullptr) {
      return t;
    }
  }
  fprintf(stderr, "no planned tensor\n");
  exit(1);
}

uint64_t u64_at(const Bytes& b, size_t offset) {
  uint64_t v;
  std::memcpy(&v, b.data() + offset, 8);
  return v;
}

Bytes cut(const Bytes& b, size_t len) { return Bytes(b.begin(), b.begin() + long(len)); }

// ---- .pte: truncations at every structural boundary of a segmented file.
void truncations() {
  const Bytes linear = fixture("linear");  // extended header + constant segment
  const uint64_t program_size = u64_at(linear, 16);
  const uint64_t segment_base = u64_at(linear, 24);
  write("pte_trunc_empty.pte", cut(linear, 0));
  write("pte_trunc_in_identifier.pte", cut(linear, 6));
  write("pte_trunc_after_identifier.pte", cut(linear, 8));
  write("pte_trunc_in_extended_header.pte", cut(linear, 20));
  write("pte_trunc_after_extended_header.pte", cut(linear, 40));
  write("pte_trunc_in_flatbuffer.pte", cut(linear, size_t(program_size) / 2));
  write("pte_trunc_end_of_flatbuffer.pte", cut(linear, size_t(program_size) - 1));
  write("pte_trunc_at_segment_base.pte", cut(linear, size_t(segment_base)));
  write("pte_trunc_last_segment_byte.pte", cut(linear, linear.size() - 1));
}

// ---- .pte: sizes and offsets near 2^32 and 2^64, negative sizes.
void big_numbers() {
  {
    Bytes b = fixture("linear");
    patch<uint64_t>(b, b.data() + 16, uint64_t(1) << 32);
    write("pte_program_size_2e32.pte", b);
  }
  {
    Bytes b = fixture("linear");
    patch<uint64_t>(b, b.data() + 24, ~uint64_t(0) - 7);
    write("pte_segment_base_near_2e64.pte", b);
  }
  {
    Bytes b = fixture("linear");
    patch<uint64_t>(b, b.data() + 32, ~uint64_t(0));
    write("pte_segment_data_size_2e64.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::DataSegment* seg = fb::GetProgram(b.data())->segments()->Get(0);
    patch<uint64_t>(b, field(seg, fb::DataSegment::VT_SIZE), ~uint64_t(0) - 3);
    write("pte_segment_size_near_2e64.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::DataSegment* seg = fb::GetProgram(b.data())->segments()->Get(0);
    const uint8_t* offset = field(seg, fb::DataSegment::VT_OFFSET);
    if (offset == nullptr) offset = field(seg, fb::DataSegment::VT_SIZE);
    patch<uint64_t>(b, offset, uint64_t(0xffffffff));
    write("pte_segment_offset_2e32.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const auto* offsets = fb::GetProgram(b.data())->constant_segment()->offsets();
    patch<uint64_t>(b, offsets->data() + 1, ~uint64_t(0) - 15);
    write("pte_constant_offset_near_2e64.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::AllocationDetails* a = first_planned_tensor(b)->allocation_info();
    patch<uint32_t>(b, field(a, fb::AllocationDetails::VT_MEMORY_OFFSET_LOW), 0xfffffff0u);
    write("pte_planned_slot_overruns_arena.pte", b);
  }
  {
    Bytes b = fixture("linear");
    patch<int64_t>(b, plan(b)->non_const_buffer_sizes()->data() + 1, int64_t(-1));
    write("pte_planned_buffer_size_negative.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::Tensor* t = first_planned_tensor(b);
    patch<int32_t>(b, t->sizes()->data(), int32_t(-3));
    write("pte_tensor_size_negative.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::Tensor* t = first_planned_tensor(b);
    for (uint32_t d = 0; d < t->sizes()->size(); ++d) {
      patch<int32_t>(b, t->sizes()->data() + d, int32_t(0x7fffffff));
    }
    write("pte_tensor_numel_overflow.pte", b);
  }
  {
    // A zero size first: the element count is 0, but the other sizes
    // multiply past 2^64 (the strides would overflow).
    Bytes b = fixture("convnet");
    const fb::Tensor* t = nullptr;
    for (uint32_t i = 0; i < plan(b)->values()->size() && t == nullptr; ++i) {
      const fb::Tensor* v = plan(b)->values()->Get(i)->val_as_Tensor();
      if (v != nullptr && v->sizes()->size() >= 4) t = v;
    }
    if (t == nullptr) {
      fprintf(stderr, "convnet: no 4-d tensor\n");
      exit(1);
    }
    patch<int32_t>(b, t->sizes()->data(), int32_t(0));
    for (uint32_t d = 1; d < t->sizes()->size(); ++d) {
      patch<int32_t>(b, t->sizes()->data() + d, int32_t(0x7fffffff));
    }
    write("pte_tensor_zero_size_hides_overflow.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::Tensor* t = first_planned_tensor(b);
    patch<uint8_t>(b, t->dim_order()->data(), uint8_t(200));
    write("pte_dim_order_out_of_range.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::Tensor* t = first_planned_tensor(b);
    patch<uint8_t>(b, t->dim_order()->data() + 1, t->dim_order()->Get(0));
    write("pte_dim_order_not_permutation.pte", b);
  }
}

// ---- .pte: value indices out of range.
void indices() {
  {
    Bytes b = fixture("linear");
    patch<int32_t>(b, plan(b)->inputs()->data(), int32_t(-5));
    write("pte_input_index_negative.pte", b);
  }
  {
    Bytes b = fixture("linear");
    patch<int32_t>(b, plan(b)->outputs()->data(), int32_t(0x7fffffff));
    write("pte_output_index_2e31.pte", b);
  }
  {
    Bytes b = fixture("linear");
    const fb::KernelCall* call =
        plan(b)->chains()->Get(0)->instructions()->Get(0)->instr_args_as_KernelCall();
    patch<int32_t>(b, call->args()->data(), int32_t(100000));
    write("pte_kernel_arg_index_out_of_range.pte", b);
  }
}

// ---- Programs built with the flatbuffers builder: control flow.
using ValueFn = std::function<Offset<fb::EValue>(FlatBufferBuilder&)>;
using InstrFn = std::function<Offset<fb::Instruction>(FlatBufferBuilder&)>;

Bytes build(const std::vector<ValueFn>& value_fns,
            const std::vector<std::vector<InstrFn>>& chain_fns, std::vector<int32_t> outputs) {
  FlatBufferBuilder b;
  std::vector<Offset<fb::EValue>> values;
  for (const auto& v : value_fns) values.push_back(v(b));
  std::vector<Offset<fb::Chain>> chains;
  for (const auto& c : chain_fns) {
    std::vector<Offset<fb::Instruction>> instructions;
    for (const auto& i : c) instructions.push_back(i(b));
    chains.push_back(fb::CreateChain(b, b.CreateVector(std::vector<int32_t>{}),
                                     b.CreateVector(std::vector<int32_t>{}),
                                     b.CreateVector(instructions)));
  }
  auto plan = fb::CreateExecutionPlan(
      b, b.CreateString("forward"), 0, b.CreateVector(values),
      b.CreateVector(std::vector<int32_t>{}), b.CreateVector(outputs), b.CreateVector(chains),
      b.CreateVector(std::vector<Offset<fb::Operator>>{}),
      b.CreateVector(std::vector<Offset<fb::BackendDelegate>>{}),
      b.CreateVector(std::vector<int64_t>{0}));
  auto program =
      fb::CreateProgram(b, 0, b.CreateVector(std::vector<Offset<fb::ExecutionPlan>>{plan}));
  fb::FinishProgramBuffer(b, program);
  return Bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

ValueFn bool_value(bool v) {
  return [v](FlatBufferBuilder& b) {
    return fb::CreateEValue(b, fb::KernelTypes::Bool, fb::CreateBool(b, v).Union());
  };
}
ValueFn tensor_list(std::vector<int32_t> items) {
  return [items](FlatBufferBuilder& b) {
    return fb::CreateEValue(b, fb::KernelTypes::TensorList,
                            fb::CreateTensorList(b, b.CreateVector(items)).Union());
  };
}
InstrFn jump_false(int32_t cond, int32_t destination) {
  return [cond, destination](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::JumpFalseCall,
                                 fb::CreateJumpFalseCall(b, cond, destination).Union());
  };
}
InstrFn move_call(int32_t from, int32_t to) {
  return [from, to](FlatBufferBuilder& b) {
    return fb::CreateInstruction(b, fb::InstructionArguments::MoveCall,
                                 fb::CreateMoveCall(b, from, to).Union());
  };
}

void control_flow() {
  write("pte_jump_past_end.pte", build({bool_value(false)}, {{jump_false(0, 5)}}, {0}));
  write("pte_jump_negative.pte", build({bool_value(false)}, {{jump_false(0, -1)}}, {0}));
  // jump_false(false) to itself: an instruction loop, stopped by the budget.
  write("pte_instruction_loop.pte", build({bool_value(false)}, {{jump_false(0, 0)}}, {0}));
  // Two moves that swap forever through a backward jump (a cycle over values).
  write("pte_move_cycle_loop.pte",
        build({bool_value(false), bool_value(false), bool_value(false)},
              {{move_call(0, 1), move_call(1, 0), jump_false(2, 0)}}, {0}));
  write("pte_move_index_out_of_range.pte",
        build({bool_value(false)}, {{move_call(0, 9)}}, {0}));
  write("pte_jump_condition_out_of_range.pte",
        build({bool_value(false)}, {{jump_false(7, 0)}}, {0}));
  // Chains with no instructions, and a method with no chain: legal, run Ok.
  write("pte_empty_chains.pte", build({bool_value(true)}, {{}, {}}, {0}));
  write("pte_no_chains.pte", build({bool_value(true)}, {}, {0}));
  // An instruction kind past FreeCall (there is no call/return instruction:
  // see regression_test.cpp, NoRecursionIsExpressible).
  {
    Bytes b = build({bool_value(false)}, {{jump_false(0, 0)}}, {0});
    const fb::Instruction* in = plan(b)->chains()->Get(0)->instructions()->Get(0);
    patch<uint8_t>(b, field(in, fb::Instruction::VT_INSTR_ARGS_TYPE), uint8_t(6));
    write("pte_unknown_instruction_kind.pte", b);
  }
  // A tensor list that contains itself (a cyclic value).
  write("pte_tensor_list_self_cycle.pte", build({tensor_list({0})}, {}, {0}));
}

// ---- .bpte files.
Offset<bfb::Value> bundled_tensor(FlatBufferBuilder& b, std::vector<int32_t> sizes,
                                  std::vector<float> data) {
  std::vector<uint8_t> order;
  for (size_t i = 0; i < sizes.size(); ++i) order.push_back(uint8_t(i));
  b.ForceVectorAlignment(data.size() * 4, 1, 16);
  auto bytes = b.CreateVector(reinterpret_cast<const uint8_t*>(data.data()), data.size() * 4);
  auto t = bfb::CreateTensor(b, fb::ScalarType::FLOAT, b.CreateVector(sizes), bytes,
                             b.CreateVector(order));
  return bfb::CreateValue(b, bfb::ValueUnion::Tensor, t.Union());
}

Bytes bundle(const Bytes& program, int num_inputs, std::vector<int32_t> sizes,
             size_t data_floats) {
  FlatBufferBuilder b;
  std::vector<Offset<bfb::Value>> inputs;
  for (int i = 0; i < num_inputs; ++i) {
    inputs.push_back(bundled_tensor(b, sizes, std::vector<float>(data_floats, 1.0f)));
  }
  std::vector<Offset<bfb::Value>> outputs{
      bundled_tensor(b, sizes, std::vector<float>(data_floats, 2.0f))};
  auto test_case =
      bfb::CreateBundledMethodTestCase(b, b.CreateVector(inputs), b.CreateVector(outputs));
  auto suite = bfb::CreateBundledMethodTestSuite(
      b, b.CreateString("forward"),
      b.CreateVector(std::vector<Offset<bfb::BundledMethodTestCase>>{test_case}));
  b.ForceVectorAlignment(program.size(), 1, 32);
  auto program_bytes = b.CreateVector(program);
  auto root = bfb::CreateBundledProgram(
      b, 2, b.CreateVector(std::vector<Offset<bfb::BundledMethodTestSuite>>{suite}),
      program_bytes);
  bfb::FinishBundledProgramBuffer(b, root);
  return Bytes(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

void bundles() {
  const Bytes add = fixture("add");  // forward(x, y): two float [2, 3] tensors
  write("bpte_fewer_inputs_than_method.bpte", bundle(add, 1, {2, 3}, 6));
  write("bpte_more_inputs_than_method.bpte", bundle(add, 3, {2, 3}, 6));
  write("bpte_input_shape_mismatch.bpte", bundle(add, 2, {3, 2, 1}, 6));
  write("bpte_tensor_data_short.bpte", bundle(add, 2, {2, 3}, 5));
  write("bpte_tensor_size_negative.bpte", bundle(add, 2, {-2, 3}, 6));
  write("bpte_tensor_numel_overflow.bpte", bundle(add, 2, {0x7fffffff, 0x7fffffff, 4}, 6));
  const Bytes good = read(g_models + "/bundled/add.bpte");
  write("bpte_trunc_half.bpte", cut(good, good.size() / 2));
  write("bpte_trunc_header.bpte", cut(good, 8));
  Bytes bad_program = bundle(add, 2, {2, 3}, 6);
  // The embedded program's first bytes: its identifier is no longer ET12.
  const auto* root = bfb::GetBundledProgram(bad_program.data());
  patch<uint32_t>(bad_program, root->program()->data() + 4, 0x39395445u);  // "ET99"
  write("bpte_embedded_program_other_version.bpte", bad_program);
}

// ---- .npy files.
Bytes npy(const std::string& dict, size_t data_bytes, uint8_t major = 1) {
  std::string header = dict;
  const size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  if (major == 1) {
    out.push_back(uint8_t(header.size()));
    out.push_back(uint8_t(header.size() >> 8));
  } else {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(header.size() >> (8 * i)));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.resize(out.size() + data_bytes, 0);
  return out;
}

void npys() {
  write("npy_shape_negative.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }", 24));
  write("npy_shape_overflow.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, "
            "4294967296), }",
            16));
  write("npy_shape_2e31.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648,), }", 16));
  write("npy_data_short.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 23));
  Bytes long_header = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4, 2);
  long_header[8] = 0xff;
  long_header[9] = 0xff;
  long_header[10] = 0xff;
  long_header[11] = 0xff;  // header length 2^32 - 1
  write("npy_header_len_2e32.npy", long_header);
  write("npy_unterminated_dict.npy", npy("{'descr': '<f4', 'shape': (1,", 4));
  write("npy_trunc_magic.npy", Bytes{0x93, 'N', 'U', 'M'});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODELS_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  g_models = argv[1];
  g_out = argv[2];
  truncations();
  big_numbers();
  indices();
  control_flow();
  bundles();
  npys();
  return 0;
}

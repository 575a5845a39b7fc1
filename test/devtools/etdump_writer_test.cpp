// write_etdump: the bytes are a size-prefixed "ED00" flatbuffer that the
// verifier accepts, with upstream's blocks, events and keys, and tensors
// that point at their bytes in the debug buffer.
#include "devtools/etdump/etdump_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "devtools/etdump/etdump_schema_generated.h"
#include "runtime/core/error_message.h"
#include "test/utils/tensor_factory.h"

namespace ember::devtools {
namespace {

using ember::testing::make_tensor;
using ember::testing::OwnedTensor;

const ember_etdump::ETDump* parse(const std::vector<uint8_t>& bytes) {
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (!ember_etdump::VerifySizePrefixedETDumpBuffer(verifier)) return nullptr;
  if (!ember_etdump::SizePrefixedETDumpBufferHasIdentifier(bytes.data())) return nullptr;
  return ember_etdump::GetSizePrefixedETDump(bytes.data());
}

std::string str(const flatbuffers::String* s) { return s ? s->str() : "<null>"; }

// With EMBER_ETDUMP_TEST_OUT=<dir>, keeps the bytes for checking by hand
// with upstream's reader (executorch.devtools.etdump.serialize).
void maybe_keep(const std::string& name, const std::vector<uint8_t>& bytes) {
  const char* dir = std::getenv("EMBER_ETDUMP_TEST_OUT");
  if (dir == nullptr) return;
  FILE* f = std::fopen((std::string(dir) + "/" + name).c_str(), "wb");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
}

class EtdumpWriter : public ::testing::Test {
 protected:
  std::vector<uint8_t> events_ = std::vector<uint8_t>(1 << 16);
  std::vector<uint8_t> debug_ = std::vector<uint8_t>(1 << 12);
  EventRecorder recorder_{{events_.data(), events_.size()}, {debug_.data(), debug_.size()}};
};

TEST_F(EtdumpWriter, BlocksEventsAndKeys) {
  EventRecorder& r = recorder_;
  r.create_event_block("Default");
  r.end_profiling(r.start_profiling("Method::init"));
  r.set_bundled_input_index(2);
  r.create_event_block("Execute");
  EventTracerEntry run = r.start_profiling("Method::execute");
  r.set_chain_instruction(0, 5);
  EventTracerEntry op = r.start_profiling("OPERATOR_CALL");
  EventTracerEntry kernel = r.start_profiling("native_call_add.out");
  r.end_profiling(kernel);
  auto out = make_tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  r.log_value(EValue(out->tensor()), LoggedValueKind::IntermediateOutput);
  r.end_profiling(op);
  const uint8_t meta[] = {9, 8};
  r.log_profiling_delegate("xnn_runtime 0: nodes 0-3", kUnsetDelegateDebugId, 10, 20,
                           {meta, 2});
  r.log_profiling_delegate(nullptr, 7, 30, 40);
  r.log_delegate_output("xnn_runtime 0: nodes 0-3", kUnsetDelegateDebugId, out->tensor());
  r.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
  r.log_value(EValue(out->tensor()), LoggedValueKind::ProgramOutput);
  r.end_profiling(run);

  Result<std::vector<uint8_t>> bytes = write_etdump(r);
  ASSERT_TRUE(bytes.ok()) << last_error_message();
  maybe_keep("writer_keys.etdp", *bytes);
  uint32_t prefix;
  std::memcpy(&prefix, bytes->data(), 4);
  EXPECT_EQ(prefix + 4, bytes->size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes->data()) + 8, 4), "ED00");
  const ember_etdump::ETDump* etdump = parse(*bytes);
  ASSERT_NE(etdump, nullptr);
  EXPECT_EQ(etdump->version(), 0u);
  ASSERT_EQ(etdump->run_data()->size(), 2u);

  const auto* load = etdump->run_data()->Get(0);
  EXPECT_EQ(str(load->name()), "Default");
  EXPECT_EQ(load->bundled_input_index(), -1);
  EXPECT_EQ(load->allocators(), nullptr);
  ASSERT_EQ(load->events()->size(), 1u);
  EXPECT_EQ(str(load->events()->Get(0)->profile_event()->name()), "Method::init");

  const auto* exec = etdump->run_data()->Get(1);
  EXPECT_EQ(str(exec->name()), "Execute");
  EXPECT_EQ(exec->bundled_input_index(), 2);
  const auto* events = exec->events();
  ASSERT_EQ(events->size(), 8u);

  const auto* k = events->Get(0)->profile_event();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(events->Get(0)->debug_event(), nullptr);
  EXPECT_EQ(events->Get(0)->allocation_event(), nullptr);
  EXPECT_EQ(str(k->name()), "native_call_add.out");
  EXPECT_EQ(k->chain_index(), 0);
  EXPECT_EQ(k->instruction_id(), 5);
  EXPECT_EQ(k->delegate_debug_id_int(), -1);
  EXPECT_EQ(k->delegate_debug_id_str(), nullptr);
  EXPECT_LE(k->start_time(), k->end_time());

  const auto* d = events->Get(1)->debug_event();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->chain_index(), 0u);
  EXPECT_EQ(d->instruction_id(), 5);
  EXPECT_EQ(d->name(), nullptr);
  const auto* value = d->debug_entry();
  EXPECT_EQ(value->val(), ember_etdump::ValueType::Tensor);
  EXPECT_EQ(value->output(), nullptr);
  const auto* t = value->tensor();
  EXPECT_EQ(t->scalar_type(), ember_fb::ScalarType::FLOAT);
  ASSERT_EQ(t->sizes()->size(), 2u);
  EXPECT_EQ(t->sizes()->Get(0), 2);
  EXPECT_EQ(t->sizes()->Get(1), 3);
  EXPECT_EQ(t->strides()->Get(0), 3);
  EXPECT_EQ(t->strides()->Get(1), 1);
  EXPECT_EQ(t->offset(), 0);
  float got[6];
  std::memcpy(got, r.debug_buffer().data() + t->offset(), sizeof(got));
  EXPECT_EQ(got[5], 6.f);

  EXPECT_EQ(str(events->Get(2)->profile_event()->name()), "OPERATOR_CALL");

  const auto* by_name = events->Get(3)->profile_event();
  EXPECT_EQ(by_name->name(), nullptr);
  EXPECT_EQ(str(by_name->delegate_debug_id_str()), "xnn_runtime 0: nodes 0-3");
  EXPECT_EQ(by_name->delegate_debug_id_int(), -1);
  EXPECT_EQ(by_name->instruction_id(), 5);
  EXPECT_EQ(by_name->start_time(), 10u);
  EXPECT_EQ(by_name->end_time(), 20u);
  ASSERT_NE(by_name->delegate_debug_metadata(), nullptr);
  EXPECT_EQ(by_name->delegate_debug_metadata()->size(), 2u);
  EXPECT_EQ(by_name->delegate_debug_metadata()->Get(0), 9);
  const auto* by_id = events->Get(4)->profile_event();
  EXPECT_EQ(by_id->delegate_debug_id_int(), 7);
  EXPECT_EQ(by_id->delegate_debug_id_str(), nullptr);
  EXPECT_EQ(by_id->delegate_debug_metadata(), nullptr);

  const auto* delegate_out = events->Get(5)->debug_event();
  EXPECT_EQ(str(delegate_out->delegate_debug_id_str()), "xnn_runtime 0: nodes 0-3");
  EXPECT_EQ(delegate_out->debug_entry()->tensor()->offset(), 64);

  const auto* program_out = events->Get(6)->debug_event();
  ASSERT_NE(program_out->debug_entry()->output(), nullptr);
  EXPECT_TRUE(program_out->debug_entry()->output()->bool_val());
  EXPECT_EQ(program_out->instruction_id(), -1);
  EXPECT_EQ(program_out->debug_entry()->tensor()->offset(), 128);

  const auto* whole = events->Get(7)->profile_event();
  EXPECT_EQ(str(whole->name()), "Method::execute");
  EXPECT_EQ(whole->instruction_id(), -1);
  EXPECT_EQ(whole->chain_index(), -1);
}

TEST_F(EtdumpWriter, ScalarsListsAndEmptyTensors) {
  EventRecorder& r = recorder_;
  r.create_event_block("Execute");
  r.set_chain_instruction(1, 2);
  auto x = make_tensor<int32_t>(ScalarType::Int, {2}, {7, 8});
  OwnedTensor empty(ScalarType::Half, {0});
  EValue xv(x->tensor());
  EValue ev(empty.tensor());
  EValue* boxed[] = {&xv, &ev};
  Tensor unboxed[2];
  r.log_value(EValue(BoxedList<Tensor>(boxed, unboxed, 2)),
              LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(int64_t(-3)), LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(0.25), LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(false), LoggedValueKind::ProgramOutput);
  Result<std::vector<uint8_t>> bytes = write_etdump(r);
  ASSERT_TRUE(bytes.ok());
  maybe_keep("writer_values.etdp", *bytes);
  const ember_etdump::ETDump* etdump = parse(*bytes);
  ASSERT_NE(etdump, nullptr);
  const auto* events = etdump->run_data()->Get(0)->events();
  ASSERT_EQ(events->size(), 4u);
  const auto* list = events->Get(0)->debug_event()->debug_entry();
  EXPECT_EQ(list->val(), ember_etdump::ValueType::TensorList);
  ASSERT_EQ(list->tensor_list()->tensors()->size(), 2u);
  const auto* t0 = list->tensor_list()->tensors()->Get(0);
  EXPECT_EQ(t0->scalar_type(), ember_fb::ScalarType::INT);
  EXPECT_EQ(t0->offset(), 0);
  const auto* t1 = list->tensor_list()->tensors()->Get(1);
  EXPECT_EQ(t1->scalar_type(), ember_fb::ScalarType::HALF);
  EXPECT_EQ(t1->offset(), -1);
  EXPECT_EQ(t1->sizes()->Get(0), 0);
  EXPECT_EQ(events->Get(0)->debug_event()->chain_index(), 1u);
  EXPECT_EQ(events->Get(0)->debug_event()->instruction_id(), 2);

  const auto* i = events->Get(1)->debug_event()->debug_entry();
  EXPECT_EQ(i->val(), ember_etdump::ValueType::Int);
  EXPECT_EQ(i->int_value()->int_val(), -3);
  const auto* d = events->Get(2)->debug_event()->debug_entry();
  EXPECT_EQ(d->val(), ember_etdump::ValueType::Double);
  EXPECT_EQ(d->double_value()->double_val(), 0.25);
  const auto* b = events->Get(3)->debug_event()->debug_entry();
  EXPECT_EQ(b->val(), ember_etdump::ValueType::Bool);
  EXPECT_FALSE(b->bool_value()->bool_val());
  EXPECT_TRUE(b->output()->bool_val());
}

TEST_F(EtdumpWriter, EmptyRecorderWritesAnEmptyDump) {
  Result<std::vector<uint8_t>> bytes = write_etdump(recorder_);
  ASSERT_TRUE(bytes.ok());
  const ember_etdump::ETDump* etdump = parse(*bytes);
  ASSERT_NE(etdump, nullptr);
  EXPECT_EQ(etdump->run_data()->size(), 0u);
}

TEST_F(EtdumpWriter, ComplexTensorIsRefused) {
  recorder_.create_event_block("Execute");
  OwnedTensor c(ScalarType::ComplexFloat, {1});
  recorder_.log_value(EValue(c.tensor()), LoggedValueKind::IntermediateOutput);
  Result<std::vector<uint8_t>> bytes = write_etdump(recorder_);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("ComplexFloat"), std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::devtools

// EventRecorder: what it keeps, where tensor bytes go, and what happens
// when its buffers are full.
#include "devtools/event_recorder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test/utils/tensor_factory.h"

namespace ember::devtools {
namespace {

using ember::testing::make_tensor;
using ember::testing::OwnedTensor;

// Buffers for one recorder; the event buffer is deliberately misaligned.
struct Buffers {
  explicit Buffers(size_t event_bytes = 16384, size_t debug_bytes = 4096)
      : events(event_bytes + 1), debug(debug_bytes) {}
  Span<uint8_t> event_span() { return {events.data() + 1, events.size() - 1}; }
  Span<uint8_t> debug_span() { return {debug.data(), debug.size()}; }
  std::vector<uint8_t> events;
  std::vector<uint8_t> debug;
};

TEST(EventRecorder, ProfileEventsKeepNamesKeysAndTimes) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  std::string name = "Method::execute";
  EventTracerEntry outer = r.start_profiling(name.c_str());
  name.assign("overwritten by the caller");  // the recorder keeps its own copy
  r.set_chain_instruction(0, 7);
  EventTracerEntry op = r.start_profiling("OPERATOR_CALL");
  EventTracerEntry explicit_keys = r.start_profiling("explicit", 2, 3);
  r.end_profiling(explicit_keys);
  r.end_profiling(op);
  r.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
  r.end_profiling(outer);

  ASSERT_EQ(r.num_blocks(), 1u);
  EXPECT_STREQ(r.block(0).name, "Execute");
  EXPECT_EQ(r.block(0).first_event, 0u);
  ASSERT_EQ(r.num_events(), 3u);
  // Recorded when they end: inner events first.
  const RecordedEvent e0 = r.event(0);
  EXPECT_EQ(e0.kind, RecordedEventKind::Profile);
  EXPECT_STREQ(e0.name, "explicit");
  EXPECT_EQ(e0.chain_index, 2);
  EXPECT_EQ(e0.instruction_id, 3);
  const RecordedEvent e1 = r.event(1);
  EXPECT_STREQ(e1.name, "OPERATOR_CALL");
  EXPECT_EQ(e1.chain_index, 0);
  EXPECT_EQ(e1.instruction_id, 7);
  const RecordedEvent e2 = r.event(2);
  EXPECT_STREQ(e2.name, "Method::execute");
  EXPECT_EQ(e2.chain_index, kUnsetChainIndex);
  EXPECT_EQ(e2.instruction_id, kUnsetInstructionId);
  EXPECT_EQ(e2.delegate_debug_id_int, kUnsetDelegateDebugId);
  EXPECT_EQ(e2.delegate_debug_id_str, nullptr);
  EXPECT_LE(e2.start_ticks, e1.start_ticks);
  EXPECT_LE(e1.start_ticks, e1.end_ticks);
  EXPECT_LE(e1.end_ticks, e2.end_ticks);
  EXPECT_EQ(e2.block, 0u);
  EXPECT_EQ(r.dropped_events(), 0u);
  EXPECT_GT(r.event_bytes_used(), 0u);
  // Out of range reads give empty records.
  EXPECT_EQ(r.event(3).name, nullptr);
  EXPECT_STREQ(r.block(1).name, "");
}

TEST(EventRecorder, DelegateEventsCarryOneIdAndMetadata) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  r.set_chain_instruction(0, 4);
  EventTracerEntry by_name = r.start_profiling_delegate("xnn_runtime 0: nodes 0-5",
                                                        kUnsetDelegateDebugId);
  const uint8_t meta[] = {1, 2, 3};
  r.end_profiling_delegate(by_name, {meta, 3});
  EventTracerEntry by_id = r.start_profiling_delegate(nullptr, 42);
  r.end_profiling_delegate(by_id);
  r.log_profiling_delegate("both", 9, 100, 250);   // both: kept as given
  r.log_profiling_delegate(nullptr, kUnsetDelegateDebugId, 5, 6);  // neither
  ASSERT_EQ(r.num_events(), 4u);
  const RecordedEvent e0 = r.event(0);
  EXPECT_EQ(e0.name, nullptr);
  EXPECT_STREQ(e0.delegate_debug_id_str, "xnn_runtime 0: nodes 0-5");
  EXPECT_EQ(e0.delegate_debug_id_int, kUnsetDelegateDebugId);
  EXPECT_EQ(e0.chain_index, 0);
  EXPECT_EQ(e0.instruction_id, 4);
  ASSERT_EQ(e0.delegate_metadata.size(), 3u);
  EXPECT_EQ(e0.delegate_metadata[2], 3);
  const RecordedEvent e1 = r.event(1);
  EXPECT_EQ(e1.delegate_debug_id_str, nullptr);
  EXPECT_EQ(e1.delegate_debug_id_int, 42);
  EXPECT_TRUE(e1.delegate_metadata.empty());
  const RecordedEvent e2 = r.event(2);
  EXPECT_STREQ(e2.delegate_debug_id_str, "both");
  EXPECT_EQ(e2.delegate_debug_id_int, 9);
  EXPECT_EQ(e2.start_ticks, 100u);
  EXPECT_EQ(e2.end_ticks, 250u);
  const RecordedEvent e3 = r.event(3);
  EXPECT_EQ(e3.delegate_debug_id_str, nullptr);
  EXPECT_EQ(e3.delegate_debug_id_int, kUnsetDelegateDebugId);
}

TEST(EventRecorder, TensorsAre64ByteAlignedContiguousCopies) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  r.set_chain_instruction(0, 1);
  auto a = make_tensor<float>(ScalarType::Float, {3}, {1.f, 2.f, 3.f});
  auto c = make_tensor<int64_t>(ScalarType::Long, {2, 2}, {5, 6, 7, 8});
  r.log_value(EValue(a->tensor()), LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(c->tensor()), LoggedValueKind::ProgramOutput);
  ASSERT_EQ(r.num_events(), 2u);
  const RecordedEvent e0 = r.event(0);
  EXPECT_EQ(e0.kind, RecordedEventKind::Debug);
  EXPECT_EQ(e0.value.tag, Tag::Tensor);
  EXPECT_FALSE(e0.value.is_program_output);
  EXPECT_EQ(e0.value.num_tensors, 1u);
  EXPECT_EQ(e0.chain_index, 0);
  EXPECT_EQ(e0.instruction_id, 1);
  const RecordedTensor t0 = r.tensor(0, 0);
  EXPECT_EQ(t0.dtype, ScalarType::Float);
  ASSERT_EQ(t0.sizes.size(), 1u);
  EXPECT_EQ(t0.sizes[0], 3);
  EXPECT_EQ(t0.strides[0], 1);
  EXPECT_EQ(t0.offset, 0);
  EXPECT_EQ(t0.nbytes, 12u);
  EXPECT_TRUE(r.event(1).value.is_program_output);
  const RecordedTensor t1 = r.tensor(1, 0);
  EXPECT_EQ(t1.offset, 64);  // next 64-byte boundary after 12 bytes
  ASSERT_EQ(t1.strides.size(), 2u);
  EXPECT_EQ(t1.strides[0], 2);
  EXPECT_EQ(t1.strides[1], 1);
  const Span<const uint8_t> debug = r.debug_buffer();
  ASSERT_EQ(debug.size(), 64u + 32u);
  float f[3];
  std::memcpy(f, debug.data(), sizeof(f));
  EXPECT_EQ(f[2], 3.f);
  int64_t l[4];
  std::memcpy(l, debug.data() + 64, sizeof(l));
  EXPECT_EQ(l[0], 5);
  EXPECT_EQ(l[3], 8);
  EXPECT_EQ(r.tensor(1, 1).offset, -1);  // out of range
}

TEST(EventRecorder, PermutedDimOrderIsStoredRowMajor) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  // sizes {2, 3} stored with dim order {1, 0}: memory holds the transpose.
  OwnedTensor t(ScalarType::Int, {2, 3}, {1, 0});
  int32_t* mem = t.data<int32_t>();
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) mem[j * 2 + i] = 10 * i + j;
  }
  r.log_value(EValue(t.tensor()), LoggedValueKind::IntermediateOutput);
  ASSERT_EQ(r.num_events(), 1u);
  EXPECT_STREQ(r.block(0).name, "Default");  // implicit first block
  const RecordedTensor rt = r.tensor(0, 0);
  EXPECT_EQ(rt.strides[0], 3);
  EXPECT_EQ(rt.strides[1], 1);
  int32_t got[6];
  std::memcpy(got, r.debug_buffer().data() + rt.offset, sizeof(got));
  const int32_t want[6] = {0, 1, 2, 10, 11, 12};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(got[k], want[k]) << k;
}

TEST(EventRecorder, EmptyTensorHasNoOffsetAndStoresNothing) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  OwnedTensor empty(ScalarType::Float, {0, 4});
  r.log_value(EValue(empty.tensor()), LoggedValueKind::IntermediateOutput);
  ASSERT_EQ(r.num_events(), 1u);
  const RecordedTensor t = r.tensor(0, 0);
  EXPECT_EQ(t.offset, -1);
  EXPECT_EQ(t.nbytes, 0u);
  ASSERT_EQ(t.sizes.size(), 2u);
  EXPECT_EQ(t.sizes[0], 0);
  EXPECT_EQ(t.sizes[1], 4);
  EXPECT_EQ(r.debug_buffer().size(), 0u);
  EXPECT_EQ(r.dropped_tensors(), 0u);
}

TEST(EventRecorder, TensorListAndScalars) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  auto x = make_tensor<float>(ScalarType::Float, {2}, {1.f, 2.f});
  auto y = make_tensor<uint8_t>(ScalarType::Bool, {1}, {1});
  EValue xv(x->tensor());
  EValue yv(y->tensor());
  EValue* boxed[] = {&xv, &yv};
  Tensor unboxed[2];
  EValue list(BoxedList<Tensor>(boxed, unboxed, 2));
  r.log_value(list, LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(int64_t(-5)), LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(2.5), LoggedValueKind::ProgramOutput);
  r.log_value(EValue(true), LoggedValueKind::IntermediateOutput);
  r.log_value(EValue(), LoggedValueKind::IntermediateOutput);  // None: ignored
  ASSERT_EQ(r.num_events(), 4u);
  EXPECT_EQ(r.event(0).value.tag, Tag::ListTensor);
  EXPECT_EQ(r.event(0).value.num_tensors, 2u);
  EXPECT_EQ(r.tensor(0, 0).offset, 0);
  EXPECT_EQ(r.tensor(0, 1).offset, 64);
  EXPECT_EQ(r.tensor(0, 1).dtype, ScalarType::Bool);
  EXPECT_EQ(r.debug_buffer().data()[64], 1);
  EXPECT_EQ(r.event(1).value.tag, Tag::Int);
  EXPECT_EQ(r.event(1).value.int_value, -5);
  EXPECT_EQ(r.event(2).value.tag, Tag::Double);
  EXPECT_EQ(r.event(2).value.double_value, 2.5);
  EXPECT_TRUE(r.event(2).value.is_program_output);
  EXPECT_EQ(r.event(3).value.tag, Tag::Bool);
  EXPECT_TRUE(r.event(3).value.bool_value);
  EXPECT_EQ(r.dropped_events(), 0u);
}

TEST(EventRecorder, DelegateOutputIsKeyedByItsId) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  auto x = make_tensor<float>(ScalarType::Float, {1}, {4.f});
  r.log_delegate_output("native 1: nodes 3-3", kUnsetDelegateDebugId, x->tensor());
  r.log_delegate_output(nullptr, 17, x->tensor());
  ASSERT_EQ(r.num_events(), 2u);
  EXPECT_STREQ(r.event(0).delegate_debug_id_str, "native 1: nodes 3-3");
  EXPECT_EQ(r.event(0).name, nullptr);
  EXPECT_EQ(r.event(1).delegate_debug_id_int, 17);
  EXPECT_EQ(r.event(1).value.tag, Tag::Tensor);
}

TEST(EventRecorder, BlocksCarryTheBundledInputIndexSetBeforeThem) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Default");
  r.end_profiling(r.start_profiling("Method::init"));
  r.set_bundled_input_index(3);
  r.create_event_block("Execute");
  r.end_profiling(r.start_profiling("Method::execute"));
  r.set_bundled_input_index(-1);
  r.create_event_block("Execute");
  ASSERT_EQ(r.num_blocks(), 3u);
  EXPECT_EQ(r.block(0).bundled_input_index, -1);
  EXPECT_EQ(r.block(1).bundled_input_index, 3);
  EXPECT_EQ(r.block(1).first_event, 1u);
  EXPECT_EQ(r.block(2).bundled_input_index, -1);
  EXPECT_EQ(r.block(2).first_event, 2u);
  EXPECT_EQ(r.event(1).block, 1u);
  // Any order of reads gives the same blocks.
  EXPECT_EQ(r.block(2).first_event, 2u);
  EXPECT_STREQ(r.block(0).name, "Default");
  EXPECT_EQ(r.block(1).bundled_input_index, 3);
  EXPECT_EQ(r.block(3).first_event, 0u);  // out of range: empty record
  EXPECT_STREQ(r.block(2).name, "Execute");
}

TEST(EventRecorder, FullEventBufferDropsAndCounts) {
  Buffers b(1024, 4096);
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  for (int i = 0; i < 100; ++i) {
    r.end_profiling(r.start_profiling("OPERATOR_CALL"));
  }
  EXPECT_GT(r.num_events(), 0u);
  EXPECT_LT(r.num_events(), 100u);
  EXPECT_EQ(r.num_events() + r.dropped_events(), 100u);
  EXPECT_LE(r.event_bytes_used(), 1024u);
  for (size_t i = 0; i < r.num_events(); ++i) {
    EXPECT_STREQ(r.event(i).name, "OPERATOR_CALL");
  }
  // A block that does not fit drops the events after it, not into the
  // previous block.
  const size_t before = r.num_events();
  r.create_event_block("Execute");
  auto x = make_tensor<float>(ScalarType::Float, {1}, {1.f});
  r.log_value(EValue(x->tensor()), LoggedValueKind::IntermediateOutput);
  EXPECT_EQ(r.num_events(), before);
  EXPECT_EQ(r.debug_buffer().size(), 0u);  // no data kept for a dropped event
  r.reset();
  EXPECT_EQ(r.num_events(), 0u);
  EXPECT_EQ(r.dropped_events(), 0u);
  r.create_event_block("Execute");
  r.end_profiling(r.start_profiling("again"));
  EXPECT_EQ(r.num_events(), 1u);
}

TEST(EventRecorder, FullDebugBufferKeepsTheShape) {
  Buffers b(16384, 100);
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  auto x = make_tensor<float>(ScalarType::Float, {10}, std::vector<float>(10, 1.f));
  r.log_value(EValue(x->tensor()), LoggedValueKind::IntermediateOutput);  // 40 bytes at 0
  r.log_value(EValue(x->tensor()), LoggedValueKind::IntermediateOutput);  // 64 + 40 > 100
  ASSERT_EQ(r.num_events(), 2u);
  EXPECT_EQ(r.tensor(0, 0).offset, 0);
  EXPECT_EQ(r.tensor(1, 0).offset, -1);
  EXPECT_EQ(r.tensor(1, 0).sizes[0], 10);
  EXPECT_EQ(r.dropped_tensors(), 1u);
  EXPECT_EQ(r.debug_buffer().size(), 40u);

  EventRecorder no_debug(b.event_span());
  no_debug.log_value(EValue(x->tensor()), LoggedValueKind::IntermediateOutput);
  EXPECT_EQ(no_debug.tensor(0, 0).offset, -1);
  EXPECT_EQ(no_debug.dropped_tensors(), 1u);
}

TEST(EventRecorder, EntriesFromBeforeResetAreDropped) {
  Buffers b;
  EventRecorder r(b.event_span(), b.debug_span());
  r.create_event_block("Execute");
  EventTracerEntry stale = r.start_profiling("stale");
  r.reset();
  r.create_event_block("Execute");
  r.end_profiling(stale);
  EXPECT_EQ(r.num_events(), 0u);
  EXPECT_EQ(r.dropped_events(), 1u);
}

TEST(EventRecorder, TinyOrNullBuffersNeverCrash) {
  EventRecorder none({});
  none.create_event_block("Execute");
  none.end_profiling(none.start_profiling("x"));
  none.log_value(EValue(int64_t(1)), LoggedValueKind::IntermediateOutput);
  EXPECT_EQ(none.num_blocks(), 0u);
  EXPECT_EQ(none.num_events(), 0u);
  EXPECT_EQ(none.dropped_events(), 3u);
  uint8_t tiny[40];
  EventRecorder small({tiny, sizeof(tiny)});
  small.create_event_block("Execute");
  small.end_profiling(small.start_profiling("x"));
  EXPECT_EQ(small.num_events(), 0u);
}

}  // namespace
}  // namespace ember::devtools

// Tracing adds no heap allocation to an XNNPACK delegate's execute: with
// a tracer that keeps nothing (attached at load, so the runtimes time
// their operators; IntermediateOutputs, so step outputs are logged), the
// window around load_bundled_input and execute counts no allocation, as
// the same run without a tracer does (dynamic_seq's reshapes included).
// Its own binary: it replaces malloc (test/utils/heap_counter.h).
#include <gtest/gtest.h>

#include <cstdio>

#include "test/utils/heap_counter.h"
#include "test/xnnpack/xnnpack_trace_util.h"

namespace ember::testing {
namespace {

// Counts what it is told and reads every logged tensor's bytes.
class CountingTracer final : public EventTracer {
 public:
  size_t profile_events = 0;
  size_t delegate_events = 0;
  size_t outputs = 0;
  uint64_t checksum = 0;

  void create_event_block(const char*) override {}
  EventTracerEntry start_profiling(const char*, int32_t, int32_t) override {
    ++profile_events;
    return EventTracerEntry{};
  }
  void end_profiling(const EventTracerEntry&) override {}
  EventTracerEntry start_profiling_delegate(const char* name, int32_t) override {
    ++delegate_events;
    checksum += uint8_t(name[0]);
    return EventTracerEntry{};
  }
  void end_profiling_delegate(const EventTracerEntry&, Span<const uint8_t>) override {}
  void log_profiling_delegate(const char* name, int32_t, uint64_t, uint64_t,
                              Span<const uint8_t>) override {
    ++delegate_events;
    checksum += uint8_t(name[0]);
  }
  void log_value(const EValue&, LoggedValueKind) override {}
  void log_delegate_output(const char*, int32_t, const Tensor& t) override {
    ++outputs;
    const auto* p = static_cast<const uint8_t*>(t.const_data_ptr());
    for (size_t i = 0; i < t.nbytes(); ++i) checksum += p[i];
  }
};

// Allocations while running every test case of `l` (twice each).
long count_allocations(Loaded* l, Error* status) {
  Result<size_t> cases = l->bundle->num_test_cases("forward");
  *status = cases.ok() ? Error::Ok : cases.error();
  g_allocations = 0;
  g_counting = true;
  for (size_t k = 0; *status == Error::Ok && k < *cases * 2; ++k) {
    *status = load_bundled_input(*l->method, *l->bundle, k % *cases);
    if (*status == Error::Ok) *status = l->method->execute();
  }
  g_counting = false;
  return g_allocations.load();
}

TEST(XnnpackTraceNoHeap, TracedExecuteAllocatesNothing) {
  for (const char* name : {"q_tiny_cnn", "tiny_cnn", "tiny_attention", "partial",
                           "dynamic_seq"}) {
    SCOPED_TRACE(name);
    CountingTracer tracer;
    tracer.set_debug_level(EventTracerDebugLevel::IntermediateOutputs);
    Loaded traced, plain;
    ASSERT_TRUE(load(name, &tracer, &traced));
    ASSERT_TRUE(load(name, nullptr, &plain));
    Error status = Error::Ok;
    const long untraced = count_allocations(&plain, &status);
    ASSERT_EQ(status, Error::Ok) << last_error_message();
    const long with_tracer = count_allocations(&traced, &status);
    ASSERT_EQ(status, Error::Ok) << last_error_message();
    EXPECT_GT(tracer.delegate_events, 0u);
    EXPECT_GT(tracer.outputs, 0u);
    EXPECT_EQ(untraced, 0);
    EXPECT_EQ(with_tracer, 0);
    std::printf("%s: %ld allocations traced, %ld untraced; %zu delegate events, %zu outputs\n",
                name, with_tracer, untraced, tracer.delegate_events, tracer.outputs);
  }
}

}  // namespace
}  // namespace ember::testing

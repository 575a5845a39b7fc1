// A test EventTracer that keeps the name of every profiling event a run
// reports and counts those containing a given text ("fused:",
// "permute_copy"); everything else it is handed is dropped.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/event_tracer.h"

namespace ember::testing {

class EventNameCounter final : public EventTracer {
 public:
  size_t count(const char* part) const {
    size_t n = 0;
    for (const std::string& name : names_) n += name.find(part) != std::string::npos ? 1 : 0;
    return n;
  }
  void clear() { names_.clear(); }

  void create_event_block(const char*) override {}
  EventTracerEntry start_profiling(const char* name, int32_t, int32_t) override {
    names_.emplace_back(name);
    return {};
  }
  void end_profiling(const EventTracerEntry&) override {}
  EventTracerEntry start_profiling_delegate(const char*, int32_t) override { return {}; }
  void end_profiling_delegate(const EventTracerEntry&, Span<const uint8_t>) override {}
  void log_profiling_delegate(const char*, int32_t, uint64_t, uint64_t,
                              Span<const uint8_t>) override {}
  void log_value(const EValue&, LoggedValueKind) override {}
  void log_delegate_output(const char*, int32_t, const Tensor&) override {}

 private:
  std::vector<std::string> names_;
};

}  // namespace ember::testing

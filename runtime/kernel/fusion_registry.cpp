#include "runtime/kernel/fusion_registry.h"

#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/log.h"

namespace ember {
namespace {

struct FusionTable {
  FusionPattern patterns[kMaxFusionPatterns];
  size_t count = 0;
};

FusionTable& table() {
  static FusionTable instance;
  return instance;
}

}  // namespace

Error register_fusion(const FusionPattern& pattern) {
  FusionTable& t = table();
  if (pattern.count < 2 || pattern.count > kMaxFusedCalls || pattern.fn == nullptr) {
    EMBER_LOG(Error, "fusion %s is malformed", pattern.name);
    return Error::Internal;
  }
  if (t.count == kMaxFusionPatterns) {
    EMBER_LOG(Error, "fusion registry full; %s not registered", pattern.name);
    return Error::Internal;
  }
  t.patterns[t.count++] = pattern;
  return Error::Ok;
}

size_t num_fusion_patterns() { return table().count; }

const FusionPattern& fusion_pattern(size_t index) { return table().patterns[index]; }

}  // namespace ember

#include "runtime/kernel/operand_preparation.h"

#include "runtime/platform/log.h"

namespace ember {
namespace {

struct PreparationTable {
  OperandPreparation entries[kMaxOperandPreparations];
  size_t count = 0;
};

PreparationTable& table() {
  static PreparationTable instance;
  return instance;
}

}  // namespace

Error register_operand_preparation(const OperandPreparation& preparation) {
  PreparationTable& t = table();
  if (preparation.op == nullptr || preparation.bytes == nullptr ||
      preparation.prepare == nullptr) {
    EMBER_LOG(Error, "operand preparation %s is malformed", preparation.name);
    return Error::Internal;
  }
  if (t.count == kMaxOperandPreparations) {
    EMBER_LOG(Error, "operand preparation registry full; %s not registered", preparation.name);
    return Error::Internal;
  }
  t.entries[t.count++] = preparation;
  return Error::Ok;
}

size_t num_operand_preparations() { return table().count; }

const OperandPreparation& operand_preparation(size_t index) { return table().entries[index]; }

}  // namespace ember

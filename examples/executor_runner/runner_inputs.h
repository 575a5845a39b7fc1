// executor_runner: inputs from the command line (--inputs) and outputs to
// .npy files (--output_file).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/executor/method.h"

namespace ember::runner {

// Owns the tensors made from --inputs items; they must outlive execute().
class CommandLineInputs {
 public:
  CommandLineInputs();
  ~CommandLineInputs();
  CommandLineInputs(CommandLineInputs&&) noexcept;

  // Parses `items` (the comma-separated --inputs list), one per method
  // input, and sets them on `method`:
  //   NAME.npy  a tensor input: dtype and shape must match the method's
  //             (within the bound for a dynamic input); a scalar input: a
  //             0-d array of int64 / bool / float64;
  //   NAME.bin  a tensor input: raw bytes, exactly the byte size of the
  //             method's (upper-bound) shape;
  //   literal   a scalar input: an integer, a float, or true/false.
  // InvalidArgument / AccessFailed with a message naming the item.
  Error set(Method& method, const std::vector<std::string>& items);
  // Sets the inputs parsed by the last set() again (before another
  // execution: an output may have reused an input's memory).
  Error reapply(Method& method) const;

 private:
  struct Held;
  std::vector<std::unique_ptr<Held>> held_;
  std::vector<EValue> values_;
};

std::vector<std::string> split_list(const std::string& s, char sep);

// Writes output `index` of `method` to `path` as .npy (a scalar output as a
// 0-d array: int64, float64 or bool).
Error write_output_npy(const Method& method, size_t index, const std::string& path);

}  // namespace ember::runner

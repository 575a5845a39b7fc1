// What a session (session_file.h) captures of a loaded decoder method.
//
// State buffers: the tensors the method keeps between calls, its mutable
// buffers (the KV caches; for some exports a cache position buffer too).
// Upstream's exporter writes a graph's placeholders first, in torch.export's
// order (parameters, buffers, constants, then the user inputs), and gives a
// mutable buffer planned memory (a parameter or constant is constant data);
// so they are the method's memory-planned tensor values that come before
// its first input. Nothing else in planned memory outlives a call: the
// memory planner reuses it within the call.
//
// Identity: what a session is tied to, so that a file another program (or
// another method, or a re-export) wrote is refused. A 64-bit hash of the
// program file's flatbuffer (as its extended header delimits it; at most
// the first 16 MiB), its size and 64 blocks of 4 KiB spread over the rest
// of the file (the weights' segments), the same for each .ptd data file
// (flatbuffer part: its first 16 MiB), the method's name and its state
// buffers' table. The weights are sampled, not hashed whole, so restoring a
// session costs the same for a 100 MB model and a 10 GB one: any new
// checkpoint changes the sampled blocks, but an edit confined to the bytes
// between them would go unnoticed.
#pragma once

#include <string>
#include <vector>

#include "extension/llm/runner/session_file.h"
#include "runtime/core/result.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"

namespace ember::llm {

struct StateBuffer {
  SessionBufferInfo info;
  void* data = nullptr;  // the tensor's memory in the loaded method
  // Its initial value in the program (the tensor's data_buffer_idx and
  // mutable data segment), 0 when it has none and starts as zeros.
  uint32_t initial_buffer = 0;
  uint64_t initial_segments = 0;
};

// The state buffers of `method`, loaded from `program`, in value order.
// NotSupported (with a message naming the method) when it takes no inputs
// (they cannot be told apart then) or keeps no state.
Result<std::vector<StateBuffer>> find_state_buffers(const Program& program, const Method& method);

// Puts every buffer back as the method had it when it loaded: the
// program's initial value where it has one, zeros elsewhere (Module's
// planned memory starts zeroed; Method::parse_tensor then copies the initial
// values in). The errors of Program's mutable data loading.
Error reset_state_buffers(const Program& program, const std::vector<StateBuffer>& buffers);

// The identity above. AccessFailed (naming the file) when a file cannot be
// read.
Result<uint64_t> program_identity(const std::string& model_path,
                                  const std::vector<std::string>& data_paths,
                                  const std::string& method_name,
                                  const std::vector<StateBuffer>& buffers);

}  // namespace ember::llm

// Facts about a program read from its bytes alone, for the conformance
// report: how many kernel and delegate calls its methods make, which
// operators stay on portable kernels, which node types each XNNPACK blob
// holds, how big the delegate blobs and the constants are.
//
// Works on a .pte or a .bpte (the embedded program is read). Nothing is
// executed and no backend is initialized; the bytes are checked first with
// the runtime's own loader at InternalConsistency (flatbuffers Verifier,
// segment table, every method's indices) and read only through the
// runtime's views of validated methods (ProgramInternals::MethodTables in
// runtime/executor/program_internal.h), never the program flatbuffer
// itself; each XNNPACK blob's graph flatbuffer is verified before it is
// read, so malformed input gives an error, never a crash.
//
// Counting rules:
//   kernel_calls, delegate_calls  KernelCall / DelegateCall instructions over
//                                 every chain of every method.
//   undelegated_ops               "<operator name>.<overload>" (the overload
//                                 left out when empty) -> kernel calls.
//   operators                     the same keys for every entry of every
//                                 method's operator table (loading resolves
//                                 them all, called or not).
//   delegate_blobs, _blob_bytes   distinct processed blobs (inline entries or
//                                 segments) referenced by the methods'
//                                 delegates, and their byte sizes (the
//                                 serializer stores identical blobs once).
//   delegated_ops                 XnnpackBackend: the graph's nodes by their
//                                 union type name ("XNNConv2d"), for each
//                                 delegate (two delegates sharing one stored
//                                 blob count its nodes twice); any other
//                                 backend: "<backend id> call" -> delegate
//                                 calls.
//   constant_bytes                the constant segment's size plus the
//                                 inline constant_buffer storage.
//   delegated_percent             delegated / (delegated + kernel calls) *
//                                 100, where delegated is the sum of
//                                 delegated_ops (0 when both are 0).
//   pte_bytes                     the program's size (a .bpte: the embedded
//                                 program's).
// Names read from the file are escaped (printable ASCII, \xNN otherwise).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "conformance/case_result.h"
#include "runtime/core/result.h"

namespace ember::conformance {

// The facts of the program in `data` (a .pte or a .bpte), which is only
// read during the call (the bytes are copied to aligned memory first, so
// any alignment will do). Errors, each with last_error_message():
// InvalidProgram for bytes that are not a well-formed program or bundled
// program (truncated, garbage, an index out of range, a malformed XNNPACK
// blob); DelegateInvalidCompatibility for an XNNPACK blob of an unknown
// graph version.
Result<ProgramFacts> program_facts(const void* data, size_t size);

// The same for a file. AccessFailed when it cannot be read.
Result<ProgramFacts> program_facts_from_file(const std::string& path);

// An operator's name without its overload, in the program's spelling, so
// that a program's kernels ("aten::add.out") compare with the exporter's
// edge operators ("aten::add.Tensor", "aten.add.Tensor", "aten::convolution"):
// all give "aten::add" or "aten::convolution". A name without a namespace is
// returned unchanged.
std::string operator_base_name(const std::string& name);

// Counts summed by operator_base_name().
template <typename Count>
std::map<std::string, Count> by_operator_base_name(const std::map<std::string, Count>& counts) {
  std::map<std::string, Count> out;
  for (const auto& entry : counts) out[operator_base_name(entry.first)] += entry.second;
  return out;
}

}  // namespace ember::conformance

// What the XNNPACK delegate reports to the method's EventTracer
// (runtime/core/event_tracer.h) while it runs. Every event is keyed by a
// name (delegate_debug_id stays kUnsetDelegateDebugId); the tracer adds
// the chain and instruction of the DelegateCall.
//
//   step       a profiling event around each step of the plan
//              (xnn_compiler.h), named "<kind> <step>: nodes <first>-<last>"
//              where the nodes are XNode indices of the blob, <step>
//              counts from 0 in run order and <kind> is "xnn_runtime" for
//              an XNNPACK runtime or "native:<route>" for one of the
//              delegate's own steps, the routing table's row name with
//              '_' for spaces:
//                "xnn_runtime 0: nodes 0-11"
//                "native:qs8_global_average_pooling 1: nodes 12-12"
//   operator   inside an XNNPACK step, one event per XNNPACK operator,
//              named "<XNNPACK's operator name> #<i>" (i counts operators
//              over all runtimes of the delegate, from 0), laid end to end
//              from the start of the runtime's invoke with the durations
//              XNNPACK measured (whole microseconds, so they sum to no more
//              than the invoke) and clamped to the invoke's end. Only when
//              a tracer was attached when the method loaded: the runtimes
//              are then created with XNN_FLAG_BASIC_PROFILING (one clock
//              read per operator); a tracer attached later gets step
//              events only.
//   outputs    at EventTracerDebugLevel::IntermediateOutputs, after each
//              step, the values it writes that a later step or the
//              delegate's outputs read (log_delegate_output, the step's
//              name), as contiguous tensors in XNNPACK's layout (NHWC for
//              a convolution's activations) with the runtime's dtype
//              (qint8 as Char, quint8 as Byte, qint32 as Int: the raw
//              quantized values); values of other datatypes are skipped.
//
// Profiling events follow the tracer's profile_instructions() switch, as
// the method's own per-instruction events do.
//
// Phases: describe_steps() at init, after compile_plan() (names, outputs,
// operator names: allocates); run_plan_traced() per execution (no
// allocation: the logged tensors' metadata lives on the stack).
#pragma once

#include "backends/xnnpack/xnn_compiler.h"
#include "runtime/core/event_tracer.h"

namespace ember::xnnpack {

// Fills each step's trace_name and outputs and, for a plan compiled with
// `profiling`, its XNNPACK operators' event names and timing scratch.
// Cannot fail: a runtime that reports no operators gets no operator
// events (logged at Debug).
void describe_steps(Plan* plan);

// run_plan() with the events above reported to `tracer`. The values
// computed are the same as run_plan()'s.
Error run_plan_traced(Plan* plan, EventTracer& tracer);

}  // namespace ember::xnnpack

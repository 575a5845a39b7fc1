// EMBER_NODE_CHECK(cond, fmt, ...): the native steps' init-time checks.
// When `cond` is false, sets the error message to "XNNPACK node <index>
// (<type>): <detail>" and returns InvalidProgram from the enclosing
// function, which must have a `const Node& node` in scope. No heap: the
// detail is formatted on the stack, the message into the fixed buffer.
#pragma once

#include <cstdio>

#include "backends/xnnpack/xnn_graph.h"
#include "runtime/core/error_message.h"

#define EMBER_NODE_CHECK(cond, ...)                                               \
  do {                                                                            \
    if (!(cond)) {                                                                \
      char detail_[160];                                                          \
      snprintf(detail_, sizeof(detail_), __VA_ARGS__);                            \
      ::ember::set_error_message("XNNPACK node %zu (%s): %s", node.index,         \
                                 ::ember::xnnpack::node_type_name(node.type),     \
                                 detail_);                                        \
      return ::ember::Error::InvalidProgram;                                      \
    }                                                                             \
  } while (0)

// The per-thread error message (runtime/core/error_message.h), and
// prefix_error_message's contract: context in front, the fallback when
// nothing was recorded, truncation from the end.
#include "runtime/core/error_message.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "runtime/core/error.h"

namespace ember {
namespace {

TEST(ErrorMessage, SetAppendClear) {
  set_error_message("value %d", 7);
  EXPECT_STREQ(last_error_message(), "value 7");
  append_error_message(" (method '%s')", "forward");
  EXPECT_STREQ(last_error_message(), "value 7 (method 'forward')");
  clear_error_message();
  EXPECT_STREQ(last_error_message(), "");
}

TEST(ErrorMessage, PrefixPutsContextInFront) {
  set_error_message("size -3 is negative");
  prefix_error_message(error_name(Error::InvalidArgument), "input %zu", size_t(2));
  EXPECT_STREQ(last_error_message(), "input 2: size -3 is negative");
  // Prefixes nest, outermost context first.
  prefix_error_message(error_name(Error::InvalidArgument), "method '%s'", "forward");
  EXPECT_STREQ(last_error_message(), "method 'forward': input 2: size -3 is negative");
}

TEST(ErrorMessage, PrefixUsesFallbackWhenNothingWasRecorded) {
  clear_error_message();
  prefix_error_message(error_name(Error::InvalidProgram), "instruction %d failed", 4);
  EXPECT_STREQ(last_error_message(), "instruction 4 failed: InvalidProgram");
  clear_error_message();
  prefix_error_message(nullptr, "context");
  EXPECT_STREQ(last_error_message(), "context: ");
}

TEST(ErrorMessage, PrefixKeepsContextAndCutsThePreviousMessageAtItsEnd) {
  const std::string previous(kMaxErrorMessage - 1, 'x');
  set_error_message("%s", previous.c_str());
  prefix_error_message("unused", "ctx");
  const std::string now = last_error_message();
  EXPECT_EQ(now.size(), kMaxErrorMessage - 1);
  EXPECT_EQ(now.substr(0, 5), "ctx: ");
  EXPECT_EQ(now.substr(5), previous.substr(0, kMaxErrorMessage - 1 - 5));
}

TEST(ErrorMessage, PrefixLongerThanTheBufferKeepsOnlyTheContext) {
  set_error_message("cause");
  const std::string context(kMaxErrorMessage + 10, 'c');
  prefix_error_message("unused", "%s", context.c_str());
  EXPECT_EQ(std::string(last_error_message()), context.substr(0, kMaxErrorMessage - 1));
}

TEST(ErrorMessage, PrefixMayFormatTheMessageItReplaces) {
  // The previous message is moved before the context is written, so an
  // argument pointing into the message buffer is read before it changes.
  set_error_message("cause");
  prefix_error_message("unused", "[%s]", last_error_message());
  EXPECT_STREQ(last_error_message(), "[cause]: cause");
}

TEST(ErrorMessage, IsPerThread) {
  set_error_message("main thread");
  std::thread([] {
    EXPECT_STREQ(last_error_message(), "");
    set_error_message("worker");
    prefix_error_message("unused", "in worker");
    EXPECT_STREQ(last_error_message(), "in worker: worker");
  }).join();
  EXPECT_STREQ(last_error_message(), "main thread");
}

}  // namespace
}  // namespace ember

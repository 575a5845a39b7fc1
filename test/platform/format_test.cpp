// Ember's formatter against written-out expected text (format_cases.h).
#include <gtest/gtest.h>

#include "test/platform/format_cases.h"

namespace ember {
namespace {

TEST(Format, CasesGiveTheWrittenOutText) {
  const int failures = format_cases::run(
      [](const char* name, const char* want, const char* got, bool ok) {
        EXPECT_TRUE(ok) << name << ": want '" << want << "', got '" << got << "'";
      });
  EXPECT_EQ(failures, 0);
}

TEST(Format, ZeroSizeWritesNothingAndCounts) {
  char sentinel = 'x';
  EXPECT_EQ(format_text(&sentinel, 0, "%d", 12345), 5u);
  EXPECT_EQ(sentinel, 'x');
}

}  // namespace
}  // namespace ember

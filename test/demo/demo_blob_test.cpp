// The demo backend's blob reader (backends/demo/demo_blob.h) on hand-made
// and mutated text: what upstream's demo compiler writes parses; every
// malformed variant (truncated, unknown instruction, wrong counts, bad
// numbers, other versions) is an Error with a message, never a crash.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "backends/demo/demo_blob.h"
#include "runtime/core/error_message.h"

namespace ember::demo {
namespace {

// What the demo compiler wrote for the tutorial's first partition.
const std::string kMmAdd =
    "2version:0#op:demo::aten.mm.default, numel:4, dtype:torch.float32<debug_handle>1#"
    "op:demo::aten.add.Tensor, numel:4, dtype:torch.float32<debug_handle>2#";
const std::string kSin =
    "1version:0#op:demo::aten.sin.default, numel:1, dtype:torch.float32<debug_handle>1#";

Error parse(const std::string& text, std::vector<DemoInstruction>* out = nullptr) {
  std::vector<DemoInstruction> local(kMaxDemoInstructions);
  size_t count = 0;
  const Error err = parse_demo_blob(text.data(), text.size(), local.data(), local.size(), &count);
  if (out != nullptr) out->assign(local.begin(), local.begin() + count);
  return err;
}

std::string message() { return last_error_message(); }

TEST(DemoBlob, ParsesWhatTheDemoCompilerWrites) {
  std::vector<DemoInstruction> ins;
  ASSERT_EQ(parse(kMmAdd, &ins), Error::Ok) << message();
  ASSERT_EQ(ins.size(), 2u);
  EXPECT_EQ(ins[0].op, DemoOp::Mm);
  EXPECT_EQ(ins[0].numel, 4);
  EXPECT_EQ(ins[0].debug_handle, 1);
  EXPECT_EQ(ins[1].op, DemoOp::Add);
  EXPECT_EQ(ins[1].debug_handle, 2);

  ASSERT_EQ(parse(kSin, &ins), Error::Ok) << message();
  ASSERT_EQ(ins.size(), 1u);
  EXPECT_EQ(ins[0].op, DemoOp::Sin);

  // A node without a debug handle is written with -1; the ATen sin too.
  ASSERT_EQ(parse("1version:0#op:demo::sin.default, numel:0, dtype:torch.float32"
                  "<debug_handle>-1#", &ins), Error::Ok) << message();
  EXPECT_EQ(ins[0].op, DemoOp::Sin);
  EXPECT_EQ(ins[0].numel, 0);
  EXPECT_EQ(ins[0].debug_handle, -1);
}

TEST(DemoBlob, ValidatesWithoutOutput) {
  size_t count = 0;
  ASSERT_EQ(parse_demo_blob(kMmAdd.data(), kMmAdd.size(), nullptr, 0, &count), Error::Ok);
  EXPECT_EQ(count, 2u);
  // An output array too small for the declared count is refused up front.
  DemoInstruction one[1];
  EXPECT_EQ(parse_demo_blob(kMmAdd.data(), kMmAdd.size(), one, 1, &count),
            Error::InvalidProgram);
  EXPECT_NE(message().find("room for 1"), std::string::npos) << message();
}

TEST(DemoBlob, EveryTruncationFails) {
  // Every proper prefix is malformed; none reads past its end (the parser
  // gets the exact size, no NUL).
  for (size_t n = 0; n < kMmAdd.size(); ++n) {
    std::vector<char> exact(kMmAdd.begin(), kMmAdd.begin() + n);
    size_t count = 0;
    const Error err = parse_demo_blob(exact.data(), exact.size(), nullptr, 0, &count);
    EXPECT_EQ(err, Error::InvalidProgram) << "prefix of " << n << " bytes";
    EXPECT_FALSE(message().empty());
  }
  const std::string cut = kMmAdd.substr(0, kMmAdd.size() - 20);
  EXPECT_EQ(parse(cut), Error::InvalidProgram);
  EXPECT_NE(message().find("instruction 1"), std::string::npos) << message();
  EXPECT_NE(message().find("blob ends"), std::string::npos) << message();
}

TEST(DemoBlob, UnknownInstructionIsNamedEscaped) {
  std::string text = kSin;
  text.replace(text.find("aten.sin.default"), 16, "aten.s\x01n.default");
  EXPECT_EQ(parse(text), Error::InvalidProgram);
  EXPECT_NE(message().find("unknown operator 'demo::aten.s\\x01n.default'"), std::string::npos)
      << message();
  EXPECT_NE(message().find("instruction 0"), std::string::npos) << message();
}

TEST(DemoBlob, CompilerOnlyOperatorsAreNotSupported) {
  for (const char* op : {"aten.linear.default", "aten.scaled_dot_product_attention.default",
                         "aten.upsample_nearest2d.vec"}) {
    std::string text = "1version:0#op:demo::" + std::string(op) +
                       ", numel:6, dtype:torch.float32<debug_handle>3#";
    EXPECT_EQ(parse(text), Error::NotSupported) << op;
    EXPECT_NE(message().find(op), std::string::npos) << message();
  }
}

TEST(DemoBlob, CountsMustAgree) {
  std::string more = kMmAdd;
  more[0] = '3';
  EXPECT_EQ(parse(more), Error::InvalidProgram);
  EXPECT_NE(message().find("declares 3 instructions, the blob holds 2"), std::string::npos)
      << message();

  std::string fewer = kMmAdd;
  fewer[0] = '1';
  EXPECT_EQ(parse(fewer), Error::InvalidProgram);
  EXPECT_NE(message().find("more follow"), std::string::npos) << message();

  EXPECT_EQ(parse("0version:0#"), Error::InvalidProgram);
  EXPECT_NE(message().find("1 to 64"), std::string::npos) << message();
  EXPECT_EQ(parse("99999999999version:0#"), Error::InvalidProgram);
  EXPECT_EQ(parse("9999999999999999999999version:0#"), Error::InvalidProgram);  // > 18 digits
  EXPECT_EQ(parse("-1version:0#"), Error::InvalidProgram);
}

TEST(DemoBlob, OtherVersionsAreIncompatible) {
  std::string text = kSin;
  text.replace(text.find("version:0"), 9, "version:1");
  EXPECT_EQ(parse(text), Error::DelegateInvalidCompatibility);
  EXPECT_NE(message().find("version 1"), std::string::npos) << message();
}

TEST(DemoBlob, FieldsAreChecked) {
  struct Case {
    const char* from;
    const char* to;
    Error err;
    const char* says;
  };
  const Case cases[] = {
      {", numel:1", ", numel:x", Error::InvalidProgram, "element count"},
      {", numel:1", ",numel:1", Error::InvalidProgram, "', numel:'"},
      {"dtype:torch.float32", "dtype:torch.int64", Error::NotSupported, "torch.int64"},
      {"dtype:torch.float32", "dtype:float", Error::InvalidProgram, "not a torch dtype"},
      {"<debug_handle>1", "<debug_handle>", Error::InvalidProgram, "debug handle"},
      {"<debug_handle>1", "<debug_handle>-7", Error::InvalidProgram, "outside"},
      {"<debug_handle>1", "<debug_handle>99999999999", Error::InvalidProgram, "outside"},
      {"<debug_handle>1#", "<debug_handle>1;", Error::InvalidProgram, "'#'"},
      {"op:demo::", "op:demx::", Error::InvalidProgram, "'op:demo::'"},
      {"1version", "1versio", Error::InvalidProgram, "'version:'"},
  };
  for (const Case& c : cases) {
    std::string text = kSin;
    text.replace(text.find(c.from), std::string(c.from).size(), c.to);
    EXPECT_EQ(parse(text), c.err) << text;
    EXPECT_NE(message().find(c.says), std::string::npos) << text << ": " << message();
  }
  // A name without its comma within the field limit.
  std::string long_name = "1version:0#op:demo::" + std::string(200, 'a');
  EXPECT_EQ(parse(long_name), Error::InvalidProgram);
  // Trailing bytes after the last instruction.
  EXPECT_EQ(parse(kSin + "\n"), Error::InvalidProgram);
}

TEST(DemoBlob, MutatedBlobsNeverCrash) {
  // Random byte flips, insertions and cuts: each parse returns (Ok only if
  // the text still follows the grammar) and the instructions it reports
  // stay within the output array.
  std::mt19937 rng(1234);
  const std::string base = kMmAdd;
  size_t ok = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    std::string text = base;
    const int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = char(rng() % 256); break;
        case 1: text.insert(text.begin() + long(at), char(rng() % 256)); break;
        default: text.resize(at); break;
      }
    }
    std::vector<DemoInstruction> ins;
    if (parse(text, &ins) == Error::Ok) {
      ++ok;
      EXPECT_LE(ins.size(), kMaxDemoInstructions);
    } else {
      EXPECT_FALSE(message().empty());
    }
  }
  EXPECT_LT(ok, 5000u);
}

}  // namespace
}  // namespace ember::demo

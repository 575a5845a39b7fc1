// The scan of kernels/selective_build.cmake (the table ember_list_ops
// prints and selective builds pick files from) against the registry the
// linked kernels really fill: every registered operator has exactly one
// row and every row is registered. A registration the scan cannot read
// (a name through a constant in kernels/portable) fails here.
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

struct Row {
  const char* op;
  const char* file;
};

constexpr Row kTable[] = {
#include "list_ops_kernel_table.inc"
};

TEST(KernelRegistrations, ScanMatchesTheRegistry) {
  std::multiset<std::string> registered;
  for (size_t i = 0; i < num_registered_kernels(); ++i) {
    EXPECT_STREQ(registered_kernel(i).key, "") << registered_kernel(i).name;
    registered.insert(registered_kernel(i).name);
  }
  std::map<std::string, std::string> scanned;
  for (const Row& row : kTable) {
    EXPECT_TRUE(scanned.emplace(row.op, row.file).second) << row.op << " scanned twice";
  }
  for (const std::string& op : registered) {
    EXPECT_EQ(registered.count(op), 1u) << op << " registered twice";
    EXPECT_EQ(scanned.count(op), 1u) << op << " is registered but the scan missed it";
  }
  for (const auto& [op, file] : scanned) {
    EXPECT_EQ(registered.count(op), 1u) << op << " (" << file << ") scanned, not registered";
  }
  EXPECT_GE(registered.size(), 250u);
}

TEST(KernelRegistrations, FilesFollowTheLayout) {
  std::map<std::string, std::string> scanned;
  for (const Row& row : kTable) scanned[row.op] = row.file;
  EXPECT_EQ(scanned["aten::add.out"], "kernels/portable/op_add.cpp");
  EXPECT_EQ(scanned["aten::add.Scalar_out"], "kernels/portable/op_add.cpp");
  EXPECT_EQ(scanned["llama::custom_sdpa.out"], "kernels/llm/op_custom_sdpa.cpp");
  EXPECT_EQ(scanned["executorch_prim::add.Scalar"], "kernels/prim_ops/prim_scalar_ops.cpp");
  EXPECT_EQ(scanned["aten::sym_size.int"], "kernels/prim_ops/prim_tensor_ops.cpp");
}

}  // namespace
}  // namespace ember

// External weights (.ptd): FlatTensorDataMap over upstream-exported files,
// programs whose constants live there (portable, and XNNPACK-delegated when
// the delegate is built) loaded through the file, mmap and buffer loaders,
// run and compared with PyTorch; and the errors: no data file, a missing
// key, a wrong size or layout, a file that is not a .ptd.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/data_loader/file_data_loader.h"
#include "extension/data_loader/mmap_data_loader.h"
#include "extension/module/module.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/flat_tensor_data_map.h"
#include "test/runtime/fixture_util.h"

namespace ember::testing {
namespace {

std::string external(const std::string& file) { return models_dir() + "/external/" + file; }

// Loads `program` with `data` files through `mode` and returns the error of
// the method load (Ok when it loaded).
Error method_load_error(const std::string& program, const std::vector<std::string>& data,
                        Module::LoadMode mode = Module::LoadMode::Mmap) {
  Result<std::unique_ptr<Module>> module = Module::load(external(program), data, mode);
  if (!module.ok()) return module.error();
  Result<Method*> method = (*module)->method("forward");
  return method.ok() ? Error::Ok : method.error();
}

// ---- the reader ----------------------------------------------------------

TEST(FlatTensorDataMap, ReadsUpstreamPortableFile) {
  for (int use_mmap = 0; use_mmap < 2; ++use_mmap) {
    SCOPED_TRACE(use_mmap ? "mmap" : "file");
    std::unique_ptr<DataLoader> loader;
    if (use_mmap) {
      Result<MmapDataLoader> l = MmapDataLoader::from(external("portable.ptd").c_str());
      ASSERT_TRUE(l.ok()) << last_error_message();
      loader = std::make_unique<MmapDataLoader>(std::move(*l));
    } else {
      Result<FileDataLoader> l = FileDataLoader::from(external("portable.ptd").c_str());
      ASSERT_TRUE(l.ok()) << last_error_message();
      loader = std::make_unique<FileDataLoader>(std::move(*l));
    }
    Result<FlatTensorDataMap> map = FlatTensorDataMap::load(loader.get());
    ASSERT_TRUE(map.ok()) << last_error_message();
    EXPECT_EQ(map->num_keys(), 5u);
    EXPECT_STREQ(*map->get_key(0), "fc1.weight");
    EXPECT_EQ(map->get_key(5).error(), Error::InvalidArgument);

    Result<FreeableBuffer> weight = map->get_data("fc1.weight");
    ASSERT_TRUE(weight.ok()) << last_error_message();
    EXPECT_EQ(weight->size(), 16u * 8u * sizeof(float));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(weight->data()) % alignof(float), 0u);
    // mmap serves the weights in place (the same bytes every time); the
    // file loader copies them into a buffer of their own.
    Result<FreeableBuffer> again = map->get_data("fc1.weight");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->data() == weight->data(), use_mmap == 1);
    EXPECT_EQ(std::memcmp(again->data(), weight->data(), weight->size()), 0);
    Result<TensorLayoutView> layout = map->get_tensor_layout("fc1.weight");
    ASSERT_TRUE(layout.ok());
    EXPECT_EQ(layout->dtype, ScalarType::Float);
    ASSERT_EQ(layout->sizes.size(), 2u);
    EXPECT_EQ(layout->sizes[0], 16);
    EXPECT_EQ(layout->sizes[1], 8);

    Result<FreeableBuffer> missing = map->get_data("fc3.weight\n");
    EXPECT_EQ(missing.error(), Error::NotFound);
    EXPECT_NE(std::strstr(last_error_message(), "'fc3.weight\\x0a'"), nullptr)
        << last_error_message();
  }
}

TEST(FlatTensorDataMap, ReadsDelegateKeysWithoutLayout) {
  Result<FileDataLoader> loader = FileDataLoader::from(external("xnnpack.ptd").c_str());
  ASSERT_TRUE(loader.ok());
  Result<FlatTensorDataMap> map = FlatTensorDataMap::load(&*loader);
  ASSERT_TRUE(map.ok()) << last_error_message();
  EXPECT_EQ(map->num_keys(), 5u);
  size_t with_layout = 0;
  for (size_t i = 0; i < map->num_keys(); ++i) {
    with_layout += map->get_tensor_layout(*map->get_key(i)).ok() ? 1 : 0;
  }
  EXPECT_EQ(with_layout, 1u);  // 'offset', outside the delegate
}

TEST(FlatTensorDataMap, RefusesAProgramAndShortFiles) {
  std::vector<uint8_t> pte = read_file_bytes(external("portable.pte"));
  BufferDataLoader as_program(pte.data(), pte.size());
  EXPECT_EQ(FlatTensorDataMap::load(&as_program).error(), Error::InvalidExternalData);
  EXPECT_NE(std::strstr(last_error_message(), "program"), nullptr) << last_error_message();

  std::vector<uint8_t> ptd = read_file_bytes(external("portable.ptd"));
  for (size_t size : {size_t(0), size_t(7), size_t(40), size_t(600), ptd.size() - 1}) {
    SCOPED_TRACE(size);
    BufferDataLoader cut(ptd.data(), size);
    EXPECT_EQ(FlatTensorDataMap::load(&cut).error(), Error::InvalidExternalData);
    EXPECT_NE(std::strstr(last_error_message(), "truncated"), nullptr)
        << last_error_message();
  }
}

// ---- programs with external weights ------------------------------------

struct Case {
  const char* program;
  Module::LoadMode mode;
};

class ExternalWeights : public ::testing::TestWithParam<Case> {};

TEST_P(ExternalWeights, RunsAndMatchesPyTorch) {
  const std::string program = GetParam().program;
  Result<std::unique_ptr<Module>> module =
      Module::load(external(program + ".pte"), {external(program + ".ptd")}, GetParam().mode);
  ASSERT_TRUE(module.ok()) << last_error_message();
  Result<Method*> method = (*module)->method("forward");
  ASSERT_TRUE(method.ok()) << last_error_message();
  run_and_check(**method, "external", "forward");
}

std::vector<Case> cases() {
  std::vector<Case> out;
  std::vector<const char*> programs = {"portable"};
#ifdef EMBER_TEST_XNNPACK
  programs.push_back("xnnpack");
#endif
  for (const char* p : programs) {
    for (Module::LoadMode m :
         {Module::LoadMode::File, Module::LoadMode::Mmap, Module::LoadMode::Buffer}) {
      out.push_back({p, m});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ExternalWeights, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Module::LoadMode m = info.param.mode;
                           return std::string(info.param.program) +
                                  (m == Module::LoadMode::File   ? "_file"
                                   : m == Module::LoadMode::Mmap ? "_mmap"
                                                                 : "_buffer");
                         });

TEST(ExternalWeightsErrors, NoDataFile) {
  EXPECT_EQ(method_load_error("portable.pte", {}), Error::NotFound);
  EXPECT_NE(std::strstr(last_error_message(), "'fc1.weight'"), nullptr)
      << last_error_message();
  EXPECT_NE(std::strstr(last_error_message(), "without one"), nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, DataFileThatDoesNotExist) {
  EXPECT_EQ(method_load_error("portable.pte", {external("missing.ptd")}),
            Error::AccessFailed);
  EXPECT_NE(std::strstr(last_error_message(), "missing.ptd"), nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, DataFileThatIsNotAPtd) {
  EXPECT_EQ(method_load_error("portable.pte", {external("portable.pte")}),
            Error::InvalidExternalData);
  EXPECT_NE(std::strstr(last_error_message(), "portable.pte"), nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, MissingKey) {
  // xnnpack.ptd holds 'offset' and delegate keys, not 'fc1.weight'.
  EXPECT_EQ(method_load_error("portable.pte", {external("xnnpack.ptd")}), Error::NotFound);
  EXPECT_NE(std::strstr(last_error_message(), "external tensor 'fc1.weight' is in none"),
            nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, SeveralFilesFirstMatchWins) {
  // Every key of portable.pte is in portable.ptd, the second file.
  EXPECT_EQ(method_load_error("portable.pte", {external("xnnpack.ptd"), external("portable.ptd")}),
            Error::Ok)
      << last_error_message();
}

TEST(ExternalWeightsErrors, TooManyOrNullMaps) {
  std::vector<uint8_t> pte = read_file_bytes(external("portable.pte"));
  BufferDataLoader loader(pte.data(), pte.size());
  const NamedDataMap* maps[Program::kMaxDataMaps + 1] = {};
  EXPECT_EQ(Program::load(&loader, Program::Verification::Minimal, {maps, 1}).error(),
            Error::InvalidArgument);
  EXPECT_EQ(Program::load(&loader, Program::Verification::Minimal,
                          {maps, Program::kMaxDataMaps + 1})
                .error(),
            Error::InvalidArgument);
}

// A map that changes what a real map answers for one key.
class AlteredMap final : public NamedDataMap {
 public:
  enum class Change { ShortBytes, OtherDtype, OtherSizes };
  AlteredMap(const NamedDataMap* inner, const char* key, Change change)
      : inner_(inner), key_(key), change_(change) {}
  Result<FreeableBuffer> get_data(const char* key) const override {
    Result<FreeableBuffer> data = inner_->get_data(key);
    if (!data.ok() || std::strcmp(key, key_) != 0 || change_ != Change::ShortBytes) {
      return data;
    }
    return FreeableBuffer(data->data(), data->size() - 4, nullptr);
  }
  Result<TensorLayoutView> get_tensor_layout(const char* key) const override {
    Result<TensorLayoutView> layout = inner_->get_tensor_layout(key);
    if (!layout.ok() || std::strcmp(key, key_) != 0) return layout;
    TensorLayoutView view = *layout;
    if (change_ == Change::OtherDtype) view.dtype = ScalarType::Int;
    if (change_ == Change::OtherSizes) view.sizes = {kSwapped, 2};
    return view;
  }

 private:
  static constexpr int32_t kSwapped[2] = {8, 16};
  const NamedDataMap* inner_;
  const char* key_;
  Change change_;
};

Error load_with_altered(AlteredMap::Change change) {
  std::vector<uint8_t> pte = read_file_bytes(external("portable.pte"));
  BufferDataLoader loader(pte.data(), pte.size());
  Result<FileDataLoader> data_loader = FileDataLoader::from(external("portable.ptd").c_str());
  if (!data_loader.ok()) return data_loader.error();
  Result<FlatTensorDataMap> map = FlatTensorDataMap::load(&*data_loader);
  if (!map.ok()) return map.error();
  AlteredMap altered(&*map, "fc1.weight", change);
  const NamedDataMap* maps[] = {&altered};
  Result<Program> program = Program::load(&loader, Program::Verification::Minimal, {maps, 1});
  if (!program.ok()) return program.error();
  std::vector<uint8_t> pool(1 << 20);
  std::vector<uint8_t> planned(1 << 16);
  Span<uint8_t> spans[] = {{planned.data(), planned.size()}};
  MemoryAllocator method_allocator(pool.data(), pool.size());
  HierarchicalAllocator planned_memory({spans, 1});
  MemoryManager memory(&method_allocator, &planned_memory);
  Result<Method> method = program->load_method("forward", &memory);
  return method.ok() ? Error::Ok : method.error();
}

TEST(ExternalWeightsErrors, WrongSize) {
  EXPECT_EQ(load_with_altered(AlteredMap::Change::ShortBytes), Error::InvalidExternalData);
  EXPECT_NE(std::strstr(last_error_message(), "'fc1.weight' has 508 bytes"), nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, WrongDtypeOrSizes) {
  EXPECT_EQ(load_with_altered(AlteredMap::Change::OtherDtype), Error::InvalidExternalData);
  EXPECT_NE(std::strstr(last_error_message(), "'fc1.weight' is a Int tensor"), nullptr)
      << last_error_message();
  EXPECT_EQ(load_with_altered(AlteredMap::Change::OtherSizes), Error::InvalidExternalData);
}

#ifdef EMBER_TEST_XNNPACK
TEST(ExternalWeightsErrors, DelegateKeyMissing) {
  // portable.ptd has 'offset' (outside the delegate) but none of the
  // delegate's keys.
  EXPECT_NE(method_load_error("xnnpack.pte", {external("portable.ptd")}), Error::Ok);
  EXPECT_NE(std::strstr(last_error_message(), "no named data with key"), nullptr)
      << last_error_message();
}

TEST(ExternalWeightsErrors, DelegateReadsFromSecondFile) {
  EXPECT_EQ(method_load_error("xnnpack.pte", {external("portable.ptd"), external("xnnpack.ptd")}),
            Error::Ok)
      << last_error_message();
}
#endif

}  // namespace
}  // namespace ember::testing

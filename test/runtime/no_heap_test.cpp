// Proves that loading and executing a program allocate nothing from the
// heap: this binary replaces malloc/calloc/realloc/aligned_alloc and
// operator new for the whole process (test/utils/heap_counter.h) and
// counts calls while a window is open. Inside the window: Program::load
// (buffer loader), MethodMeta, load_method, set_input and execute for
// every fixture, with all memory carved from static arrays.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "extension/data_loader/buffer_data_loader.h"
#include "extension/npy/npy.h"
#include "runtime/core/error_message.h"
#include "runtime/executor/flat_tensor_data_map.h"
#include "runtime/executor/program.h"
#include "test/utils/heap_counter.h"

namespace ember {
namespace {

alignas(64) uint8_t g_method_pool[512 * 1024];
alignas(64) uint8_t g_planned_pool[2 * 1024 * 1024];
alignas(64) uint8_t g_temp_pool[1024 * 1024];
alignas(64) uint8_t g_output_pool[64 * 1024];

struct Input {
  NpyArray array;
  SizesType sizes[kMaxTensorDim];
  DimOrderType dim_order[kMaxTensorDim];
  StridesType strides[kMaxTensorDim];
};

std::vector<uint8_t> read_all(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  std::vector<uint8_t> bytes;
  if (!f) return bytes;
  fseek(f, 0, SEEK_END);
  bytes.resize(size_t(ftell(f)));
  fseek(f, 0, SEEK_SET);
  bytes.resize(fread(bytes.data(), 1, bytes.size(), f));
  fclose(f);
  return bytes;
}

TEST(NoHeap, LoadAndExecuteEveryFixture) {
  const char* fixtures[] = {"add", "linear", "linear_inline", "stateful", "dynamic",
                            "int_bool", "mlp", "convnet", "scalar_ops", "two_methods",
                            "io/unplanned_portable"};
  for (const char* name : fixtures) {
    SCOPED_TRACE(name);
    const std::string dir = std::string(EMBER_TEST_MODELS_DIR) + "/" + name;
    const std::vector<uint8_t> bytes = read_all(dir + "/model.pte");
    ASSERT_FALSE(bytes.empty());
    // Inputs are read before the window (npy parsing uses the heap).
    std::vector<Input> inputs(8);
    size_t num_inputs = 0;
    for (; num_inputs < inputs.size(); ++num_inputs) {
      Result<NpyArray> a = read_npy(dir + "/forward/run0/input" +
                                    std::to_string(num_inputs) + ".npy");
      if (!a.ok()) break;
      inputs[num_inputs].array = std::move(*a);
    }
    Span<uint8_t> planned_spans[8];

    g_allocations = 0;
    g_counting = true;
    Error status = Error::Ok;
    {
      BufferDataLoader loader(bytes.data(), bytes.size());
      Result<Program> program =
          Program::load(&loader, Program::Verification::InternalConsistency);
      status = program.ok() ? Error::Ok : program.error();
      if (program.ok()) {
        Result<MethodMeta> meta = program->method_meta("forward");
        size_t offset = 0;
        size_t count = meta.ok() ? meta->num_memory_planned_buffers() : 0;
        for (size_t i = 0; i < count && i < 8; ++i) {
          const size_t size = size_t(*meta->memory_planned_buffer_size(i));
          planned_spans[i] = Span<uint8_t>(g_planned_pool + offset, size);
          offset += (size + 63) & ~size_t(63);
        }
        HierarchicalAllocator planned(Span<Span<uint8_t>>(planned_spans, count));
        MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
        MemoryAllocator temp(g_temp_pool, sizeof(g_temp_pool));
        MemoryManager memory(&method_allocator, &planned, &temp);
        Result<Method> method = program->load_method("forward", &memory);
        status = method.ok() ? Error::Ok : method.error();
        for (size_t i = 0; method.ok() && status == Error::Ok && i < num_inputs; ++i) {
          Input& in = inputs[i];
          const size_t dim = in.array.shape.size();
          for (size_t d = 0; d < dim; ++d) {
            in.sizes[d] = in.array.shape[d];
            in.dim_order[d] = DimOrderType(d);
          }
          TensorImpl impl(in.array.dtype, dim, in.sizes, in.array.data.data(), in.dim_order,
                          in.strides);
          const Tag tag = method->method_meta().input_tag(i).get();
          EValue value = tag == Tag::Int ? EValue(*in.array.as<int64_t>())
                         : tag == Tag::Tensor ? EValue(Tensor(&impl))
                                              : method->get_input(i);
          status = method->set_input(value, i);
        }
        // Outputs the program leaves to the application get the caller's
        // memory.
        size_t output_offset = 0;
        for (size_t i = 0; method.ok() && status == Error::Ok && i < method->outputs_size();
             ++i) {
          Result<TensorInfo> info = method->method_meta().output_tensor_meta(i);
          if (!info.ok() || info->is_memory_planned()) continue;
          status = method->set_output_data_ptr(g_output_pool + output_offset,
                                               sizeof(g_output_pool) - output_offset, i);
          output_offset += (info->nbytes() + 63) & ~size_t(63);
        }
        if (method.ok() && status == Error::Ok) status = method->execute();
      }
    }
    g_counting = false;
    EXPECT_EQ(status, Error::Ok) << last_error_message();
    EXPECT_EQ(g_allocations.load(), 0) << "heap allocations while loading and executing";
  }
}

TEST(NoHeap, ExternalWeights) {
  // A program whose weights are in a .ptd: the data map, the program with
  // it, the method (EXTERNAL tensors resolved) and a run, all without heap.
  const std::string dir = std::string(EMBER_TEST_MODELS_DIR) + "/external";
  const std::vector<uint8_t> pte = read_all(dir + "/portable.pte");
  const std::vector<uint8_t> ptd = read_all(dir + "/portable.ptd");
  ASSERT_FALSE(pte.empty());
  ASSERT_FALSE(ptd.empty());
  Result<NpyArray> input = read_npy(dir + "/forward/run0/input0.npy");
  ASSERT_TRUE(input.ok());
  SizesType sizes[2] = {SizesType(input->shape[0]), SizesType(input->shape[1])};
  DimOrderType dim_order[2] = {0, 1};
  StridesType strides[2];

  g_allocations = 0;
  g_counting = true;
  Error status = Error::Ok;
  {
    BufferDataLoader data_loader(ptd.data(), ptd.size());
    Result<FlatTensorDataMap> map = FlatTensorDataMap::load(&data_loader);
    status = map.ok() ? Error::Ok : map.error();
    if (map.ok()) {
      BufferDataLoader loader(pte.data(), pte.size());
      const NamedDataMap* maps[] = {&*map};
      Result<Program> program =
          Program::load(&loader, Program::Verification::InternalConsistency, {maps, 1});
      status = program.ok() ? Error::Ok : program.error();
      if (program.ok()) {
        Span<uint8_t> planned_spans[1] = {{g_planned_pool, 64 * 1024}};
        HierarchicalAllocator planned(Span<Span<uint8_t>>(planned_spans, 1));
        MemoryAllocator method_allocator(g_method_pool, sizeof(g_method_pool));
        MemoryAllocator temp(g_temp_pool, sizeof(g_temp_pool));
        MemoryManager memory(&method_allocator, &planned, &temp);
        Result<Method> method = program->load_method("forward", &memory);
        status = method.ok() ? Error::Ok : method.error();
        if (method.ok()) {
          TensorImpl impl(input->dtype, 2, sizes, input->data.data(), dim_order, strides);
          status = method->set_input(EValue(Tensor(&impl)), 0);
          if (status == Error::Ok) status = method->execute();
        }
      }
    }
  }
  g_counting = false;
  EXPECT_EQ(status, Error::Ok) << last_error_message();
  EXPECT_EQ(g_allocations.load(), 0) << "heap allocations with external weights";
}

TEST(NoHeap, CounterSeesAllocations) {
  // The interposition works: an allocation inside the window is counted.
  g_allocations = 0;
  g_counting = true;
  void* volatile p = malloc(16);
  g_counting = false;
  free(p);
  EXPECT_EQ(g_allocations.load(), 1);
}

}  // namespace
}  // namespace ember

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

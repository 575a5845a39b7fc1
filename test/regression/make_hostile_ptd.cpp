// Writes the hand-made hostile external data files (ptd_*.ptd) of
// test/regression/, each one structural lie patched into the committed
// upstream-exported test/models/external/portable.ptd:
//   build/test/regression/make_hostile_ptd test/models test/regression
// The expected Error of each file is in test/regression/MANIFEST; the
// regression test loads each as a FlatTensorDataMap and, when that succeeds,
// runs test/models/external/portable.pte with it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test/regression/hostile_file_util.h"
#include "schema/flat_tensor_generated.h"

namespace {

namespace ft = ember_ft;
using ember::hostile::Bytes;
using ember::hostile::field;
using ember::hostile::patch;
using ember::hostile::read;

std::string g_models;
std::string g_out;

void write(const std::string& name, const Bytes& bytes) { ember::hostile::write(g_out, name, bytes); }

// Header fields, at their file offsets.
constexpr size_t kHeaderMagic = 8, kHeaderLength = 12, kFlatbufferSize = 24,
                 kSegmentBase = 32, kSegmentDataSize = 40;

const ft::FlatTensor* root(const Bytes& b) { return ft::GetFlatTensor(b.data()); }
const ft::NamedData* entry(const Bytes& b, uint32_t i) { return root(b)->named_data()->Get(i); }
const ft::TensorLayout* layout(const Bytes& b, uint32_t i) { return entry(b, i)->tensor_layout(); }

// named_data[i]'s key bytes, to rename it in place (same length).
void rename(Bytes& b, uint32_t i, const char* key) {
  const flatbuffers::String* s = entry(b, i)->key();
  if (std::strlen(key) != s->size()) {
    fprintf(stderr, "rename: length differs\n");
    exit(1);
  }
  std::memcpy(b.data() + (reinterpret_cast<const uint8_t*>(s->data()) - b.data()), key,
              s->size());
}

void truncations(const Bytes& base) {
  write("ptd_trunc_empty.ptd", Bytes());
  write("ptd_trunc_in_header.ptd", Bytes(base.begin(), base.begin() + 30));
  write("ptd_trunc_in_flatbuffer.ptd", Bytes(base.begin(), base.begin() + 300));
  write("ptd_trunc_last_segment_byte.ptd", Bytes(base.begin(), base.end() - 1));
}

void header_lies(const Bytes& base) {
  {
    Bytes b = base;
    b[kHeaderMagic + 1] = 'X';
    write("ptd_header_bad_magic.ptd", b);
  }
  {
    Bytes b = base;
    b[6] = '9';
    b[7] = '9';
    write("ptd_other_version.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint32_t>(b, b.data() + kHeaderLength, 8);
    write("ptd_header_length_short.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint64_t>(b, b.data() + kFlatbufferSize, ~uint64_t(0) - 7);
    write("ptd_flatbuffer_size_near_2e64.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint64_t>(b, b.data() + kSegmentBase, ~uint64_t(0) - 7);
    write("ptd_segment_base_near_2e64.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint64_t>(b, b.data() + kSegmentBase, 16);  // inside the flatbuffer
    write("ptd_segment_base_inside_flatbuffer.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint64_t>(b, b.data() + kSegmentDataSize, ~uint64_t(0));
    write("ptd_segment_data_size_2e64.ptd", b);
  }
}

void table_lies(const Bytes& base) {
  {
    Bytes b = base;
    const ft::DataSegment* seg = root(b)->segments()->Get(0);
    patch<uint64_t>(b, field(seg, ft::DataSegment::VT_SIZE), ~uint64_t(0) - 3);
    write("ptd_segment_size_near_2e64.ptd", b);
  }
  {
    Bytes b = base;
    const ft::DataSegment* seg = root(b)->segments()->Get(4);
    patch<uint64_t>(b, field(seg, ft::DataSegment::VT_OFFSET), 1024 + 8);
    write("ptd_segment_past_data.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint32_t>(b, field(entry(b, 1), ft::NamedData::VT_SEGMENT_INDEX), 99);
    write("ptd_segment_index_out_of_range.ptd", b);
  }
  {
    Bytes b = base;
    rename(b, 2, "fc1.weight");  // was fc2.weight
    write("ptd_duplicate_key.ptd", b);
  }
  {
    Bytes b = base;
    const flatbuffers::String* s = entry(b, 2)->key();  // fc2.weight -> fc2\0weight
    b[size_t(reinterpret_cast<const uint8_t*>(s->data()) - b.data()) + 3] = 0;
    write("ptd_key_with_nul.ptd", b);
  }
  {
    Bytes b = base;
    patch<int8_t>(b, field(layout(b, 0), ft::TensorLayout::VT_SCALAR_TYPE), 100);
    write("ptd_layout_unknown_dtype.ptd", b);
  }
  {
    Bytes b = base;
    patch<int32_t>(b, layout(b, 0)->sizes()->data(), -16);
    write("ptd_layout_size_negative.ptd", b);
  }
  {
    Bytes b = base;
    patch<int32_t>(b, layout(b, 0)->sizes()->data(), 0x7fffffff);
    patch<int32_t>(b, layout(b, 0)->sizes()->data() + 1, 0x7fffffff);
    write("ptd_layout_numel_overflow.ptd", b);
  }
  {
    Bytes b = base;
    patch<uint8_t>(b, layout(b, 0)->dim_order()->data() + 1, 0);
    write("ptd_layout_dim_order_not_permutation.ptd", b);
  }
}

// Files the reader accepts, which the program must refuse.
void program_lies(const Bytes& base) {
  {
    Bytes b = base;
    rename(b, 0, "fc9.weight");
    write("ptd_program_key_missing.ptd", b);
  }
  {
    // fc2.weight points at fc1.bias's 64 bytes, its layout shrunk to fit.
    Bytes b = base;
    patch<uint32_t>(b, field(entry(b, 2), ft::NamedData::VT_SEGMENT_INDEX), 1);
    patch<int32_t>(b, layout(b, 2)->sizes()->data() + 1, 4);
    write("ptd_program_tensor_size_mismatch.ptd", b);
  }
  {
    Bytes b = base;
    patch<int8_t>(b, field(layout(b, 0), ft::TensorLayout::VT_SCALAR_TYPE), 3);  // Int
    write("ptd_program_tensor_dtype_mismatch.ptd", b);
  }
  {
    Bytes b = base;
    patch<int32_t>(b, layout(b, 0)->sizes()->data(), 8);
    patch<int32_t>(b, layout(b, 0)->sizes()->data() + 1, 16);
    write("ptd_program_tensor_sizes_swapped.ptd", b);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODELS_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  g_models = argv[1];
  g_out = argv[2];
  const Bytes base = read(g_models + "/external/portable.ptd");
  truncations(base);
  header_lies(base);
  table_lies(base);
  program_lies(base);
  write("ptd_is_a_program.ptd", read(g_models + "/external/portable.pte"));
  return 0;
}

// Seeds for xnnpack_payload_fuzzer: writes the processed blob of every
// delegate in the given .pte / .bpte files to OUT_DIR (scripts/fuzz.sh runs
// it on test/models/xnnpack/*.bpte).
//   extract_delegate_blobs OUT_DIR FILE...
#include <cstdio>
#include <string>
#include <vector>

#include "bundled_program/bundled_program.h"
#include "extension/data_loader/buffer_data_loader.h"
#include "fuzz/fuzz_util.h"
#include "runtime/executor/program.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT_DIR FILE...\n", argv[0]);
    return 2;
  }
  int written = 0;
  for (int a = 2; a < argc; ++a) {
    FILE* f = fopen(argv[a], "rb");
    if (f == nullptr) continue;
    std::vector<uint8_t> file;
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) file.insert(file.end(), buf, buf + n);
    fclose(f);
    ember::fuzz::Bytes bytes = ember::fuzz::aligned_copy(file.data(), file.size());
    ember::Result<ember::ProgramView> view = ember::ProgramView::open(bytes.get(), file.size());
    if (!view.ok()) continue;
    ember::BufferDataLoader loader(view->program_data(), view->program_size());
    ember::Result<ember::Program> program = ember::Program::load(&loader);
    if (!program.ok()) continue;
    const auto* plans = ember::ProgramInternals(*program).flatbuffer()->execution_plan();
    for (uint32_t p = 0; plans != nullptr && p < plans->size(); ++p) {
      const auto* delegates = plans->Get(p)->delegates();
      for (uint32_t d = 0; delegates != nullptr && d < delegates->size(); ++d) {
        ember::Result<ember::FreeableBuffer> blob =
            ember::ProgramInternals(*program).load_delegate_data(delegates->Get(d)->processed());
        if (!blob.ok()) continue;
        std::string base = argv[a];
        base = base.substr(base.find_last_of('/') + 1);
        const std::string out = std::string(argv[1]) + "/" + base + "." + std::to_string(p) +
                                "." + std::to_string(d) + ".blob";
        FILE* o = fopen(out.c_str(), "wb");
        if (o == nullptr) return 1;
        fwrite(blob->data(), 1, blob->size(), o);
        fclose(o);
        ++written;
      }
    }
  }
  printf("%d delegate blobs written to %s\n", written, argv[1]);
  return 0;
}

// The XNNPACK delegate's packed weights: a weights cache (XNNPACK's
// xnn_weights_cache_provider) shared by a plan's runtimes and, for static
// plans, by every plan of the method (xnn_shared_workspace.h): the
// partitioner gives each time step of a recurrent layer its own delegate,
// all reading one weight, which is then packed once.
//
// XNNPACK packs a convolution's or fully connected node's static filter
// and bias when the runtime is created, then reads only the packed copy.
// Going through a cache of our own lets the delegate (1) keep one packed
// copy per (filter, bias, packing) key across the plan's runtimes and
// (2) release the program's bytes of a constant as soon as the one node
// that reads it has packed it (release_after_packing): the mmap loader
// drops those pages, the file loader frees its copy. The weights are then
// resident once, not twice, including at the peak of method load.
#pragma once

#include <xnnpack.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/freeable_buffer.h"

namespace ember::xnnpack {

class WeightsCache {
 public:
  WeightsCache();
  ~WeightsCache();
  WeightsCache(const WeightsCache&) = delete;
  WeightsCache& operator=(const WeightsCache&) = delete;

  // What xnn_create_runtime_v4 takes.
  xnn_weights_cache_t provider() { return &provider_; }

  // The bytes at `data` are the program's named data `key` while the
  // current plan creates its runtimes: packed blocks are found again by
  // key by the method's later plans. Other bytes match only within the
  // plan that packed them (an address may be reused once freed).
  void name_source(const void* data, const std::string& key);

  // Once XNNPACK has packed weights read from `data` (a cache key's filter
  // or bias), `buffer` is freed. The caller promises nothing else reads
  // those bytes afterwards; `buffer` must outlive the cache's use.
  void release_after_packing(const void* data, FreeableBuffer* buffer);

  // After the last runtime is created: XNNPACK sets up only runtimes whose
  // cache says it is finalized; nothing is inserted afterwards (until
  // reopen()). Pending releases are dropped.
  void finalize();
  // Before another plan of the same method creates its runtimes with this
  // cache (xnn_shared_workspace.h): a method's delegates are created one
  // after another at load, before any of them runs.
  void reopen();

  size_t packed_bytes() const;    // held by the cache
  size_t released_bytes() const;  // program bytes freed after packing
  size_t entries() const;

 private:
  // What a key's filter or bias pointer stands for: a named-data key, or
  // (unnamed) the pointer within one plan's generation; null is null.
  struct Source {
    const void* ptr = nullptr;
    std::string name;
    size_t generation = 0;
  };
  struct Entry {
    size_t seed;
    Source kernel, bias;
    void* data;
    size_t size;
  };
  struct Named {
    const void* data;
    std::string key;
  };
  struct Release {
    const void* data;
    FreeableBuffer* buffer;
  };

  static size_t look_up(void* self, const xnn_weights_cache_look_up_key* key);
  static void* reserve_space(void* self, size_t n);
  static size_t look_up_or_insert(void* self, const xnn_weights_cache_look_up_key* key,
                                  void* ptr, size_t size);
  static bool is_finalized(void* self);
  static void* offset_to_addr(void* self, size_t offset);
  static xnn_status delete_cache(void* self);

  size_t find(const xnn_weights_cache_look_up_key& key) const;  // SIZE_MAX if absent
  Source source_of(const void* ptr) const;
  static bool same_source(const Source& a, const Source& b);
  void release_source(const void* data);

  mutable std::mutex mutex_;  // XNNPACK may call from several threads
  std::vector<Entry> entries_;
  std::vector<Release> releases_;
  std::vector<Named> named_;  // the current plan's, cleared by finalize()
  size_t generation_ = 0;     // counts reopen()s
  void* pending_ = nullptr;  // the last reserve_space() block, not yet inserted
  size_t pending_size_ = 0;
  size_t packed_bytes_ = 0;
  size_t released_bytes_ = 0;
  bool finalized_ = false;
  xnn_weights_cache_provider provider_;
};

}  // namespace ember::xnnpack

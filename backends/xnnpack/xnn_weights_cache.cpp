// WeightsCache (xnn_weights_cache.h): offsets handed to XNNPACK are entry
// indices; each packed block is its own aligned allocation.
#include "backends/xnnpack/xnn_weights_cache.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ember::xnnpack {
namespace {

constexpr size_t kNotFound = SIZE_MAX;  // XNNPACK's XNN_CACHE_NOT_FOUND
constexpr size_t kAlignment = 128;      // at least XNN_ALLOCATION_ALIGNMENT

void* allocate(size_t n) {
  void* p = nullptr;
  return posix_memalign(&p, kAlignment, n == 0 ? 1 : n) == 0 ? p : nullptr;
}

bool same_key(const xnn_weights_cache_look_up_key& a, const xnn_weights_cache_look_up_key& b) {
  return a.seed == b.seed && a.kernel == b.kernel && a.bias == b.bias;
}

}  // namespace

WeightsCache::WeightsCache() {
  provider_.context = this;
  provider_.look_up = &WeightsCache::look_up;
  provider_.reserve_space = &WeightsCache::reserve_space;
  provider_.look_up_or_insert = &WeightsCache::look_up_or_insert;
  provider_.is_finalized = &WeightsCache::is_finalized;
  provider_.offset_to_addr = &WeightsCache::offset_to_addr;
  provider_.delete_cache = &WeightsCache::delete_cache;
}

WeightsCache::~WeightsCache() {
  for (Entry& e : entries_) std::free(e.data);
  std::free(pending_);
}

void WeightsCache::release_after_packing(const void* data, FreeableBuffer* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  releases_.push_back({data, buffer});
}

size_t WeightsCache::packed_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return packed_bytes_;
}

size_t WeightsCache::released_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return released_bytes_;
}

size_t WeightsCache::entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t WeightsCache::find(const xnn_weights_cache_look_up_key& key) const {
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (same_key(entries_[i].key, key)) return i;
  }
  return kNotFound;
}

void WeightsCache::release_source(const void* data) {
  if (data == nullptr) return;
  for (Release& r : releases_) {
    if (r.data == data && r.buffer != nullptr) {
      released_bytes_ += r.buffer->size();
      r.buffer->free();
      r.buffer = nullptr;
    }
  }
}

size_t WeightsCache::look_up(void* self, const xnn_weights_cache_look_up_key* key) {
  WeightsCache* c = static_cast<WeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mutex_);
  return key == nullptr ? kNotFound : c->find(*key);
}

// Like realloc for the block being packed: XNNPACK may ask again before it
// inserts, and expects what it wrote to stay.
void* WeightsCache::reserve_space(void* self, size_t n) {
  WeightsCache* c = static_cast<WeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mutex_);
  if (c->pending_ != nullptr && n <= c->pending_size_) return c->pending_;
  void* block = allocate(n);
  if (block == nullptr) return nullptr;
  if (c->pending_ != nullptr) {
    std::memcpy(block, c->pending_, c->pending_size_);
    std::free(c->pending_);
  }
  c->pending_ = block;
  c->pending_size_ = n;
  return block;
}

size_t WeightsCache::look_up_or_insert(void* self, const xnn_weights_cache_look_up_key* key,
                                       void* ptr, size_t size) {
  WeightsCache* c = static_cast<WeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mutex_);
  if (key == nullptr || ptr == nullptr || c->finalized_) return kNotFound;
  const size_t found = c->find(*key);
  if (found != kNotFound) {
    if (ptr == c->pending_) {  // packed twice: keep the first copy
      std::free(c->pending_);
      c->pending_ = nullptr;
      c->pending_size_ = 0;
    }
    return found;
  }
  void* data = ptr;
  if (ptr == c->pending_ && size <= c->pending_size_) {
    c->pending_ = nullptr;
    c->pending_size_ = 0;
  } else {  // not our block: keep a copy
    data = allocate(size);
    if (data == nullptr) return kNotFound;
    std::memcpy(data, ptr, size);
  }
  c->entries_.push_back({*key, data, size});
  c->packed_bytes_ += size;
  c->release_source(key->kernel);
  c->release_source(key->bias);
  return c->entries_.size() - 1;
}

void WeightsCache::finalize() {
  std::lock_guard<std::mutex> lock(mutex_);
  finalized_ = true;
  std::free(pending_);
  pending_ = nullptr;
  pending_size_ = 0;
}

bool WeightsCache::is_finalized(void* self) {
  WeightsCache* c = static_cast<WeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mutex_);
  return c->finalized_;
}

void* WeightsCache::offset_to_addr(void* self, size_t offset) {
  WeightsCache* c = static_cast<WeightsCache*>(self);
  std::lock_guard<std::mutex> lock(c->mutex_);
  return offset < c->entries_.size() ? c->entries_[offset].data : nullptr;
}

// The Plan owns the cache; XNNPACK never deletes it.
xnn_status WeightsCache::delete_cache(void*) { return xnn_status_success; }

}  // namespace ember::xnnpack

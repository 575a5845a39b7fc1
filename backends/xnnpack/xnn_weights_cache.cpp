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

WeightsCache::Source WeightsCache::source_of(const void* ptr) const {
  Source s;
  s.ptr = ptr;
  if (ptr == nullptr) return s;
  for (const Named& n : named_) {
    if (n.data == ptr) {
      s.name = n.key;
      return s;
    }
  }
  s.generation = generation_;
  return s;
}

bool WeightsCache::same_source(const Source& a, const Source& b) {
  if (a.ptr == nullptr || b.ptr == nullptr) return a.ptr == b.ptr;
  if (!a.name.empty() || !b.name.empty()) return a.name == b.name;
  return a.ptr == b.ptr && a.generation == b.generation;
}

size_t WeightsCache::find(const xnn_weights_cache_look_up_key& key) const {
  const Source kernel = source_of(key.kernel), bias = source_of(key.bias);
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.seed == size_t(key.seed) && same_source(e.kernel, kernel) &&
        same_source(e.bias, bias)) {
      return i;
    }
  }
  return kNotFound;
}

void WeightsCache::name_source(const void* data, const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  named_.push_back({data, key});
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
  c->entries_.push_back(
      {size_t(key->seed), c->source_of(key->kernel), c->source_of(key->bias), data, size});
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
  // Releases happen while the runtimes that pack are created; the buffers
  // and pointers belong to the plan being compiled, which may go before
  // the cache.
  releases_.clear();
  named_.clear();
}

void WeightsCache::reopen() {
  std::lock_guard<std::mutex> lock(mutex_);
  finalized_ = false;
  ++generation_;
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

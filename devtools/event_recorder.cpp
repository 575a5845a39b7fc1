// EventRecorder: keeps every traced event in caller-provided memory.
//
// Event buffer layout (offsets from the 8-byte-aligned start `begin_`):
//
//   [0, head_)            EventSlot records, one per event, in order, so
//                         event(i) is slot i;
//   [head_, tail_)        free;
//   [tail_, capacity)     variable-size parts, allocated downwards: copied
//                         strings, TensorSlot arrays with their sizes and
//                         strides, delegate metadata, and BlockSlot records
//                         (a list: each points at the next one).
//
// Offsets into the tail are never 0 (0 means "none"). An event is added
// only when all of its parts fit; otherwise the tail is rolled back and the
// event counted as dropped.
#include "devtools/event_recorder.h"

#include <cstring>

namespace ember {
namespace devtools {

namespace {

constexpr size_t kAlign = 8;
constexpr size_t kTensorAlign = 64;  // upstream's debug-buffer alignment
constexpr size_t kNoRoom = ~size_t(0);

// EventTracerEntry::event_id packs the offset of the copied name (0: none)
// with the recorder's epoch, so an entry started before reset() is
// recognised and dropped instead of pointing at reused memory.
constexpr int kOffsetBits = 40;
constexpr uint64_t kOffsetMask = (uint64_t(1) << kOffsetBits) - 1;
constexpr uint32_t kEpochMask = (uint32_t(1) << 22) - 1;

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

int64_t pack_entry(uint32_t epoch, size_t name_offset) {
  return int64_t((uint64_t(epoch & kEpochMask) << kOffsetBits) | uint64_t(name_offset));
}

}  // namespace

struct EventRecorder::EventSlot {
  uint64_t start_ticks;
  uint64_t end_ticks;
  int64_t int_value;
  double double_value;
  uint64_t name;             // tail offset of a NUL-terminated copy; 0: none
  uint64_t delegate_str;     // tail offset; 0: none
  uint64_t metadata;         // tail offset of metadata_size bytes
  uint64_t metadata_size;
  uint64_t tensors;          // tail offset of num_tensors TensorSlots
  uint64_t num_tensors;
  uint32_t block;
  int32_t chain_index;
  int32_t instruction_id;
  int32_t delegate_debug_id_int;
  uint8_t kind;
  uint8_t tag;
  uint8_t is_program_output;
  uint8_t bool_value;
};

struct EventRecorder::BlockSlot {
  uint64_t name;         // tail offset
  uint64_t next;         // tail offset of the next block; 0: the newest
  uint64_t first_event;
  int32_t bundled_input_index;
};

struct EventRecorder::TensorSlot {
  int64_t offset;   // into the debug buffer; -1 when not stored
  uint64_t nbytes;
  uint64_t shape;   // tail offset of dim sizes then dim strides (int64)
  uint32_t dim;
  int8_t dtype;
};

EventRecorder::EventRecorder(Span<uint8_t> event_buffer, Span<uint8_t> debug_buffer)
    : debug_(debug_buffer) {
  // The header's sizing note quotes these sizes.
  static_assert(sizeof(EventSlot) == 104, "update the note in event_recorder.h");
  static_assert(sizeof(TensorSlot) == 32, "update the note in event_recorder.h");
  if (event_buffer.data() != nullptr && event_buffer.size() >= 2 * kAlign) {
    const uintptr_t start = reinterpret_cast<uintptr_t>(event_buffer.data());
    const uintptr_t stop = start + event_buffer.size();
    begin_ = reinterpret_cast<uint8_t*>(align_up(start, kAlign));
    end_ = reinterpret_cast<uint8_t*>(stop / kAlign * kAlign);
  }
  reset();
}

void EventRecorder::reset() {
  head_ = 0;
  tail_ = size_t(end_ - begin_);
  first_block_ = 0;
  last_block_ = 0;
  cached_block_index_ = 0;
  cached_block_ = 0;
  block_dropped_ = false;
  epoch_ = (epoch_ + 1) & kEpochMask;
  event_used_ = 0;
  debug_used_ = 0;
  dropped_events_ = 0;
  dropped_tensors_ = 0;
  num_events_ = 0;
  num_blocks_ = 0;
}

// ---- memory ----

size_t EventRecorder::tail_alloc(size_t bytes) {
  bytes = align_up(bytes, kAlign);
  if (bytes > tail_ || tail_ - bytes < head_ || tail_ - bytes == 0) {
    return 0;
  }
  tail_ -= bytes;
  event_used_ = head_ + (size_t(end_ - begin_) - tail_);
  return tail_;
}

size_t EventRecorder::copy_string(const char* s) {
  if (s == nullptr) {
    return 0;
  }
  const size_t n = std::strlen(s);
  const size_t off = tail_alloc(n + 1);
  if (off == 0) {
    return kNoRoom;
  }
  std::memcpy(begin_ + off, s, n + 1);
  return off;
}

const char* EventRecorder::string_at(size_t offset) const {
  return offset == 0 ? nullptr : reinterpret_cast<const char*>(begin_ + offset);
}

EventRecorder::EventSlot* EventRecorder::slot(size_t index) const {
  return reinterpret_cast<EventSlot*>(begin_ + index * sizeof(EventSlot));
}

const EventRecorder::BlockSlot* EventRecorder::block_slot(size_t index) const {
  if (index >= num_blocks_) {
    return nullptr;
  }
  // Walk the list, from the last block looked up when that is not past
  // `index`: reading blocks in order costs one step each.
  size_t k = 0;
  size_t off = first_block_;
  if (cached_block_ != 0 && cached_block_index_ <= index) {
    k = cached_block_index_;
    off = cached_block_;
  }
  for (; k < index; ++k) {
    off = size_t(reinterpret_cast<const BlockSlot*>(begin_ + off)->next);
  }
  cached_block_index_ = index;
  cached_block_ = off;
  return reinterpret_cast<const BlockSlot*>(begin_ + off);
}

bool EventRecorder::ensure_block() {
  if (num_blocks_ == 0 && !block_dropped_) {
    create_event_block("Default");  // events before any block: upstream's first name
  }
  return num_blocks_ > 0 && !block_dropped_;
}

EventRecorder::EventSlot* EventRecorder::add_event(RecordedEventKind kind) {
  if (head_ + sizeof(EventSlot) > tail_) {
    return nullptr;
  }
  EventSlot* s = slot(num_events_);
  std::memset(s, 0, sizeof(EventSlot));
  s->kind = uint8_t(kind);
  s->block = uint32_t(num_blocks_ - 1);
  s->chain_index = kUnsetChainIndex;
  s->instruction_id = kUnsetInstructionId;
  s->delegate_debug_id_int = kUnsetDelegateDebugId;
  head_ += sizeof(EventSlot);
  event_used_ = head_ + (size_t(end_ - begin_) - tail_);
  ++num_events_;
  return s;
}

// ---- EventTracer ----

void EventRecorder::create_event_block(const char* name) {
  const size_t mark = tail_;
  const size_t name_off = copy_string(name != nullptr ? name : "");
  const size_t off = name_off == kNoRoom ? 0 : tail_alloc(sizeof(BlockSlot));
  if (off == 0) {
    tail_ = mark;
    event_used_ = head_ + (size_t(end_ - begin_) - tail_);
    block_dropped_ = true;  // its events would land in the previous block
    ++dropped_events_;
    return;
  }
  BlockSlot* b = reinterpret_cast<BlockSlot*>(begin_ + off);
  b->name = name_off;
  b->next = 0;
  b->first_event = num_events_;
  b->bundled_input_index = bundled_input_index();
  if (last_block_ != 0) {
    reinterpret_cast<BlockSlot*>(begin_ + last_block_)->next = off;
  } else {
    first_block_ = off;
  }
  last_block_ = off;
  block_dropped_ = false;
  ++num_blocks_;
}

EventTracerEntry EventRecorder::start_profiling(const char* name, int32_t chain_index,
                                                int32_t instruction_id) {
  EventTracerEntry entry;
  // Upstream's rule: without an explicit chain, the current instruction.
  if (chain_index == kUnsetChainIndex) {
    chain_index = this->chain_index();
    instruction_id = this->instruction_id();
  }
  entry.chain_index = chain_index;
  entry.instruction_id = instruction_id;
  const size_t name_off = copy_string(name);
  entry.event_id = name_off == kNoRoom ? -1 : pack_entry(epoch_, name_off);
  entry.start_ticks = event_tracer_ticks();
  return entry;
}

void EventRecorder::end_profiling(const EventTracerEntry& entry) {
  record_profile(entry, event_tracer_ticks(), {});
}

EventTracerEntry EventRecorder::start_profiling_delegate(const char* name,
                                                         int32_t delegate_debug_id) {
  EventTracerEntry entry;
  entry.is_delegate = true;
  entry.delegate_debug_id = delegate_debug_id;
  entry.chain_index = chain_index();
  entry.instruction_id = instruction_id();
  const size_t name_off = copy_string(name);
  entry.event_id = name_off == kNoRoom ? -1 : pack_entry(epoch_, name_off);
  entry.start_ticks = event_tracer_ticks();
  return entry;
}

void EventRecorder::end_profiling_delegate(const EventTracerEntry& entry,
                                           Span<const uint8_t> metadata) {
  record_profile(entry, event_tracer_ticks(), metadata);
}

void EventRecorder::log_profiling_delegate(const char* name, int32_t delegate_debug_id,
                                           uint64_t start_ticks, uint64_t end_ticks,
                                           Span<const uint8_t> metadata) {
  EventTracerEntry entry = start_profiling_delegate(name, delegate_debug_id);
  entry.start_ticks = start_ticks;
  record_profile(entry, end_ticks, metadata);
}

void EventRecorder::record_profile(const EventTracerEntry& entry, uint64_t end_ticks,
                                   Span<const uint8_t> metadata) {
  if (entry.event_id < 0 ||
      uint32_t(uint64_t(entry.event_id) >> kOffsetBits) != (epoch_ & kEpochMask)) {
    ++dropped_events_;  // no room for its name, or started before reset()
    return;
  }
  const size_t name_off = size_t(uint64_t(entry.event_id) & kOffsetMask);
  if (name_off != 0 && (name_off < tail_ || name_off >= size_t(end_ - begin_))) {
    ++dropped_events_;  // not an entry of this recorder
    return;
  }
  if (!ensure_block()) {
    ++dropped_events_;
    return;
  }
  const size_t mark = tail_;
  const bool has_metadata = metadata.size() > 0 && metadata.data() != nullptr;
  size_t meta_off = 0;
  if (has_metadata) {
    meta_off = tail_alloc(metadata.size());
    if (meta_off != 0) {
      std::memcpy(begin_ + meta_off, metadata.data(), metadata.size());
    }
  }
  EventSlot* s = (has_metadata && meta_off == 0) ? nullptr
                                                 : add_event(RecordedEventKind::Profile);
  if (s == nullptr) {
    tail_ = mark;
    event_used_ = head_ + (size_t(end_ - begin_) - tail_);
    ++dropped_events_;
    return;
  }
  if (entry.is_delegate) {
    s->delegate_str = name_off;  // a delegate names its step by a string id
    s->delegate_debug_id_int = entry.delegate_debug_id;
  } else {
    s->name = name_off;
  }
  s->chain_index = entry.chain_index;
  s->instruction_id = entry.instruction_id;
  s->start_ticks = entry.start_ticks;
  s->end_ticks = end_ticks;
  s->metadata = meta_off;
  s->metadata_size = has_metadata ? metadata.size() : 0;
}

void EventRecorder::log_value(const EValue& value, LoggedValueKind kind) {
  RecordedValue v;
  v.tag = value.tag();
  v.is_program_output = kind == LoggedValueKind::ProgramOutput;
  switch (value.tag()) {
    case Tag::Tensor: {
      const Tensor t = value.to_tensor();
      log_tensors(&t, 1, v, nullptr, kUnsetDelegateDebugId);
      return;
    }
    case Tag::ListTensor: {
      const Span<Tensor> list = value.to_tensor_list();
      log_tensors(list.data(), list.size(), v, nullptr, kUnsetDelegateDebugId);
      return;
    }
    case Tag::Int:
    case Tag::Double:
    case Tag::Bool:
      break;
    default:
      return;  // strings, scalar lists, None: not recorded (as upstream)
  }
  EventSlot* s = ensure_block() ? add_event(RecordedEventKind::Debug) : nullptr;
  if (s == nullptr) {
    ++dropped_events_;
    return;
  }
  s->tag = uint8_t(v.tag);
  s->is_program_output = v.is_program_output;
  s->chain_index = chain_index();
  s->instruction_id = instruction_id();
  if (value.is_int()) {
    s->int_value = value.to_int();
  } else if (value.is_double()) {
    s->double_value = value.to_double();
  } else {
    s->bool_value = value.to_bool();
  }
}

void EventRecorder::log_delegate_output(const char* name, int32_t delegate_debug_id,
                                        const Tensor& output) {
  RecordedValue v;
  v.tag = Tag::Tensor;
  log_tensors(&output, 1, v, name, delegate_debug_id);
}

// Copies `t` into the debug buffer (row-major order) and fills `ts`; false
// only when the event buffer has no room for its shape.
bool EventRecorder::record_tensor(TensorSlot* ts, const Tensor& t) {
  const size_t dim = t.dim();
  const size_t shape_off = tail_alloc(2 * dim * sizeof(int64_t));
  if (shape_off == 0 && dim > 0) {
    return false;
  }
  int64_t* sizes = reinterpret_cast<int64_t*>(begin_ + shape_off);
  int64_t* strides = sizes + dim;
  int64_t stride = 1;
  for (size_t d = dim; d-- > 0;) {
    sizes[d] = t.sizes()[d];
    strides[d] = stride;
    stride *= t.sizes()[d] > 0 ? t.sizes()[d] : 1;
  }
  ts->dim = uint32_t(dim);
  ts->dtype = int8_t(t.scalar_type());
  ts->shape = dim > 0 ? shape_off : 0;
  ts->nbytes = t.nbytes();
  ts->offset = -1;
  const uint8_t* src = static_cast<const uint8_t*>(t.const_data_ptr());
  if (ts->nbytes == 0 || src == nullptr) {
    return true;  // empty (or unbound): nothing to store
  }
  const size_t at = align_up(debug_used_, kTensorAlign);
  if (debug_.data() == nullptr || at > debug_.size() || debug_.size() - at < ts->nbytes) {
    ++dropped_tensors_;
    return true;
  }
  uint8_t* dst = debug_.data() + at;
  if (t.is_contiguous()) {
    std::memcpy(dst, src, ts->nbytes);
  } else {
    // A permuted dim order (channels-last, say): gather the elements in
    // logical row-major order so the contiguous strides above hold.
    const size_t elem = t.element_size();
    size_t index[kMaxTensorDim] = {};
    for (int64_t i = 0; i < t.numel(); ++i) {
      int64_t from = 0;
      for (size_t d = 0; d < dim; ++d) {
        from += int64_t(index[d]) * t.strides()[d];
      }
      std::memcpy(dst + size_t(i) * elem, src + size_t(from) * elem, elem);
      for (size_t d = dim; d-- > 0;) {
        if (int64_t(++index[d]) < sizes[d]) {
          break;
        }
        index[d] = 0;
      }
    }
  }
  ts->offset = int64_t(at);
  debug_used_ = at + ts->nbytes;
  return true;
}

void EventRecorder::log_tensors(const Tensor* tensors, size_t n, RecordedValue value,
                                const char* name, int32_t delegate_debug_id) {
  if (!ensure_block()) {
    ++dropped_events_;
    return;
  }
  const size_t mark_tail = tail_;
  const size_t mark_debug = debug_used_;
  const size_t mark_dropped = dropped_tensors_;
  bool ok = true;
  const size_t name_off = copy_string(name);
  ok = name_off != kNoRoom;
  const size_t list_off = ok && n > 0 ? tail_alloc(n * sizeof(TensorSlot)) : 0;
  ok = ok && (n == 0 || list_off != 0);
  for (size_t i = 0; ok && i < n; ++i) {
    TensorSlot* ts = reinterpret_cast<TensorSlot*>(begin_ + list_off) + i;
    ok = tensors[i].impl() != nullptr && tensors[i].dim() <= kMaxTensorDim &&
         record_tensor(ts, tensors[i]);
  }
  EventSlot* s = ok ? add_event(RecordedEventKind::Debug) : nullptr;
  if (s == nullptr) {
    // Nothing of this event is kept, its tensor data included.
    tail_ = mark_tail;
    event_used_ = head_ + (size_t(end_ - begin_) - tail_);
    debug_used_ = mark_debug;
    dropped_tensors_ = mark_dropped;
    ++dropped_events_;
    return;
  }
  s->tag = uint8_t(value.tag);
  s->is_program_output = value.is_program_output;
  s->chain_index = chain_index();
  s->instruction_id = instruction_id();
  s->delegate_str = name_off;  // a delegate output is keyed like its step
  s->delegate_debug_id_int = delegate_debug_id;
  s->tensors = list_off;
  s->num_tensors = n;
}

// ---- reading ----

size_t EventRecorder::num_blocks() const { return num_blocks_; }

RecordedBlock EventRecorder::block(size_t index) const {
  RecordedBlock out;
  const BlockSlot* b = block_slot(index);
  if (b == nullptr) {
    return out;
  }
  out.name = string_at(b->name);
  out.bundled_input_index = b->bundled_input_index;
  out.first_event = size_t(b->first_event);
  return out;
}

size_t EventRecorder::num_events() const { return num_events_; }

RecordedEvent EventRecorder::event(size_t index) const {
  RecordedEvent out;
  if (index >= num_events_) {
    return out;
  }
  const EventSlot* s = slot(index);
  out.kind = RecordedEventKind(s->kind);
  out.block = s->block;
  out.name = string_at(s->name);
  out.chain_index = s->chain_index;
  out.instruction_id = s->instruction_id;
  out.delegate_debug_id_int = s->delegate_debug_id_int;
  out.delegate_debug_id_str = string_at(s->delegate_str);
  out.start_ticks = s->start_ticks;
  out.end_ticks = s->end_ticks;
  if (s->metadata != 0) {
    out.delegate_metadata = {begin_ + s->metadata, size_t(s->metadata_size)};
  }
  if (out.kind == RecordedEventKind::Debug) {
    out.value.tag = Tag(s->tag);
    out.value.is_program_output = s->is_program_output != 0;
    out.value.int_value = s->int_value;
    out.value.double_value = s->double_value;
    out.value.bool_value = s->bool_value != 0;
    out.value.num_tensors = size_t(s->num_tensors);
  }
  return out;
}

RecordedTensor EventRecorder::tensor(size_t event_index, size_t i) const {
  RecordedTensor out;
  if (event_index >= num_events_) {
    return out;
  }
  const EventSlot* s = slot(event_index);
  if (s->tensors == 0 || i >= s->num_tensors) {
    return out;
  }
  const TensorSlot* ts = reinterpret_cast<const TensorSlot*>(begin_ + s->tensors) + i;
  out.dtype = ScalarType(ts->dtype);
  if (ts->shape != 0) {
    const int64_t* shape = reinterpret_cast<const int64_t*>(begin_ + ts->shape);
    out.sizes = {shape, ts->dim};
    out.strides = {shape + ts->dim, ts->dim};
  }
  out.offset = ts->offset;
  out.nbytes = size_t(ts->nbytes);
  return out;
}

Span<const uint8_t> EventRecorder::debug_buffer() const {
  return {debug_.data(), debug_used_};
}

}  // namespace devtools
}  // namespace ember

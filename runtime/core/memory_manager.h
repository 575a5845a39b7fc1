// MemoryManager: the three kinds of memory a method uses, all provided by
// the caller and all required to outlive the loaded Method.
//   method_allocator  metadata built at load (values, tensor shapes, kernel
//                     argument tables, delegate handles)
//   planned_memory    activations and mutable state, placed by the exporter's
//                     memory plan (see HierarchicalAllocator)
//   temp_allocator    scratch for one kernel or delegate call; reset after
//                     every instruction. May be null if no kernel needs it.
#pragma once

#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"

namespace ember {

class MemoryManager final {
 public:
  MemoryManager(MemoryAllocator* method_allocator,
                HierarchicalAllocator* planned_memory = nullptr,
                MemoryAllocator* temp_allocator = nullptr)
      : method_allocator_(method_allocator),
        planned_memory_(planned_memory),
        temp_allocator_(temp_allocator) {}

  MemoryAllocator* method_allocator() const { return method_allocator_; }
  HierarchicalAllocator* planned_memory() const { return planned_memory_; }
  MemoryAllocator* temp_allocator() const { return temp_allocator_; }

 private:
  MemoryAllocator* method_allocator_;
  HierarchicalAllocator* planned_memory_;
  MemoryAllocator* temp_allocator_;
};

}  // namespace ember

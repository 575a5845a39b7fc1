#include <cstring>

#include "runtime/backend/backend.h"
#include "runtime/platform/log.h"

namespace ember {
namespace {

struct Entry {
  const char* id;
  const BackendInterface* backend;
};

struct Registry {
  Entry entries[kMaxRegisteredBackends];
  size_t count = 0;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

Error register_backend(const char* id, const BackendInterface* backend) {
  Registry& r = registry();
  if (id == nullptr || backend == nullptr) {
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < r.count; ++i) {
    if (strcmp(r.entries[i].id, id) == 0) {
      EMBER_LOG(Error, "backend %s registered twice", id);
      return Error::InvalidArgument;
    }
  }
  if (r.count == kMaxRegisteredBackends) {
    EMBER_LOG(Error, "backend registry full; %s not registered", id);
    return Error::Internal;
  }
  r.entries[r.count++] = Entry{id, backend};
  return Error::Ok;
}

const BackendInterface* find_backend(const char* id) {
  const Registry& r = registry();
  for (size_t i = 0; i < r.count; ++i) {
    if (strcmp(r.entries[i].id, id) == 0) {
      return r.entries[i].backend;
    }
  }
  return nullptr;
}

size_t num_registered_backends() { return registry().count; }

const char* registered_backend_id(size_t index) {
  return registry().entries[index].id;
}

}  // namespace ember

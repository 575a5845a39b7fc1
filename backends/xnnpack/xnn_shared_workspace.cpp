#include "backends/xnnpack/xnn_shared_workspace.h"

#include <cstddef>
#include <mutex>
#include <vector>

namespace ember::xnnpack {
namespace {

struct Entry {
  const void* method;
  xnn_workspace_t workspace;
  size_t users;
};

std::mutex g_mutex;
std::vector<Entry> g_entries;  // a handful: one per loaded method (and keyless plan)

struct WeightsEntry {
  const void* method;
  std::weak_ptr<WeightsCache> cache;
};
std::vector<WeightsEntry> g_weights;  // expired entries dropped on the next acquire

}  // namespace

xnn_workspace_t acquire_workspace(const void* method) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (Entry& e : g_entries) {
    if (method != nullptr && e.method == method) {
      ++e.users;
      return e.workspace;
    }
  }
  xnn_workspace_t workspace = nullptr;
  if (xnn_create_workspace(&workspace) != xnn_status_success) return nullptr;
  g_entries.push_back({method, workspace, 1});
  return workspace;
}

void release_workspace(const void* method, xnn_workspace_t workspace) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = 0; i < g_entries.size(); ++i) {
    if (g_entries[i].method != method || g_entries[i].workspace != workspace) continue;
    if (--g_entries[i].users == 0) {
      xnn_release_workspace(g_entries[i].workspace);
      g_entries.erase(g_entries.begin() + std::ptrdiff_t(i));
    }
    return;
  }
}

size_t live_workspaces() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_entries.size();
}

std::shared_ptr<WeightsCache> acquire_method_weights(const void* method) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (size_t i = g_weights.size(); i-- > 0;) {
    if (g_weights[i].cache.expired()) g_weights.erase(g_weights.begin() + std::ptrdiff_t(i));
  }
  for (WeightsEntry& e : g_weights) {
    if (e.method == method) return e.cache.lock();
  }
  auto cache = std::make_shared<WeightsCache>();
  g_weights.push_back({method, cache});
  return cache;
}

}  // namespace ember::xnnpack

#include "cluster/live_object_store.h"

namespace propscaler {
namespace {

std::string KeyOf(const kube::LivePod& pod) { return pod.state.Key(); }
std::string KeyOf(const kube::LiveNode& node) { return node.state.name; }

template <typename T>
kube::ReflectorSink<T> SinkFor(std::mutex* mutex,
                               std::map<std::string, T>* items, bool* synced) {
  return {[=](std::vector<T> listed) {
            std::lock_guard<std::mutex> lock(*mutex);
            items->clear();
            for (T& item : listed) {
              std::string key = KeyOf(item);
              items->emplace(std::move(key), std::move(item));
            }
            *synced = true;
          },
          [=](const T& item) {
            std::lock_guard<std::mutex> lock(*mutex);
            (*items)[KeyOf(item)] = item;
          },
          [=](const T& item) {
            std::lock_guard<std::mutex> lock(*mutex);
            items->erase(KeyOf(item));
          }};
}

template <typename T>
std::vector<T> Values(const std::map<std::string, T>& items) {
  std::vector<T> out;
  out.reserve(items.size());
  for (const auto& [key, item] : items) out.push_back(item);
  return out;
}

}  // namespace

kube::ReflectorSink<kube::LivePod> LiveObjectStore::PodSink() {
  return SinkFor(&mutex_, &pods_, &pods_synced_);
}

kube::ReflectorSink<kube::LiveNode> LiveObjectStore::NodeSink() {
  return SinkFor(&mutex_, &nodes_, &nodes_synced_);
}

std::vector<kube::LivePod> LiveObjectStore::Pods() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Values(pods_);
}

std::vector<kube::LiveNode> LiveObjectStore::Nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Values(nodes_);
}

bool LiveObjectStore::Synced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pods_synced_ && nodes_synced_;
}

}  // namespace propscaler

#include "nodescale/provider/clusterapi_objects.h"

#include <charconv>

namespace propscaler::nodescale {
namespace {

std::string KeyOf(const kube::ClusterApiObject& object) {
  return object.namespace_ + "/" + object.name;
}

std::optional<uint64_t> AsNumber(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// Whether `incoming` is older than `held`. resourceVersions are opaque to
// clients, but the API server's come from etcd's revision: an event older
// than a write of ours that the watch had not delivered yet must not undo
// it. Versions that are not numbers are taken as they come.
bool Older(std::string_view incoming, std::string_view held) {
  const std::optional<uint64_t> a = AsNumber(incoming);
  const std::optional<uint64_t> b = AsNumber(held);
  return a.has_value() && b.has_value() && *a < *b;
}

}  // namespace

kube::ReflectorSink<kube::ClusterApiObject> ClusterApiObjects::Sink(Kind kind) {
  kube::ReflectorSink<kube::ClusterApiObject> sink;
  sink.replace = [this, kind](std::vector<kube::ClusterApiObject> objects) {
    MutexLock lock(&mutex_);
    Collection& collection = collections_[kind];
    collection.items.clear();
    for (kube::ClusterApiObject& object : objects) {
      std::string key = KeyOf(object);
      collection.items[std::move(key)] = std::move(object);
    }
    collection.synced = true;
    ++version_;
  };
  sink.upsert = [this, kind](const kube::ClusterApiObject& object) {
    Upsert(kind, object);
  };
  sink.remove = [this, kind](const kube::ClusterApiObject& object) {
    MutexLock lock(&mutex_);
    collections_[kind].items.erase(KeyOf(object));
    ++version_;
  };
  return sink;
}

void ClusterApiObjects::Upsert(Kind kind,
                               const kube::ClusterApiObject& object) {
  MutexLock lock(&mutex_);
  auto [held, added] =
      collections_[kind].items.try_emplace(KeyOf(object), object);
  if (!added) {
    if (Older(object.resource_version, held->second.resource_version)) return;
    held->second = object;
  }
  ++version_;
}

void ClusterApiObjects::WroteReplicas(Kind kind, const std::string& ns,
                                      const std::string& name, int64_t replicas,
                                      const std::string& resource_version) {
  MutexLock lock(&mutex_);
  auto held = collections_[kind].items.find(ns + "/" + name);
  if (held == collections_[kind].items.end() ||
      Older(resource_version, held->second.resource_version)) {
    return;
  }
  held->second.replicas = replicas;
  held->second.resource_version = resource_version;
  ++version_;
}

void ClusterApiObjects::NotServed(Kind kind) {
  MutexLock lock(&mutex_);
  collections_[kind].items.clear();
  collections_[kind].synced = true;
  ++version_;
}

bool ClusterApiObjects::Synced() const {
  MutexLock lock(&mutex_);
  for (const Collection& collection : collections_) {
    if (!collection.synced) return false;
  }
  return true;
}

uint64_t ClusterApiObjects::Version() const {
  MutexLock lock(&mutex_);
  return version_;
}

std::vector<kube::ClusterApiObject> ClusterApiObjects::Objects(
    Kind kind) const {
  MutexLock lock(&mutex_);
  std::vector<kube::ClusterApiObject> out;
  out.reserve(collections_[kind].items.size());
  for (const auto& [key, object] : collections_[kind].items) {
    out.push_back(object);
  }
  return out;
}

std::optional<kube::ClusterApiObject> ClusterApiObjects::Find(
    Kind kind, const std::string& ns, const std::string& name) const {
  MutexLock lock(&mutex_);
  auto found = collections_[kind].items.find(ns + "/" + name);
  if (found == collections_[kind].items.end()) return std::nullopt;
  return found->second;
}

std::vector<std::string> ClusterApiObjects::NotListed() const {
  MutexLock lock(&mutex_);
  std::vector<std::string> out;
  for (int kind = 0; kind < kKinds; ++kind) {
    if (!collections_[kind].synced) out.push_back(kResources[kind]);
  }
  return out;
}

}  // namespace propscaler::nodescale

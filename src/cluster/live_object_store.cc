#include "cluster/live_object_store.h"

#include <utility>

namespace propscaler {
namespace {

std::string KeyOf(const kube::LivePod& pod) { return pod.state.Key(); }
std::string KeyOf(const kube::LiveNode& node) { return node.state.name; }
std::string KeyOf(const kube::PdbState& pdb) {
  return pdb.namespace_ + "/" + pdb.name;
}
std::string KeyOf(const kube::CapacityBuffer& buffer) { return buffer.Key(); }

void Intern(kube::LivePod* pod, PodInterner* interner) {
  interner->Intern(&pod->state);
}
void Intern(kube::LiveNode*, PodInterner*) {}  // a few thousand at most
void Intern(kube::PdbState*, PodInterner*) {}
void Intern(kube::CapacityBuffer*, PodInterner*) {}

template <typename T>
void Add(T item, std::map<std::string, std::shared_ptr<const T>>* items,
         PodInterner* interner) {
  Intern(&item, interner);
  std::string key = KeyOf(item);
  (*items)[std::move(key)] = std::make_shared<const T>(std::move(item));
}

template <typename T>
kube::ReflectorSink<T> SinkFor(std::mutex* mutex,
                               LiveObjectStore::Collection<T>* collection,
                               PodInterner* interner) {
  kube::ReflectorSink<T> sink;
  sink.upsert = [=](const T& item) {
    std::lock_guard<std::mutex> lock(*mutex);
    Add(item, &collection->items, interner);
  };
  sink.remove = [=](const T& item) {
    std::lock_guard<std::mutex> lock(*mutex);
    collection->items.erase(KeyOf(item));
  };
  // A list's pages are staged beside the current items, which stay what
  // readers see until the list is complete.
  sink.stage = [=](std::vector<T> page, bool first) {
    std::lock_guard<std::mutex> lock(*mutex);
    if (first) collection->staged.clear();
    for (T& item : page) Add(std::move(item), &collection->staged, interner);
  };
  sink.commit = [=] {
    std::lock_guard<std::mutex> lock(*mutex);
    collection->items = std::move(collection->staged);
    collection->staged.clear();
    collection->synced = true;
  };
  return sink;
}

}  // namespace

kube::ReflectorSink<kube::LivePod> LiveObjectStore::PodSink() {
  return SinkFor(&mutex_, &pods_, &interner_);
}

kube::ReflectorSink<kube::LiveNode> LiveObjectStore::NodeSink() {
  return SinkFor(&mutex_, &nodes_, &interner_);
}

kube::ReflectorSink<kube::PdbState> LiveObjectStore::PdbSink() {
  return SinkFor(&mutex_, &pdbs_, &interner_);
}

kube::ReflectorSink<kube::CapacityBuffer> LiveObjectStore::BufferSink() {
  return SinkFor(&mutex_, &buffers_, &interner_);
}

std::vector<kube::CapacityBuffer> LiveObjectStore::Buffers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<kube::CapacityBuffer> out;
  out.reserve(buffers_.items.size());
  for (const auto& [key, buffer] : buffers_.items) out.push_back(*buffer);
  return out;
}

std::optional<std::vector<kube::PdbState>> LiveObjectStore::Pdbs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pdbs_.synced) return std::nullopt;
  std::vector<kube::PdbState> out;
  out.reserve(pdbs_.items.size());
  for (const auto& [key, pdb] : pdbs_.items) out.push_back(*pdb);
  return out;
}

SharedList<kube::LivePod> LiveObjectStore::Pods() const {
  std::lock_guard<std::mutex> lock(mutex_);
  SharedList<kube::LivePod> out;
  out.reserve(pods_.items.size());
  for (const auto& [key, pod] : pods_.items) out.Share(pod);
  return out;
}

std::vector<kube::LiveNode> LiveObjectStore::Nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<kube::LiveNode> out;
  out.reserve(nodes_.items.size());
  for (const auto& [key, node] : nodes_.items) out.push_back(*node);
  return out;
}

bool LiveObjectStore::Synced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pods_.synced && nodes_.synced;
}

}  // namespace propscaler

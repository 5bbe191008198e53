#include "cluster/live_object_store.h"

#include <algorithm>
#include <utility>

namespace propscaler {

namespace {

using Key = LiveObjectStore::Key;

Key KeyOf(const kube::LivePod& pod) {
  return {pod.state.namespace_, pod.state.name};
}
Key KeyOf(const kube::LiveNode& node) { return {{}, node.state.name}; }
Key KeyOf(const kube::PdbState& pdb) { return {pdb.namespace_, pdb.name}; }
Key KeyOf(const kube::CapacityBuffer& buffer) {
  return {buffer.namespace_, buffer.name};
}
Key KeyOf(const kube::ProvisioningRequest& request) {
  return {request.namespace_, request.name};
}
Key KeyOf(const kube::PodTemplate& pod_template) {
  return {pod_template.namespace_, pod_template.name};
}
Key KeyOf(const kube::RawObject& object) {
  return {object.namespace_, object.name};
}
Key KeyOf(const kube::PersistentVolume& volume) { return {{}, volume.name}; }
Key KeyOf(const kube::PersistentVolumeClaim& claim) {
  return {claim.namespace_, claim.name};
}
Key KeyOf(const kube::StorageClass& storage_class) {
  return {{}, storage_class.name};
}
Key KeyOf(const kube::CsiNode& node) { return {{}, node.name}; }
Key KeyOf(const kube::CsiDriver& driver) { return {{}, driver.name}; }
Key KeyOf(const kube::CsiStorageCapacity& capacity) {
  return {capacity.namespace_, capacity.name};
}

// The key as one string: "namespace/name", or the name alone.
class KeyText {
 public:
  explicit KeyText(const Key& key) : key_(key) {}
  size_t size() const {
    return key_.namespace_.empty()
               ? key_.name.size()
               : key_.namespace_.size() + 1 + key_.name.size();
  }
  char operator[](size_t i) const {
    if (key_.namespace_.empty()) return key_.name[i];
    if (i < key_.namespace_.size()) return key_.namespace_[i];
    if (i == key_.namespace_.size()) return '/';
    return key_.name[i - key_.namespace_.size() - 1];
  }

 private:
  const Key& key_;
};

void Intern(kube::LivePod* pod, PodInterner* interner) {
  interner->Intern(&pod->state);
}
void Intern(kube::LiveNode*, PodInterner*) {}  // a few thousand at most
void Intern(kube::PdbState*, PodInterner*) {}
void Intern(kube::CapacityBuffer*, PodInterner*) {}
void Intern(kube::ProvisioningRequest*, PodInterner*) {}
void Intern(kube::PodTemplate*, PodInterner*) {}
void Intern(kube::RawObject*, PodInterner*) {}
void Intern(kube::PersistentVolume*, PodInterner*) {}
void Intern(kube::PersistentVolumeClaim*, PodInterner*) {}
void Intern(kube::StorageClass*, PodInterner*) {}
void Intern(kube::CsiNode*, PodInterner*) {}
void Intern(kube::CsiDriver*, PodInterner*) {}
void Intern(kube::CsiStorageCapacity*, PodInterner*) {}

// The key views the new object, so an object replaced takes its new key
// with it (the old one's views die with the old object).
template <typename T>
void Add(T item, std::map<Key, std::shared_ptr<const T>>* items,
         PodInterner* interner) {
  Intern(&item, interner);
  auto shared = std::make_shared<const T>(std::move(item));
  const Key key = KeyOf(*shared);
  auto [at, added] = items->try_emplace(key, shared);
  if (added) return;
  auto node = items->extract(at);
  node.key() = key;
  node.mapped() = std::move(shared);
  items->insert(std::move(node));
}

template <typename T>
kube::ReflectorSink<T> SinkFor(std::mutex* mutex,
                               LiveObjectStore::Collection<T>* collection,
                               PodInterner* interner) {
  kube::ReflectorSink<T> sink;
  sink.upsert = [=](const T& item) {
    std::lock_guard<std::mutex> lock(*mutex);
    Add(item, &collection->items, interner);
    collection->list.reset();
  };
  sink.remove = [=](const T& item) {
    std::lock_guard<std::mutex> lock(*mutex);
    collection->items.erase(KeyOf(item));
    collection->list.reset();
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
    collection->list.reset();
  };
  return sink;
}

// The collection's items in key order, from the list kept since they last
// changed. Called under the store's lock.
template <typename T>
SharedList<T> ListOf(const LiveObjectStore::Collection<T>& collection) {
  if (!collection.list) {
    SharedList<T> list;
    list.reserve(collection.items.size());
    for (const auto& [key, item] : collection.items) list.Share(item);
    collection.list = std::move(list);
  }
  return *collection.list;
}

// Copies of the collection's items in key order (a few objects, read once
// a loop). Called under the store's lock.
template <typename T>
std::vector<T> CopiesOf(const LiveObjectStore::Collection<T>& collection) {
  std::vector<T> out;
  out.reserve(collection.items.size());
  for (const auto& [key, item] : collection.items) out.push_back(*item);
  return out;
}

}  // namespace

bool LiveObjectStore::Key::operator<(const Key& other) const {
  if (namespace_ == other.namespace_) return name < other.name;
  const KeyText a(*this), b(other);
  const size_t common = std::min(a.size(), b.size());
  for (size_t i = 0; i < common; ++i) {
    if (a[i] != b[i]) {
      return static_cast<unsigned char>(a[i]) <
             static_cast<unsigned char>(b[i]);
    }
  }
  return a.size() < b.size();
}

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

kube::ReflectorSink<kube::ProvisioningRequest>
LiveObjectStore::ProvisioningRequestSink() {
  return SinkFor(&mutex_, &requests_, &interner_);
}

kube::ReflectorSink<kube::PodTemplate> LiveObjectStore::PodTemplateSink() {
  return SinkFor(&mutex_, &pod_templates_, &interner_);
}

kube::ReflectorSink<kube::RawObject> LiveObjectStore::NodePoolSink() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    node_pools_.required = true;
  }
  return SinkFor(&mutex_, &node_pools_, &interner_);
}

// The volume collections' sinks also drop the VolumeObjects copy.
template <typename T>
kube::ReflectorSink<T> ResettingSink(
    kube::ReflectorSink<T> sink, std::mutex* mutex,
    std::shared_ptr<const kube::VolumeObjects>* copy) {
  auto reset = [=] {
    std::lock_guard<std::mutex> lock(*mutex);
    copy->reset();
  };
  sink.upsert = [=, inner = sink.upsert](const T& item) {
    inner(item);
    reset();
  };
  sink.remove = [=, inner = sink.remove](const T& item) {
    inner(item);
    reset();
  };
  sink.commit = [=, inner = sink.commit] {
    inner();
    reset();
  };
  return sink;
}

// A volume collection's sink: the collection must be listed before the
// store is synced (a pod's claim read before its class or capacities would
// be placed wrongly), and its changes drop the VolumeObjects copy.
template <typename T>
kube::ReflectorSink<T> VolumeCollectionSink(
    std::mutex* mutex, LiveObjectStore::Collection<T>* collection,
    PodInterner* interner, std::shared_ptr<const kube::VolumeObjects>* copy) {
  {
    std::lock_guard<std::mutex> lock(*mutex);
    collection->required = true;
  }
  return ResettingSink(SinkFor(mutex, collection, interner), mutex, copy);
}

kube::ReflectorSink<kube::PersistentVolume> LiveObjectStore::VolumeSink() {
  return VolumeCollectionSink(&mutex_, &volumes_, &interner_, &volume_objects_);
}

kube::ReflectorSink<kube::PersistentVolumeClaim> LiveObjectStore::ClaimSink() {
  return VolumeCollectionSink(&mutex_, &claims_, &interner_, &volume_objects_);
}

kube::ReflectorSink<kube::StorageClass> LiveObjectStore::StorageClassSink() {
  return VolumeCollectionSink(&mutex_, &classes_, &interner_, &volume_objects_);
}

kube::ReflectorSink<kube::CsiNode> LiveObjectStore::CsiNodeSink() {
  return VolumeCollectionSink(&mutex_, &csi_nodes_, &interner_,
                              &volume_objects_);
}

kube::ReflectorSink<kube::CsiDriver> LiveObjectStore::CsiDriverSink() {
  return VolumeCollectionSink(&mutex_, &csi_drivers_, &interner_,
                              &volume_objects_);
}

kube::ReflectorSink<kube::CsiStorageCapacity>
LiveObjectStore::CsiStorageCapacitySink() {
  return VolumeCollectionSink(&mutex_, &capacities_, &interner_,
                              &volume_objects_);
}

std::shared_ptr<const kube::VolumeObjects> LiveObjectStore::Volumes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (volume_objects_) return volume_objects_;
  auto objects = std::make_shared<kube::VolumeObjects>();
  for (const auto& [key, volume] : volumes_.items) {
    objects->volumes.emplace(volume->name, volume);
  }
  for (const auto& [key, claim] : claims_.items) {
    objects->claims.emplace(claim->Key(), claim);
  }
  for (const auto& [key, storage_class] : classes_.items) {
    objects->classes.emplace(storage_class->name, storage_class);
  }
  for (const auto& [key, node] : csi_nodes_.items) {
    if (!node->limits.empty())
      objects->node_limits.emplace(node->name, node->limits);
  }
  for (const auto& [key, driver] : csi_drivers_.items) {
    if (driver->storage_capacity) {
      objects->capacity_checked_drivers.insert(driver->name);
    }
  }
  for (const auto& [key, capacity] : capacities_.items) {
    objects->capacities.emplace(capacity->namespace_ + "/" + capacity->name,
                                capacity);
  }
  objects->unreadable = UnreadableLocked();
  volume_objects_ = std::move(objects);
  return volume_objects_;
}

std::vector<kube::CapacityBuffer> LiveObjectStore::Buffers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return CopiesOf(buffers_);
}

std::vector<kube::RawObject> LiveObjectStore::NodePools() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return CopiesOf(node_pools_);
}

std::vector<kube::ProvisioningRequest> LiveObjectStore::ProvisioningRequests()
    const {
  std::lock_guard<std::mutex> lock(mutex_);
  return CopiesOf(requests_);
}

std::optional<std::vector<kube::PdbState>> LiveObjectStore::Pdbs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pdbs_.synced) return std::nullopt;
  std::vector<kube::PdbState> out;
  out.reserve(pdbs_.items.size());
  for (const auto& [key, pdb] : pdbs_.items) out.push_back(*pdb);
  return out;
}

std::optional<kube::PodTemplateMap> LiveObjectStore::PodTemplates() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pod_templates_.synced) return std::nullopt;
  kube::PodTemplateMap out;
  for (const auto& [key, pod_template] : pod_templates_.items) {
    out.emplace(pod_template->Key(), *pod_template);
  }
  return out;
}

SharedList<kube::LivePod> LiveObjectStore::Pods() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ListOf(pods_);
}

SharedList<kube::LiveNode> LiveObjectStore::Nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ListOf(nodes_);
}

bool LiveObjectStore::Synced() const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto listed = [](const auto& collection) {
    return !collection.required || collection.synced;
  };
  auto listed_or_refused = [&](const auto& collection, std::string_view kind) {
    return listed(collection) || refused_.contains(kind);
  };
  return pods_.synced && nodes_.synced &&
         listed_or_refused(volumes_, kPersistentVolumes) &&
         listed_or_refused(claims_, kPersistentVolumeClaims) &&
         listed_or_refused(classes_, kStorageClasses) &&
         listed_or_refused(csi_nodes_, kCsiNodes) &&
         listed_or_refused(csi_drivers_, kCsiDrivers) &&
         listed_or_refused(capacities_, kCsiStorageCapacities) &&
         listed(node_pools_);
}

bool LiveObjectStore::KindSynced(std::string_view kind) const {
  if (kind == kPersistentVolumes) return volumes_.synced;
  if (kind == kPersistentVolumeClaims) return claims_.synced;
  if (kind == kStorageClasses) return classes_.synced;
  if (kind == kCsiNodes) return csi_nodes_.synced;
  if (kind == kCsiDrivers) return csi_drivers_.synced;
  if (kind == kCsiStorageCapacities) return capacities_.synced;
  return false;
}

void LiveObjectStore::MarkUnreadable(const std::string& kind, std::string why) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [entry, added] = refused_.try_emplace(kind, why);
  if (!added && entry->second == why) return;
  entry->second = std::move(why);
  volume_objects_.reset();
}

std::map<std::string, std::string, std::less<>>
LiveObjectStore::UnreadableLocked() const {
  std::map<std::string, std::string, std::less<>> unreadable;
  for (const auto& [kind, why] : refused_) {
    if (!KindSynced(kind)) unreadable.emplace(kind, why);
  }
  return unreadable;
}

bool LiveObjectStore::IsUnreadable(std::string_view kind) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return refused_.contains(kind) && !KindSynced(kind);
}

std::string LiveObjectStore::Unreadable() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (const auto& [kind, why] : UnreadableLocked()) {
    text += (text.empty() ? "" : "; ") + kind + ": " + why;
  }
  return text;
}

}  // namespace propscaler

#include "apiserver/object_store.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "apiserver/hpa_validation.h"
#include "apiserver/json_util.h"
#include "apiserver/label_validation.h"
#include "apiserver/merge_patch.h"
#include "apiserver/pod_template_validation.h"
#include "apiserver/pod_update_validation.h"

namespace propscaler::sim {
namespace {

// Copies uid and creationTimestamp from `from` into `to`'s metadata: the
// server owns them.
void KeepServerFields(const rapidjson::Value& from, rapidjson::Document& to) {
  rapidjson::Value& metadata = EnsureObject(to, "metadata", to.GetAllocator());
  for (const char* field : {"uid", "creationTimestamp"}) {
    SetString(metadata, field, GetString(Metadata(from), field),
              to.GetAllocator());
  }
}

std::optional<ApiError> CheckResourceVersion(const ResourceType& type,
                                             const std::string& name,
                                             const rapidjson::Value& object,
                                             int64_t current) {
  std::string wanted = GetString(Metadata(object), "resourceVersion");
  if (wanted.empty() || wanted == std::to_string(current)) return std::nullopt;
  return ApiError::Conflict(
      type.QualifiedName(), name,
      "the object has been modified; please apply your changes to the latest "
      "version and try again");
}

std::map<std::string, std::string> SelectableFields(
    const rapidjson::Value& object) {
  std::map<std::string, std::string> fields;
  for (const auto& [outer, inner] :
       {std::pair{"spec", "nodeName"}, std::pair{"status", "phase"}}) {
    auto it = object.FindMember(outer);
    if (it == object.MemberEnd() || !it->value.IsObject()) continue;
    auto value = it->value.FindMember(inner);
    if (value == it->value.MemberEnd() || !value->value.IsString()) continue;
    fields[std::string(outer) + "." + inner] = value->value.GetString();
  }
  return fields;
}

}  // namespace

const char* EventTypeName(EventType type) {
  switch (type) {
    case EventType::kAdded:
      return "ADDED";
    case EventType::kModified:
      return "MODIFIED";
    case EventType::kDeleted:
      return "DELETED";
  }
  return "ERROR";
}

ObjectStore::ObjectStore(size_t history_size, const Clock* clock)
    : history_size_(std::max<size_t>(history_size, 1)),
      clock_(clock != nullptr ? clock : &own_clock_),
      random_(std::random_device{}()) {}

ApiResult<ObjectPtr> ObjectStore::Create(const ResourceType& type,
                                         const std::string& ns,
                                         rapidjson::Document object) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto error = PrepareNewLocked(type, ns, object)) return *error;
  ObjectKey key{ns, GetString(Metadata(object), "name")};
  if (auto error = ValidatePodTemplate(type, key.name, object)) return *error;
  if (auto error = ValidateHpaBounds(type, key.name, object)) return *error;
  if (auto error = ValidateLabelValues(type, key.name, object)) return *error;
  ObjectMap& objects = objects_[type.plural];
  if (objects.count(key) > 0) {
    return ApiError::AlreadyExists(type.QualifiedName(), key.name);
  }
  return CommitLocked(type, key, object, EventType::kAdded, nullptr);
}

std::optional<ApiError> ObjectStore::PrepareNewLocked(
    const ResourceType& type, const std::string& ns, rapidjson::Document& doc) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& metadata = EnsureObject(doc, "metadata", alloc);
  std::string body_ns = GetString(metadata, "namespace");
  if (!body_ns.empty() && body_ns != ns) {
    return ApiError::BadRequest(
        "the namespace of the provided object does not match the namespace "
        "sent on the request");
  }
  if (GetString(metadata, "name").empty()) {
    std::string prefix = GetString(metadata, "generateName");
    if (prefix.empty()) {
      return ApiError::Invalid(type.kind +
                               " is invalid: metadata.name: Required value: "
                               "name or generateName is required");
    }
    SetString(metadata, "name", prefix + RandomSuffixLocked(), alloc);
  }
  if (!ns.empty()) SetString(metadata, "namespace", ns, alloc);
  SetString(metadata, "uid", NewUidLocked(), alloc);
  SetString(metadata, "creationTimestamp", Rfc3339(clock_->Now()), alloc);
  SetString(doc, "kind", type.kind, alloc);
  SetString(doc, "apiVersion", type.ApiVersion(), alloc);
  return std::nullopt;
}

ApiResult<ObjectPtr> ObjectStore::Update(const ResourceType& type,
                                         const std::string& ns,
                                         const std::string& name,
                                         rapidjson::Document object) {
  std::string body_name = GetString(Metadata(object), "name");
  if (!body_name.empty() && body_name != name) {
    return ApiError::BadRequest("the name of the object (" + body_name +
                                ") does not match the name on the URL (" +
                                name + ")");
  }
  auto replace = [&](rapidjson::Document& current) -> std::optional<ApiError> {
    int64_t rv = std::stoll(GetString(Metadata(current), "resourceVersion"));
    if (auto error = CheckResourceVersion(type, name, object, rv)) {
      return error;
    }
    if (auto error = ValidatePodTemplate(type, name, object)) return error;
    if (auto error = ValidateHpaBounds(type, name, object)) return error;
    if (auto error = ValidateLabelValues(type, name, object)) return error;
    if (auto error = ValidatePodUpdate(type, name, current, object)) {
      return error;
    }
    KeepServerFields(current, object);
    auto& alloc = object.GetAllocator();
    rapidjson::Value& metadata = EnsureObject(object, "metadata", alloc);
    SetString(metadata, "name", name, alloc);
    if (!ns.empty()) SetString(metadata, "namespace", ns, alloc);
    SetString(object, "kind", type.kind, alloc);
    SetString(object, "apiVersion", type.ApiVersion(), alloc);
    current.Swap(object);
    return std::nullopt;
  };
  return Mutate(type, ns, name, replace);
}

ApiResult<ObjectPtr> ObjectStore::Patch(const ResourceType& type,
                                        const std::string& ns,
                                        const std::string& name,
                                        const rapidjson::Value& patch,
                                        PatchType patch_type) {
  auto merge = [&](rapidjson::Document& current) -> std::optional<ApiError> {
    rapidjson::Document original;
    original.CopyFrom(current, original.GetAllocator());
    int64_t rv = std::stoll(GetString(Metadata(current), "resourceVersion"));
    if (patch_type == PatchType::kStrategic) {
      ApplyStrategicMergePatch(current, patch, current.GetAllocator());
    } else {
      ApplyMergePatch(current, patch, current.GetAllocator());
    }
    if (auto error = CheckResourceVersion(type, name, current, rv)) {
      return error;
    }
    if (auto error = ValidatePodTemplate(type, name, current)) return error;
    if (auto error = ValidateHpaBounds(type, name, current)) return error;
    if (auto error = ValidateLabelValues(type, name, current)) return error;
    if (auto error = ValidatePodUpdate(type, name, original, current)) {
      return error;
    }
    KeepServerFields(original, current);
    auto& alloc = current.GetAllocator();
    rapidjson::Value& metadata = EnsureObject(current, "metadata", alloc);
    SetString(metadata, "name", name, alloc);
    if (!ns.empty()) SetString(metadata, "namespace", ns, alloc);
    return std::nullopt;
  };
  return Mutate(type, ns, name, merge);
}

ApiResult<ObjectPtr> ObjectStore::Mutate(const ResourceType& type,
                                         const std::string& ns,
                                         const std::string& name,
                                         const Mutation& mutate) {
  std::lock_guard<std::mutex> lock(mu_);
  ObjectKey key{ns, name};
  ObjectMap& objects = objects_[type.plural];
  auto it = objects.find(key);
  if (it == objects.end())
    return ApiError::NotFound(type.QualifiedName(), name);
  rapidjson::Document doc;
  doc.Parse(it->second->json.data(), it->second->json.size());
  if (auto error = mutate(doc)) return *error;
  return CommitLocked(type, key, doc, EventType::kModified, it->second);
}

ApiResult<ObjectPtr> ObjectStore::Delete(const ResourceType& type,
                                         const std::string& ns,
                                         const std::string& name,
                                         const Preconditions& preconditions) {
  std::lock_guard<std::mutex> lock(mu_);
  ObjectKey key{ns, name};
  ObjectMap& objects = objects_[type.plural];
  auto it = objects.find(key);
  if (it == objects.end())
    return ApiError::NotFound(type.QualifiedName(), name);
  rapidjson::Document doc;
  doc.Parse(it->second->json.data(), it->second->json.size());
  const rapidjson::Value& metadata = doc["metadata"];
  auto field = [&](const char* member) {
    auto m = metadata.FindMember(member);
    return m != metadata.MemberEnd() && m->value.IsString()
               ? std::string(m->value.GetString())
               : std::string();
  };
  // The real server's words, which name the kind (Node), not the resource.
  if (!preconditions.uid.empty() && preconditions.uid != field("uid")) {
    return ApiError::Conflict(
        type.kind, name,
        "the UID in the precondition (" + preconditions.uid +
            ") does not match the UID in record (" + field("uid") +
            "). The object might have been deleted and then recreated");
  }
  if (!preconditions.resource_version.empty() &&
      preconditions.resource_version != field("resourceVersion")) {
    return ApiError::Conflict(
        type.kind, name,
        "the ResourceVersion in the precondition (" +
            preconditions.resource_version +
            ") does not match the ResourceVersion in record (" +
            field("resourceVersion") +
            "). The object might have been modified");
  }
  return CommitLocked(type, key, doc, EventType::kDeleted, nullptr);
}

ApiResult<ObjectPtr> ObjectStore::Get(const ResourceType& type,
                                      const std::string& ns,
                                      const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto objects = objects_.find(type.plural);
  if (objects == objects_.end()) {
    return ApiError::NotFound(type.QualifiedName(), name);
  }
  auto it = objects->second.find(ObjectKey{ns, name});
  if (it == objects->second.end()) {
    return ApiError::NotFound(type.QualifiedName(), name);
  }
  return it->second;
}

ObjectPtr ObjectStore::CommitLocked(const ResourceType& type,
                                    const ObjectKey& key,
                                    rapidjson::Document& doc, EventType event,
                                    ObjectPtr previous) {
  int64_t rv = ++resource_version_;
  rapidjson::Value& metadata =
      EnsureObject(doc, "metadata", doc.GetAllocator());
  SetString(metadata, "resourceVersion", std::to_string(rv),
            doc.GetAllocator());
  auto stored = std::make_shared<StoredObject>();
  stored->json = ToJson(doc);
  stored->labels = GetLabels(doc);
  stored->fields = SelectableFields(doc);
  stored->resource_version = rv;
  ObjectMap& objects = objects_[type.plural];
  if (event == EventType::kDeleted) {
    objects.erase(key);
  } else {
    objects[key] = stored;
  }
  RecordLocked(WatchEvent{rv, event, &type, key, stored, std::move(previous)});
  return stored;
}

void ObjectStore::RecordLocked(WatchEvent event) {
  history_.push_back(std::move(event));
  while (history_.size() > history_size_) {
    oldest_watchable_ = history_.front().resource_version;
    history_.pop_front();
  }
  clock_->Notify();
}

ListChunk ObjectStore::List(const ResourceType& type, const std::string& ns,
                            const std::optional<ObjectKey>& start_after,
                            const ObjectFilter& filter, size_t limit) const {
  std::lock_guard<std::mutex> lock(mu_);
  ListChunk chunk;
  chunk.resource_version = resource_version_;
  auto objects = objects_.find(type.plural);
  if (objects == objects_.end()) return chunk;
  const ObjectMap& map = objects->second;
  auto it = start_after ? map.upper_bound(*start_after)
                        : map.lower_bound(ObjectKey{ns, ""});
  for (; it != map.end(); ++it) {
    if (!ns.empty() && it->first.ns != ns) break;
    if (!filter(it->first, *it->second)) continue;
    if (limit > 0 && chunk.objects.size() == limit) {
      chunk.more = true;
      chunk.remaining = std::distance(it, map.end());
      break;
    }
    chunk.objects.emplace_back(it->first, it->second);
  }
  return chunk;
}

WaitResult ObjectStore::WaitForEvents(int64_t after_rv, TimePoint wake_at,
                                      uint64_t drop_generation,
                                      size_t max_events,
                                      const std::atomic<bool>* cancel) const {
  clock_->WaitUntil(wake_at, [&] {
    return shut_down_ || drop_generation_ != drop_generation ||
           resource_version_ > after_rv || after_rv < oldest_watchable_ ||
           (cancel != nullptr && cancel->load());
  });
  std::lock_guard<std::mutex> lock(mu_);
  WaitResult result;
  result.resource_version = resource_version_;
  result.oldest_watchable = oldest_watchable_;
  if (shut_down_) {
    result.kind = WaitResult::Kind::kShutdown;
  } else if (drop_generation_ != drop_generation) {
    result.kind = WaitResult::Kind::kDropped;
  } else if (after_rv < oldest_watchable_) {
    result.kind = WaitResult::Kind::kExpired;
  } else if (resource_version_ > after_rv) {
    result.kind = WaitResult::Kind::kEvents;
    // Event N sits at index N - first; the cursor is within the history.
    size_t start = after_rv + 1 - history_.front().resource_version;
    size_t end = std::min(history_.size(), start + max_events);
    result.events.assign(history_.begin() + start, history_.begin() + end);
  }
  return result;
}

void ObjectStore::SetHistorySize(size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  history_size_ = std::max<size_t>(size, 1);
}

int64_t ObjectStore::resource_version() const {
  std::lock_guard<std::mutex> lock(mu_);
  return resource_version_;
}

int64_t ObjectStore::oldest_watchable() const {
  std::lock_guard<std::mutex> lock(mu_);
  return oldest_watchable_;
}

uint64_t ObjectStore::drop_generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return drop_generation_;
}

void ObjectStore::CompactHistory() {
  std::lock_guard<std::mutex> lock(mu_);
  history_.clear();
  oldest_watchable_ = resource_version_.load();
  clock_->Notify();
}

void ObjectStore::DropWatches() {
  std::lock_guard<std::mutex> lock(mu_);
  ++drop_generation_;
  clock_->Notify();
}

void ObjectStore::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shut_down_ = true;
  clock_->Notify();
}

std::string ObjectStore::NewUidLocked() {
  uint64_t a = random_();
  uint64_t b = random_();
  char buffer[40];
  std::snprintf(
      buffer, sizeof(buffer), "%08x-%04x-4%03x-8%03x-%012llx",
      static_cast<unsigned>(a >> 32), static_cast<unsigned>((a >> 16) & 0xffff),
      static_cast<unsigned>(a & 0xfff), static_cast<unsigned>(b >> 52),
      static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buffer;
}

std::string ObjectStore::RandomSuffixLocked() {
  static constexpr char kChars[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string suffix;
  for (int i = 0; i < 5; ++i)
    suffix += kChars[random_() % (sizeof(kChars) - 1)];
  return suffix;
}

}  // namespace propscaler::sim

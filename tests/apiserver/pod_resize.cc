#include "apiserver/pod_resize.h"

#include <optional>
#include <vector>

#include "apiserver/json_util.h"
#include "apiserver/merge_patch.h"
#include "common/quantity.h"

namespace propscaler::sim {
namespace {

using rapidjson::Value;

struct Usage {
  int64_t cpu_milli = 0;
  int64_t memory_milli = 0;
};

const Value* Member(const Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

int64_t Milli(const Value* list, const char* resource) {
  const Value* value = list != nullptr ? Member(*list, resource) : nullptr;
  if (value == nullptr || !value->IsString()) return 0;
  Result<int64_t> parsed = ParseMilliQuantity(value->GetString());
  return parsed.ok() ? *parsed : 0;
}

const Value& Containers(const Value& pod) {
  static const Value kNone(rapidjson::kArrayType);
  const Value* spec = Member(pod, "spec");
  const Value* containers = spec ? Member(*spec, "containers") : nullptr;
  return containers != nullptr && containers->IsArray() ? *containers : kNone;
}

Usage Requests(const Value& pod) {
  Usage usage;
  for (const Value& c : Containers(pod).GetArray()) {
    const Value* resources = Member(c, "resources");
    const Value* requests =
        resources ? Member(*resources, "requests") : nullptr;
    usage.cpu_milli += Milli(requests, "cpu");
    usage.memory_milli += Milli(requests, "memory");
  }
  return usage;
}

// One container's request and limit of one resource, in thousandths.
struct Sized {
  const Value* container;
  const char* resource;  // "cpu" or "memory"
  int64_t request;
  int64_t limit;
};

std::vector<Sized> CpuAndMemory(const Value& pod) {
  std::vector<Sized> out;
  for (const Value& c : Containers(pod).GetArray()) {
    const Value* resources = Member(c, "resources");
    const Value* requests =
        resources ? Member(*resources, "requests") : nullptr;
    const Value* limits = resources ? Member(*resources, "limits") : nullptr;
    for (const char* r : {"cpu", "memory"}) {
      out.push_back({&c, r, Milli(requests, r), Milli(limits, r)});
    }
  }
  return out;
}

std::string QosClass(const Value& pod) {
  bool any = false, guaranteed = true;
  for (const Sized& sized : CpuAndMemory(pod)) {
    any = any || sized.request > 0 || sized.limit > 0;
    // A missing request defaults to the limit.
    if (sized.limit == 0 ||
        (sized.request != 0 && sized.request != sized.limit)) {
      guaranteed = false;
    }
  }
  return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
}

ApiError Invalid(const std::string& name, const std::string& cause) {
  return ApiError::Invalid("Pod \"" + name + "\" is invalid: " + cause);
}

// Only cpu and memory requests and limits of the containers may differ.
std::optional<ApiError> CheckResize(const std::string& name,
                                    const Value& before, const Value& after) {
  rapidjson::Document a, b;
  a.CopyFrom(before, a.GetAllocator());
  b.CopyFrom(after, b.GetAllocator());
  for (rapidjson::Document* doc : {&a, &b}) {
    doc->RemoveMember("status");
    doc->RemoveMember("metadata");
    Value* spec = const_cast<Value*>(Member(*doc, "spec"));
    Value* containers =
        spec ? const_cast<Value*>(Member(*spec, "containers")) : nullptr;
    if (containers == nullptr || !containers->IsArray()) continue;
    for (Value& c : containers->GetArray()) {
      Value* resources = const_cast<Value*>(Member(c, "resources"));
      if (resources == nullptr) continue;
      for (const char* list : {"requests", "limits"}) {
        Value* values = const_cast<Value*>(Member(*resources, list));
        if (values == nullptr || !values->IsObject()) continue;
        values->RemoveMember("cpu");
        values->RemoveMember("memory");
        if (values->ObjectEmpty()) resources->RemoveMember(list);
      }
      if (resources->ObjectEmpty()) c.RemoveMember("resources");
    }
  }
  if (a != b) {
    return Invalid(name,
                   "spec: Forbidden: only cpu and memory resources are "
                   "mutable");
  }
  for (const Sized& sized : CpuAndMemory(after)) {
    if (sized.limit > 0 && sized.request > sized.limit) {
      const std::string r = sized.resource;
      return Invalid(name,
                     "spec.containers[" + GetString(*sized.container, "name") +
                         "].resources.requests: Invalid value: " + r +
                         " must be less than or equal to " + r + " limit");
    }
  }
  if (QosClass(before) != QosClass(after)) {
    return Invalid(name,
                   "spec: Invalid value: Pod QOS Class may not change "
                   "as a result of resizing");
  }
  return std::nullopt;
}

// The kubelet's verdict for `pod` on its node: "" (fits), "Infeasible" or
// "Deferred", with the message.
std::pair<std::string, std::string> Verdict(const ObjectStore& store,
                                            const std::string& ns,
                                            const std::string& name,
                                            const Value& pod) {
  const Value* spec = Member(pod, "spec");
  const std::string node_name = spec ? GetString(*spec, "nodeName") : "";
  const ResourceType& nodes = *FindResourceType("nodes");
  ApiResult<ObjectPtr> node = store.Get(nodes, "", node_name);
  if (!node.ok()) return {"", ""};
  rapidjson::Document node_doc;
  node_doc.Parse((*node)->json.c_str());
  const Value* status = Member(node_doc, "status");
  const Value* allocatable = status ? Member(*status, "allocatable") : nullptr;
  const Usage capacity{Milli(allocatable, "cpu"), Milli(allocatable, "memory")};
  const Usage wanted = Requests(pod);
  Usage used;
  ListChunk others = store.List(
      *FindResourceType("pods"), "", std::nullopt,
      [&](const ObjectKey& key, const StoredObject& object) {
        auto on = object.fields.find("spec.nodeName");
        auto phase = object.fields.find("status.phase");
        return !(key.ns == ns && key.name == name) &&
               on != object.fields.end() && on->second == node_name &&
               (phase == object.fields.end() ||
                (phase->second != "Succeeded" && phase->second != "Failed"));
      },
      0);
  for (const auto& [key, object] : others.objects) {
    rapidjson::Document other;
    other.Parse(object->json.c_str());
    const Usage requests = Requests(other);
    used.cpu_milli += requests.cpu_milli;
    used.memory_milli += requests.memory_milli;
  }
  for (const auto& [resource, want, have, in_use] :
       {std::tuple{"cpu", wanted.cpu_milli, capacity.cpu_milli, used.cpu_milli},
        std::tuple{"memory", wanted.memory_milli, capacity.memory_milli,
                   used.memory_milli}}) {
    if (want > have) {
      return {"Infeasible",
              std::string("Node didn't have enough capacity: ") + resource +
                  ", requested: " + std::to_string(MilliToUnitsRoundUp(want)) +
                  ", capacity: " + std::to_string(MilliToUnitsRoundUp(have))};
    }
    if (want > have - in_use) {
      return {"Deferred",
              std::string("Node didn't have enough resource: ") + resource +
                  ", requested: " + std::to_string(MilliToUnitsRoundUp(want)) +
                  ", used: " + std::to_string(MilliToUnitsRoundUp(in_use)) +
                  ", capacity: " + std::to_string(MilliToUnitsRoundUp(have))};
    }
  }
  return {"", ""};
}

// Writes the kubelet's verdict into `pod`'s status.
void Actuate(rapidjson::Document& pod, const std::string& reason,
             const std::string& message, const std::string& now) {
  auto& alloc = pod.GetAllocator();
  Value& status = EnsureObject(pod, "status", alloc);
  Value conditions(rapidjson::kArrayType);
  if (Value* old = const_cast<Value*>(Member(status, "conditions"));
      old != nullptr && old->IsArray()) {
    for (Value& c : old->GetArray()) {
      const std::string type = GetString(c, "type");
      if (type == "PodResizePending" || type == "PodResizeInProgress") continue;
      conditions.PushBack(Value(c, alloc), alloc);
    }
  }
  if (!reason.empty()) {
    Value pending(rapidjson::kObjectType);
    SetString(pending, "type", "PodResizePending", alloc);
    SetString(pending, "status", "True", alloc);
    SetString(pending, "reason", reason, alloc);
    SetString(pending, "message", message, alloc);
    SetString(pending, "lastTransitionTime", now, alloc);
    conditions.PushBack(pending, alloc);
  } else if (Value* statuses =
                 const_cast<Value*>(Member(status, "containerStatuses"));
             statuses != nullptr && statuses->IsArray()) {
    for (const Value& c : Containers(pod).GetArray()) {
      const Value* resources = Member(c, "resources");
      if (resources == nullptr) continue;
      for (Value& s : statuses->GetArray()) {
        if (GetString(s, "name") != GetString(c, "name")) continue;
        s.RemoveMember("resources");
        s.AddMember("resources", Value(*resources, alloc), alloc);
        s.RemoveMember("allocatedResources");
        if (const Value* requests = Member(*resources, "requests")) {
          s.AddMember("allocatedResources", Value(*requests, alloc), alloc);
        }
      }
    }
  }
  status.RemoveMember("conditions");
  status.AddMember("conditions", conditions, alloc);
}

std::string PendingReason(const Value& pod) {
  const Value* status = Member(pod, "status");
  const Value* conditions = status ? Member(*status, "conditions") : nullptr;
  if (conditions == nullptr || !conditions->IsArray()) return "";
  for (const Value& c : conditions->GetArray()) {
    if (GetString(c, "type") == "PodResizePending")
      return GetString(c, "reason");
  }
  return "";
}

}  // namespace

ApiResult<std::string> ResizePod(ObjectStore& store, const ResourcePath& path,
                                 const rapidjson::Value& patch,
                                 ObjectStore::PatchType patch_type) {
  ApiResult<ObjectPtr> current = store.Get(*path.type, path.ns, path.name);
  if (!current.ok()) return current.error();
  rapidjson::Document resized;
  resized.Parse((*current)->json.c_str());
  if (patch_type == ObjectStore::PatchType::kStrategic) {
    ApplyStrategicMergePatch(resized, patch, resized.GetAllocator());
  } else {
    ApplyMergePatch(resized, patch, resized.GetAllocator());
  }
  // Sized from the pod as patched now; the write below patches it again
  // under the store's lock.
  const std::pair<std::string, std::string> verdict =
      Verdict(store, path.ns, path.name, resized);
  ApiResult<ObjectPtr> written = store.Mutate(
      *path.type, path.ns, path.name,
      [&](rapidjson::Document& pod) -> std::optional<ApiError> {
        rapidjson::Document after;
        after.CopyFrom(pod, after.GetAllocator());
        if (patch_type == ObjectStore::PatchType::kStrategic) {
          ApplyStrategicMergePatch(after, patch, after.GetAllocator());
        } else {
          ApplyMergePatch(after, patch, after.GetAllocator());
        }
        const std::string wanted =
            GetString(Metadata(patch), "resourceVersion");
        if (!wanted.empty() &&
            wanted != GetString(Metadata(pod), "resourceVersion")) {
          return ApiError::Conflict(
              path.type->QualifiedName(), path.name,
              "the object has been modified; please apply your changes to "
              "the latest version and try again");
        }
        if (auto error = CheckResize(path.name, pod, after)) return error;
        Value& spec = EnsureObject(pod, "spec", pod.GetAllocator());
        spec.RemoveMember("containers");
        spec.AddMember("containers",
                       Value(Containers(after), pod.GetAllocator()),
                       pod.GetAllocator());
        Actuate(pod, verdict.first, verdict.second,
                Rfc3339(store.clock()->Now()));
        return std::nullopt;
      });
  if (!written.ok()) return written.error();
  return (*written)->json;
}

void RetryDeferredResizes(ObjectStore& store, const std::string& ns) {
  const ResourceType& pods = *FindResourceType("pods");
  ListChunk deferred = store.List(
      pods, ns, std::nullopt,
      [](const ObjectKey&, const StoredObject& object) {
        return object.json.find("\"Deferred\"") != std::string::npos;
      },
      0);
  for (const auto& [key, object] : deferred.objects) {
    rapidjson::Document pod;
    pod.Parse(object->json.c_str());
    if (PendingReason(pod) != "Deferred") continue;
    const std::pair<std::string, std::string> verdict =
        Verdict(store, key.ns, key.name, pod);
    store.Mutate(pods, key.ns, key.name,
                 [&](rapidjson::Document& stored) -> std::optional<ApiError> {
                   Actuate(stored, verdict.first, verdict.second,
                           Rfc3339(store.clock()->Now()));
                   return std::nullopt;
                 });
  }
}

}  // namespace propscaler::sim

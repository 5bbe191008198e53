#include "apiserver/store_objects.h"

#include <algorithm>

#include "apiserver/json_util.h"
#include "apiserver/resources.h"
#include "apiserver/scale_subresource.h"

namespace propscaler::sim {
namespace {

const ResourceType& Nodes() { return *FindResourceType("nodes"); }

ApiResult<rapidjson::Document> ParseObject(const std::string& json) {
  rapidjson::Document doc;
  std::string error;
  if (!ParseJsonObject(json, &doc, &error)) return ApiError::BadRequest(error);
  return doc;
}

Status ToStatus(const ApiResult<ObjectPtr>& result) {
  return result.ok() ? Status::Ok() : result.error().ToStatus();
}

Result<const ResourceType*> WorkloadType(const std::string& kind) {
  const ResourceType* type = FindResourceType(kind);
  if (type == nullptr || !type->scalable) {
    return Status::Invalid("not a scalable workload kind: " + kind);
  }
  return type;
}

std::string ConfigMapJson(const std::string& name,
                          const std::map<std::string, std::string>& data) {
  std::string json =
      "{\"metadata\":{\"name\":" + QuoteJson(name) + "},\"data\":{";
  bool first = true;
  for (const auto& [key, value] : data) {
    if (!first) json += ',';
    first = false;
    json += QuoteJson(key) + ":" + QuoteJson(value);
  }
  return json + "}}";
}

}  // namespace

Status CreateNode(ObjectStore& store, const std::string& node_json) {
  ApiResult<rapidjson::Document> doc = ParseObject(node_json);
  if (!doc.ok()) return doc.error().ToStatus();
  return ToStatus(store.Create(Nodes(), "", std::move(doc).value()));
}

Status UpdateNode(ObjectStore& store, const std::string& node_json) {
  ApiResult<rapidjson::Document> doc = ParseObject(node_json);
  if (!doc.ok()) return doc.error().ToStatus();
  std::string name = GetString(Metadata(*doc), "name");
  return ToStatus(store.Update(Nodes(), "", name, std::move(doc).value()));
}

Status PatchNode(ObjectStore& store, const std::string& name,
                 const std::string& merge_patch) {
  ApiResult<rapidjson::Document> patch = ParseObject(merge_patch);
  if (!patch.ok()) return patch.error().ToStatus();
  return ToStatus(store.Patch(Nodes(), "", name, *patch));
}

Status DeleteNode(ObjectStore& store, const std::string& name) {
  return ToStatus(store.Delete(Nodes(), "", name));
}

std::vector<std::string> NodeNames(const ObjectStore& store) {
  ListChunk chunk = store.List(
      Nodes(), "", std::nullopt,
      [](const ObjectKey&, const StoredObject&) { return true; }, 0);
  std::vector<std::string> names;
  for (const auto& [key, object] : chunk.objects) names.push_back(key.name);
  return names;
}

std::optional<std::string> GetObject(const ObjectStore& store,
                                     const std::string& path) {
  std::optional<ResourcePath> parsed = ParseResourcePath(path);
  if (!parsed || parsed->is_collection()) return std::nullopt;
  ApiResult<ObjectPtr> object =
      store.Get(*parsed->type, parsed->ns, parsed->name);
  if (!object.ok()) return std::nullopt;
  return (*object)->json;
}

Status CreateObject(ObjectStore& store, const std::string& collection_path,
                    const std::string& object_json) {
  std::optional<ResourcePath> parsed = ParseResourcePath(collection_path);
  if (!parsed || !parsed->is_collection()) {
    return Status::Invalid("not a collection path: " + collection_path);
  }
  ApiResult<rapidjson::Document> doc = ParseObject(object_json);
  if (!doc.ok()) return doc.error().ToStatus();
  return ToStatus(
      store.Create(*parsed->type, parsed->ns, std::move(doc).value()));
}

Status PatchObject(ObjectStore& store, const std::string& path,
                   const std::string& strategic_patch) {
  std::optional<ResourcePath> parsed = ParseResourcePath(path);
  if (!parsed || parsed->is_collection()) {
    return Status::Invalid("not an object path: " + path);
  }
  ApiResult<rapidjson::Document> patch = ParseObject(strategic_patch);
  if (!patch.ok()) return patch.error().ToStatus();
  return ToStatus(store.Patch(*parsed->type, parsed->ns, parsed->name, *patch,
                              ObjectStore::PatchType::kStrategic));
}

Status PutConfigMap(ObjectStore& store, const std::string& ns,
                    const std::string& name,
                    const std::map<std::string, std::string>& data) {
  const ResourceType& type = *FindResourceType("configmaps");
  std::string json = ConfigMapJson(name, data);
  ApiResult<ObjectPtr> updated =
      store.Update(type, ns, name, std::move(ParseObject(json)).value());
  if (updated.ok() || updated.error().code != 404) return ToStatus(updated);
  return ToStatus(store.Create(type, ns, std::move(ParseObject(json)).value()));
}

std::optional<std::map<std::string, std::string>> ConfigMapData(
    const ObjectStore& store, const std::string& ns, const std::string& name) {
  ApiResult<ObjectPtr> object =
      store.Get(*FindResourceType("configmaps"), ns, name);
  if (!object.ok()) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse((*object)->json.data(), (*object)->json.size());
  std::map<std::string, std::string> data;
  auto it = doc.FindMember("data");
  if (it == doc.MemberEnd() || !it->value.IsObject()) return data;
  for (const auto& m : it->value.GetObject()) {
    if (m.value.IsString()) data[m.name.GetString()] = m.value.GetString();
  }
  return data;
}

Status CreateWorkload(ObjectStore& store, const std::string& kind,
                      const std::string& ns, const std::string& name,
                      int64_t replicas) {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  std::string json =
      "{\"metadata\":{\"name\":" + QuoteJson(name) +
      ",\"labels\":{\"app\":" + QuoteJson(name) +
      "}},\"spec\":{\"replicas\":" + std::to_string(replicas) +
      ",\"selector\":{\"matchLabels\":{\"app\":" + QuoteJson(name) +
      "}}},\"status\":{\"replicas\":" + std::to_string(replicas) + "}}";
  return ToStatus(
      store.Create(**type, ns, std::move(ParseObject(json)).value()));
}

Result<int64_t> GetReplicas(const ObjectStore& store, const std::string& kind,
                            const std::string& ns, const std::string& name) {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  ApiResult<ObjectPtr> object = store.Get(**type, ns, name);
  if (!object.ok()) return object.error().ToStatus();
  rapidjson::Document doc;
  doc.Parse((*object)->json.data(), (*object)->json.size());
  return SpecReplicas(doc);
}

Status SetReplicas(ObjectStore& store, const std::string& kind,
                   const std::string& ns, const std::string& name,
                   int64_t replicas) {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  ResourcePath path{*type, ns, name, "scale"};
  rapidjson::Document patch;
  patch.Parse(
      ("{\"spec\":{\"replicas\":" + std::to_string(replicas) + "}}").c_str());
  ApiResult<std::string> scale = PatchScale(store, path, patch);
  return scale.ok() ? Status::Ok() : scale.error().ToStatus();
}

std::vector<std::string> Events(const ObjectStore& store,
                                const std::string& ns) {
  ListChunk chunk = store.List(
      *FindResourceType("events"), ns, std::nullopt,
      [](const ObjectKey&, const StoredObject&) { return true; }, 0);
  std::vector<std::pair<int64_t, std::string>> events;
  for (const auto& [key, object] : chunk.objects) {
    events.emplace_back(object->resource_version, object->json);
  }
  std::sort(events.begin(), events.end());
  std::vector<std::string> result;
  for (auto& [rv, json] : events) result.push_back(std::move(json));
  return result;
}

std::string PodJson(const std::string& name, const std::string& cpu,
                    const std::string& node, const std::string& memory) {
  const std::string scheduled =
      node.empty()
          ? R"({"type":"PodScheduled","status":"False","reason":"Unschedulable"})"
          : R"({"type":"PodScheduled","status":"True"})";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","ownerReferences":[{"apiVersion":"apps/v1",)"
         R"("kind":"ReplicaSet","name":"web","uid":"u1","controller":true}]},)"
         R"("spec":{"nodeName":")" +
         node +
         R"(","containers":[{"name":"c","resources":{"requests":)"
         R"({"cpu":")" +
         cpu + R"(","memory":")" + memory + R"("}}}]},"status":{"phase":")" +
         (node.empty() ? "Pending" : "Running") + R"(","conditions":[)" +
         scheduled + "]}}";
}

std::string GroupJson(const std::string& name, int min, int max,
                      const std::string& cpu, const std::string& memory) {
  return R"({"name":")" + name + R"(","minSize":)" + std::to_string(min) +
         R"(,"maxSize":)" + std::to_string(max) +
         R"(,"template":{"allocatable":{"cpu":")" + cpu + R"(","memory":")" +
         memory + R"(","pods":"110"},"labels":{},"taints":[]}})";
}

Status PutNodeGroups(ObjectStore& store, const std::string& ns,
                     const std::string& config_map,
                     const std::vector<std::string>& groups) {
  std::string json;
  for (const std::string& group : groups) {
    json += (json.empty() ? "" : ",") + group;
  }
  return PutConfigMap(
      store, ns, config_map,
      {{"node-groups.json", "{\"nodeGroups\":[" + json + "]}"}});
}

}  // namespace propscaler::sim

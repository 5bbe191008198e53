#include "kube/wire/cluster_api_json.h"

#include <rapidjson/document.h>

#include <initializer_list>

#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/pod_field_values.h"
#include "kube/wire/resources_json.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

Labels StringMap(const Value& object, const char* name) {
  Labels out;
  if (!object.IsObject() || !object.HasMember(name)) return out;
  const Value& map = object[name];
  if (!map.IsObject()) return out;
  for (const auto& member : map.GetObject()) {
    if (member.value.IsString()) {
      out[member.name.GetString()] = member.value.GetString();
    }
  }
  return out;
}

std::vector<ClusterApiOwner> Owners(const Value& metadata) {
  std::vector<ClusterApiOwner> owners;
  if (!metadata.HasMember("ownerReferences") ||
      !metadata["ownerReferences"].IsArray()) {
    return owners;
  }
  for (const Value& owner : metadata["ownerReferences"].GetArray()) {
    owners.push_back({JsonString(owner, "kind"), JsonString(owner, "name")});
  }
  return owners;
}

using json::Member;

// A path of object members; nullptr when any is missing or not an object.
const Value* ObjectAt(const Value& root,
                      std::initializer_list<const char*> path) {
  const Value* at = &root;
  for (const char* name : path) {
    at = Member(*at, name);
    if (at == nullptr || !at->IsObject()) return nullptr;
  }
  return at;
}

// spec.template.spec.taints (v1beta2's MachineTaint); an item with an
// unknown effect is left out, as the API server would not have taken it.
std::vector<Taint> MachineTaints(const Value& template_spec) {
  std::vector<Taint> out;
  const Value* taints = Member(template_spec, "taints");
  if (taints == nullptr || !taints->IsArray()) return out;
  for (const Value& item : taints->GetArray()) {
    Result<TaintEffect> effect =
        ParseTaintEffect(JsonString(item, "effect"), "taints");
    if (!effect.ok() || JsonString(item, "key").empty()) continue;
    out.push_back(
        {JsonString(item, "key"), JsonString(item, "value"), *effect});
  }
  return out;
}

// What a group's spec.template says about the machines it makes.
void DecodeMachineTemplate(const Value& spec, ClusterApiObject* object) {
  const Value* machine_template = ObjectAt(spec, {"template"});
  if (machine_template == nullptr) return;
  if (const Value* metadata = ObjectAt(*machine_template, {"metadata"})) {
    object->machine_labels = StringMap(*metadata, "labels");
  }
  const Value* template_spec = ObjectAt(*machine_template, {"spec"});
  if (template_spec == nullptr) return;
  object->machine_taints = MachineTaints(*template_spec);
  if (const Value* ref = ObjectAt(*template_spec, {"infrastructureRef"})) {
    object->infrastructure_ref = {
        JsonString(*ref, "apiVersion"), JsonString(*ref, "apiGroup"),
        JsonString(*ref, "kind"), JsonString(*ref, "name")};
  }
}

Result<ClusterApiObject> DecodeItem(const Value& item,
                                    const std::string& path) {
  if (!item.IsObject() || !item.HasMember("metadata") ||
      !item["metadata"].IsObject()) {
    return Status::Invalid(path + ": no metadata");
  }
  const Value& metadata = item["metadata"];
  ClusterApiObject object;
  object.namespace_ = JsonString(metadata, "namespace");
  object.name = JsonString(metadata, "name");
  object.labels = StringMap(metadata, "labels");
  object.annotations = StringMap(metadata, "annotations");
  object.owners = Owners(metadata);
  object.resource_version = JsonString(metadata, "resourceVersion");
  object.deleting = !JsonString(metadata, "deletionTimestamp").empty();
  if (item.HasMember("spec") && item["spec"].IsObject()) {
    const Value& spec = item["spec"];
    if (spec.HasMember("replicas") && spec["replicas"].IsInt64()) {
      object.replicas = spec["replicas"].GetInt64();
    }
    object.provider_id = JsonString(spec, "providerID");
    object.cluster_name = JsonString(spec, "clusterName");
    if (spec.HasMember("providerIDList") && spec["providerIDList"].IsArray()) {
      for (const Value& id : spec["providerIDList"].GetArray()) {
        if (id.IsString()) object.provider_ids.push_back(id.GetString());
      }
    }
    DecodeMachineTemplate(spec, &object);
  }
  if (const Value* status = ObjectAt(item, {"status"})) {
    const Value* replicas = Member(*status, "replicas");
    if (replicas != nullptr && replicas->IsInt64()) {
      object.status_replicas = replicas->GetInt64();
    }
  }
  return object;
}

}  // namespace

ListWatchCodec<ClusterApiObject> ClusterApiCodec() {
  return {[](std::string_view body) {
            return DecodeJsonList<ClusterApiObject>(body, &DecodeItem,
                                                    "cluster api list");
          },
          [](std::string_view line) {
            return DecodeJsonWatchEvent<ClusterApiObject>(
                line, &DecodeItem, "cluster api watch event");
          }};
}

Result<InfrastructureTemplate> DecodeInfrastructureTemplate(
    std::string_view json, const std::string& what) {
  Result<rapidjson::Document> doc = ParseJsonObject(json, what.c_str());
  if (!doc.ok()) return doc.status();
  InfrastructureTemplate out;
  const Value* status = ObjectAt(*doc, {"status"});
  if (status == nullptr) return out;
  if (const Value* capacity = ObjectAt(*status, {"capacity"})) {
    for (const auto& member : capacity->GetObject()) {
      if (member.value.IsString()) {
        out.capacity[member.name.GetString()] = member.value.GetString();
      } else if (member.value.IsInt64()) {
        out.capacity[member.name.GetString()] =
            std::to_string(member.value.GetInt64());
      }
    }
  }
  if (const Value* info = ObjectAt(*status, {"nodeInfo"})) {
    out.architecture = JsonString(*info, "architecture");
    out.operating_system = JsonString(*info, "operatingSystem");
  }
  return out;
}

std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value) {
  return "{\"metadata\":{\"annotations\":{" + QuoteJsonString(key) + ":" +
         (value.has_value() ? QuoteJsonString(*value) : "null") + "}}}";
}

}  // namespace propscaler::kube

#include "kube/cluster_api.h"

#include <rapidjson/document.h>

#include "kube/resources_json.h"

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

std::string StringOf(const Value& object, const char* name) {
  if (!object.IsObject() || !object.HasMember(name)) return "";
  return object[name].IsString() ? object[name].GetString() : "";
}

std::vector<std::string> OwnerKinds(const Value& metadata) {
  std::vector<std::string> kinds;
  if (!metadata.HasMember("ownerReferences") ||
      !metadata["ownerReferences"].IsArray()) {
    return kinds;
  }
  for (const Value& owner : metadata["ownerReferences"].GetArray()) {
    kinds.push_back(StringOf(owner, "kind"));
  }
  return kinds;
}

ClusterApiObject DecodeItem(const Value& item) {
  const Value& metadata = item["metadata"];
  ClusterApiObject object;
  object.namespace_ = StringOf(metadata, "namespace");
  object.name = StringOf(metadata, "name");
  object.labels = StringMap(metadata, "labels");
  object.annotations = StringMap(metadata, "annotations");
  object.owner_kinds = OwnerKinds(metadata);
  if (item.HasMember("spec") && item["spec"].IsObject()) {
    const Value& spec = item["spec"];
    if (spec.HasMember("replicas") && spec["replicas"].IsInt64()) {
      object.replicas = spec["replicas"].GetInt64();
    }
    object.provider_id = StringOf(spec, "providerID");
  }
  return object;
}

}  // namespace

Result<std::vector<ClusterApiObject>> DecodeClusterApiList(
    std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("items") ||
      !doc["items"].IsArray()) {
    return Status::Invalid("not a list: " + std::string(body.substr(0, 200)));
  }
  std::vector<ClusterApiObject> objects;
  for (const Value& item : doc["items"].GetArray()) {
    if (!item.IsObject() || !item.HasMember("metadata") ||
        !item["metadata"].IsObject()) {
      continue;
    }
    objects.push_back(DecodeItem(item));
  }
  return objects;
}

std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value) {
  return "{\"metadata\":{\"annotations\":{" + QuoteJsonString(key) + ":" +
         (value.has_value() ? QuoteJsonString(*value) : "null") + "}}}";
}

}  // namespace propscaler::kube

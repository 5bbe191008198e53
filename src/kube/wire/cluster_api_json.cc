#include "kube/wire/cluster_api_json.h"

#include <rapidjson/document.h>

#include "kube/wire/json_list_watch.h"
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

Result<std::string> DecodePreferredVersion(std::string_view api_group,
                                           const std::string& group) {
  const std::string what = "discovery of API group " + group;
  Result<rapidjson::Document> doc = ParseJsonObject(api_group, what.c_str());
  if (!doc.ok()) return doc.status();
  const Value& root = *doc;
  if (root.HasMember("preferredVersion") &&
      root["preferredVersion"].IsObject()) {
    const std::string version = JsonString(root["preferredVersion"], "version");
    if (!version.empty()) return version;
  }
  return Status::Invalid(what + ": no preferredVersion.version in " +
                         std::string(api_group.substr(0, 200)));
}

Result<std::vector<std::string>> DecodeResourceNames(
    std::string_view resource_list, const std::string& group_version) {
  const std::string what = "discovery of " + group_version;
  Result<rapidjson::Document> doc =
      ParseJsonObject(resource_list, what.c_str());
  if (!doc.ok()) return doc.status();
  const Value& root = *doc;
  if (!root.HasMember("resources") || !root["resources"].IsArray()) {
    return Status::Invalid(what + ": no resources list");
  }
  std::vector<std::string> names;
  for (const Value& resource : root["resources"].GetArray()) {
    const std::string name = JsonString(resource, "name");
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::string EncodeAnnotationPatch(const std::string& key,
                                  const std::optional<std::string>& value) {
  return "{\"metadata\":{\"annotations\":{" + QuoteJsonString(key) + ":" +
         (value.has_value() ? QuoteJsonString(*value) : "null") + "}}}";
}

}  // namespace propscaler::kube

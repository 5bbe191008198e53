#include "kube/wire/discovery_json.h"

#include <rapidjson/document.h>

#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

using json::Member;
using rapidjson::Value;

}  // namespace

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

Result<std::vector<std::string>> DecodeGroupVersions(std::string_view api_group,
                                                     const std::string& group) {
  const std::string what = "discovery of API group " + group;
  Result<rapidjson::Document> doc = ParseJsonObject(api_group, what.c_str());
  if (!doc.ok()) return doc.status();
  const Value* versions = Member(*doc, "versions");
  if (versions == nullptr || !versions->IsArray()) {
    return Status::Invalid(what + ": no versions list");
  }
  std::vector<std::string> out;
  for (const Value& version : versions->GetArray()) {
    const std::string name = JsonString(version, "version");
    if (!name.empty()) out.push_back(name);
  }
  return out;
}

Result<std::string> DecodeResourceOfKind(std::string_view resource_list,
                                         const std::string& group_version,
                                         const std::string& kind) {
  const std::string what = "discovery of " + group_version;
  Result<rapidjson::Document> doc =
      ParseJsonObject(resource_list, what.c_str());
  if (!doc.ok()) return doc.status();
  const Value* resources = Member(*doc, "resources");
  if (resources == nullptr || !resources->IsArray()) {
    return Status::Invalid(what + ": no resources list");
  }
  for (const Value& resource : resources->GetArray()) {
    const std::string name = JsonString(resource, "name");
    if (JsonString(resource, "kind") == kind &&
        name.find('/') == std::string::npos) {
      return name;
    }
  }
  return std::string();
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

}  // namespace propscaler::kube

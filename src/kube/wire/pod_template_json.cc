#include "kube/wire/pod_template_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <initializer_list>

#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/object_json.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

using json::Member;

ResourceList ReadResourceList(const Value* list) {
  ResourceList out;
  if (list == nullptr || !list->IsObject()) return out;
  for (const auto& m : list->GetObject()) {
    if (!m.value.IsString()) continue;
    out[std::string(m.name.GetString(), m.name.GetStringLength())] =
        std::string(m.value.GetString(), m.value.GetStringLength());
  }
  return out;
}

void WriteResourceList(rapidjson::Writer<rapidjson::StringBuffer>& writer,
                       const char* side, const ResourceList& list) {
  if (list.empty()) return;
  writer.Key(side);
  writer.StartObject();
  for (const auto& [resource, quantity] : list) {
    writer.Key(resource.c_str(), resource.size());
    writer.String(quantity.c_str(), quantity.size());
  }
  writer.EndObject();
}

int64_t IntegerOr(const Value* object, const char* name, int64_t absent) {
  const Value* value = object ? Member(*object, name) : nullptr;
  return value != nullptr && value->IsInt64() ? value->GetInt64() : absent;
}

// Whether the controller has yet to roll out the newest template; false
// where it has never written a status (no observedGeneration).
bool RollingOut(const Value& object) {
  const Value* metadata = Member(object, "metadata");
  const Value* spec = Member(object, "spec");
  const Value* status = Member(object, "status");
  const int64_t observed = IntegerOr(status, "observedGeneration", -1);
  if (observed < 0) return false;
  if (observed < IntegerOr(metadata, "generation", 0)) return true;
  // Deployments and statefulsets count replicas; daemonsets nodes.
  const int64_t scheduled = IntegerOr(status, "desiredNumberScheduled", -1);
  if (scheduled >= 0) {
    return IntegerOr(status, "updatedNumberScheduled", 0) < scheduled;
  }
  return IntegerOr(status, "updatedReplicas", 0) <
         IntegerOr(spec, "replicas", 1);
}

Result<PodTemplateWorkload> DecodeWorkloadValue(const Value& object,
                                                const std::string& path) {
  PodTemplateWorkload out;
  if (const Value* metadata = Member(object, "metadata")) {
    out.name = JsonString(*metadata, "name");
    out.uid = JsonString(*metadata, "uid");
    out.resource_version = JsonString(*metadata, "resourceVersion");
  }
  const Value* spec = Member(object, "spec");
  const Value* pod_template = spec ? Member(*spec, "template") : nullptr;
  const Value* pod_spec =
      pod_template ? Member(*pod_template, "spec") : nullptr;
  const Value* containers =
      pod_spec ? Member(*pod_spec, "containers") : nullptr;
  if (containers == nullptr || !containers->IsArray()) {
    return Status::Internal(path + ": workload " + out.name +
                            " has no spec.template.spec.containers");
  }
  out.containers = ContainerResourcesOf(*containers);
  if (const Value* selector = spec ? Member(*spec, "selector") : nullptr) {
    Result<LabelSelector> parsed = LabelSelectorOf(*selector, "spec.selector");
    if (parsed.ok()) out.pod_selector = parsed->ToString();
  }
  if (const Value* strategy = Member(*spec, "updateStrategy")) {
    out.update_strategy = JsonString(*strategy, "type");
  }
  out.rolling_out = RollingOut(object);
  return out;
}

void WriteContainerEdits(rapidjson::Writer<rapidjson::StringBuffer>& writer,
                         const std::vector<ContainerResourcesEdit>& edits) {
  writer.Key("containers");
  writer.StartArray();
  for (const ContainerResourcesEdit& edit : edits) {
    writer.StartObject();
    writer.Key("name");
    writer.String(edit.container.c_str(), edit.container.size());
    writer.Key("resources");
    writer.StartObject();
    WriteResourceList(writer, "requests", edit.requests);
    WriteResourceList(writer, "limits", edit.limits);
    writer.EndObject();
    writer.EndObject();
  }
  writer.EndArray();
}

void WriteResourceVersion(rapidjson::Writer<rapidjson::StringBuffer>& writer,
                          const std::string& resource_version) {
  if (resource_version.empty()) return;
  writer.Key("metadata");
  writer.StartObject();
  writer.Key("resourceVersion");
  writer.String(resource_version.c_str(), resource_version.size());
  writer.EndObject();
}

// A patch setting `edits` in the containers array below `path` (object
// keys from the root), under `resource_version` when it is set.
std::string EncodeEditsAt(const std::string& resource_version,
                          const std::vector<ContainerResourcesEdit>& edits,
                          std::initializer_list<const char*> path) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  WriteResourceVersion(writer, resource_version);
  for (const char* key : path) {
    writer.Key(key);
    writer.StartObject();
  }
  WriteContainerEdits(writer, edits);
  for (size_t i = 0; i < path.size(); ++i) writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

Result<ListPage<PodTemplateWorkload>> DecodeWorkloadList(
    std::string_view body) {
  return DecodeJsonList<PodTemplateWorkload>(body, &DecodeWorkloadValue,
                                             "workload list");
}

Result<WatchEvent<PodTemplateWorkload>> DecodeWorkloadEvent(
    std::string_view line) {
  return DecodeJsonWatchEvent<PodTemplateWorkload>(line, &DecodeWorkloadValue,
                                                   "workload watch event");
}

}  // namespace

Result<PodTemplateWorkload> DecodePodTemplateWorkload(std::string_view body) {
  Result<rapidjson::Document> doc = ParseJsonObject(body, "workload");
  if (!doc.ok()) return doc.status();
  return DecodeWorkloadValue(*doc, "workload");
}

ListWatchCodec<PodTemplateWorkload> PodTemplateCodec() {
  return {&DecodeWorkloadList, &DecodeWorkloadEvent};
}

std::vector<ContainerResources> ContainerResourcesOf(
    const rapidjson::Value& containers) {
  std::vector<ContainerResources> out;
  if (!containers.IsArray()) return out;
  for (const Value& container : containers.GetArray()) {
    ContainerResources resources{JsonString(container, "name"), {}, {}};
    if (const Value* r = Member(container, "resources")) {
      resources.requests = ReadResourceList(Member(*r, "requests"));
      resources.limits = ReadResourceList(Member(*r, "limits"));
    }
    out.push_back(std::move(resources));
  }
  return out;
}

std::string EncodeContainerResourcesPatch(
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits) {
  return EncodeEditsAt(resource_version, edits, {"spec", "template", "spec"});
}

std::string EncodePodResizePatch(
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits) {
  return EncodeEditsAt(resource_version, edits, {"spec"});
}

}  // namespace propscaler::kube

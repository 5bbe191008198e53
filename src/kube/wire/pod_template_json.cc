#include "kube/wire/pod_template_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

const Value* Member(const Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

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
  for (const Value& container : containers->GetArray()) {
    ContainerResources resources{JsonString(container, "name"), {}, {}};
    if (const Value* r = Member(container, "resources")) {
      resources.requests = ReadResourceList(Member(*r, "requests"));
      resources.limits = ReadResourceList(Member(*r, "limits"));
    }
    out.containers.push_back(std::move(resources));
  }
  return out;
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

std::string EncodeContainerResourcesPatch(
    const std::string& resource_version,
    const std::vector<ContainerResourcesEdit>& edits) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  if (!resource_version.empty()) {
    writer.Key("metadata");
    writer.StartObject();
    writer.Key("resourceVersion");
    writer.String(resource_version.c_str(), resource_version.size());
    writer.EndObject();
  }
  writer.Key("spec");
  writer.StartObject();
  writer.Key("template");
  writer.StartObject();
  writer.Key("spec");
  writer.StartObject();
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
  for (int i = 0; i < 4; ++i) writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace propscaler::kube

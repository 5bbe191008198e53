#include "kube/wire/decode.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>

#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/node_proto_decode.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

using json::Member;

std::string StringMember(const Value& object, const char* name) {
  const Value* value = Member(object, name);
  return value != nullptr && value->IsString()
             ? std::string(value->GetString(), value->GetStringLength())
             : std::string();
}

std::map<std::string, std::string> StringMap(const Value* object) {
  std::map<std::string, std::string> out;
  if (object == nullptr || !object->IsObject()) return out;
  for (const auto& m : object->GetObject()) {
    if (m.value.IsString()) {
      out.emplace(m.name.GetString(),
                  std::string(m.value.GetString(), m.value.GetStringLength()));
    }
  }
  return out;
}

Result<ConfigMap> DecodeConfigMapValue(const Value& object,
                                       const std::string& path) {
  ConfigMap config_map;
  const Value* metadata = Member(object, "metadata");
  if (metadata == nullptr) {
    return Status::Internal(path + ": configmap without metadata");
  }
  config_map.name = StringMember(*metadata, "name");
  config_map.namespace_ = StringMember(*metadata, "namespace");
  config_map.resource_version = StringMember(*metadata, "resourceVersion");
  config_map.annotations = StringMap(Member(*metadata, "annotations"));
  config_map.data = StringMap(Member(object, "data"));
  return config_map;
}

// A Scale, or a workload with the same fields.
Result<Scale> DecodeScaleValue(const Value& object, const std::string&) {
  Scale scale;
  if (const Value* metadata = Member(object, "metadata")) {
    scale.name = StringMember(*metadata, "name");
    scale.resource_version = StringMember(*metadata, "resourceVersion");
  }
  auto replicas = [](const Value* parent) -> int64_t {
    const Value* value = parent ? Member(*parent, "replicas") : nullptr;
    return value != nullptr && value->IsInt64() ? value->GetInt64() : 0;
  };
  scale.spec_replicas = replicas(Member(object, "spec"));
  scale.status_replicas = replicas(Member(object, "status"));
  return scale;
}

Result<ListPage<Scale>> DecodeWorkloadScaleList(std::string_view body) {
  return DecodeJsonList<Scale>(body, &DecodeScaleValue, "workload list");
}

Result<WatchEvent<Scale>> DecodeWorkloadScaleEvent(std::string_view line) {
  return DecodeJsonWatchEvent<Scale>(line, &DecodeScaleValue,
                                     "workload watch event");
}

Value StringMapValue(const std::map<std::string, std::string>& map,
                     rapidjson::Document::AllocatorType& alloc) {
  Value object(rapidjson::kObjectType);
  for (const auto& [key, value] : map) {
    object.AddMember(Value(key, alloc), Value(value, alloc), alloc);
  }
  return object;
}

}  // namespace

Result<WatchEventType> ParseWatchEventType(const std::string& type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  if (type == "ERROR") return WatchEventType::kError;
  return Status::Internal("watch event of unknown type \"" + type + "\"");
}

Result<ListPage<ConfigMap>> DecodeConfigMapList(std::string_view body) {
  return DecodeJsonList<ConfigMap>(body, &DecodeConfigMapValue,
                                   "configmap list");
}

Result<WatchEvent<ConfigMap>> DecodeConfigMapWatchEvent(std::string_view line) {
  return DecodeJsonWatchEvent<ConfigMap>(line, &DecodeConfigMapValue,
                                         "configmap watch event");
}

Result<ConfigMap> DecodeConfigMap(std::string_view body) {
  Result<rapidjson::Document> doc = ParseJsonObject(body, "configmap");
  if (!doc.ok()) return doc.status();
  return DecodeConfigMapValue(*doc, "configmap");
}

std::string EncodeConfigMap(const ConfigMap& config_map) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("apiVersion", "v1", alloc);
  doc.AddMember("kind", "ConfigMap", alloc);
  Value metadata(rapidjson::kObjectType);
  metadata.AddMember("name", Value(config_map.name, alloc), alloc);
  metadata.AddMember("namespace", Value(config_map.namespace_, alloc), alloc);
  if (!config_map.resource_version.empty()) {
    metadata.AddMember("resourceVersion",
                       Value(config_map.resource_version, alloc), alloc);
  }
  if (!config_map.annotations.empty()) {
    metadata.AddMember("annotations",
                       StringMapValue(config_map.annotations, alloc), alloc);
  }
  doc.AddMember("metadata", metadata, alloc);
  doc.AddMember("data", StringMapValue(config_map.data, alloc), alloc);
  return JsonText(doc);
}

Result<std::string> EditedConfigMapJson(std::string_view stored,
                                        const ConfigMap& desired) {
  Result<rapidjson::Document> doc = ParseJsonObject(stored, "configmap");
  if (!doc.ok()) return doc.status();
  auto& alloc = doc->GetAllocator();
  if (!doc->HasMember("metadata") || !(*doc)["metadata"].IsObject()) {
    return Status::Internal("configmap " + desired.name + " has no metadata");
  }
  Value& metadata = (*doc)["metadata"];
  const std::string stored_version = StringMember(metadata, "resourceVersion");
  if (stored_version != desired.resource_version) {
    return Status(StatusCode::kConflict,
                  "configmap " + desired.namespace_ + "/" + desired.name +
                      " changed since it was read (resourceVersion " +
                      desired.resource_version + ", now " + stored_version +
                      ")");
  }
  if (!desired.annotations.empty()) {
    if (!metadata.HasMember("annotations") ||
        !metadata["annotations"].IsObject()) {
      metadata.RemoveMember("annotations");
      metadata.AddMember("annotations", Value(rapidjson::kObjectType), alloc);
    }
    Value& annotations = metadata["annotations"];
    for (const auto& [key, value] : desired.annotations) {
      annotations.RemoveMember(key.c_str());
      annotations.AddMember(Value(key, alloc), Value(value, alloc), alloc);
    }
  }
  doc->RemoveMember("data");
  doc->AddMember("data", StringMapValue(desired.data, alloc), alloc);
  return JsonText(*doc);
}

Result<Scale> DecodeScale(std::string_view body) {
  Result<rapidjson::Document> doc = ParseJsonObject(body, "scale");
  if (!doc.ok()) return doc.status();
  return DecodeScaleValue(*doc, "scale");
}

// The server requires spec.scaleTargetRef; an item without one is skipped.
Result<HpaRef> DecodeHpaValue(const Value& object, const std::string& path) {
  const Value* metadata = Member(object, "metadata");
  const Value* spec = Member(object, "spec");
  const Value* ref =
      spec != nullptr ? Member(*spec, "scaleTargetRef") : nullptr;
  if (metadata == nullptr || ref == nullptr) {
    return Status::Internal(path +
                            ": horizontalpodautoscaler without metadata or "
                            "spec.scaleTargetRef");
  }
  HpaRef hpa{StringMember(*metadata, "name"), StringMember(*ref, "kind"),
             StringMember(*ref, "name"),
             StringMember(*metadata, "resourceVersion")};
  const Value* min = Member(*spec, "minReplicas");
  if (min != nullptr && min->IsInt64()) hpa.min_replicas = min->GetInt64();
  const Value* max = Member(*spec, "maxReplicas");
  if (max != nullptr && max->IsInt64()) hpa.max_replicas = max->GetInt64();
  return hpa;
}

Result<HpaRef> DecodeHpa(std::string_view body) {
  Result<rapidjson::Document> doc =
      ParseJsonObject(body, "horizontalpodautoscaler");
  if (!doc.ok()) return doc.status();
  return DecodeHpaValue(*doc, "horizontalpodautoscaler");
}

std::string EncodeMinReplicasPatch(const std::string& resource_version,
                                   int64_t min_replicas) {
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  writer.StartObject();
  writer.Key("metadata");
  writer.StartObject();
  writer.Key("resourceVersion");
  writer.String(resource_version.c_str());
  writer.EndObject();
  writer.Key("spec");
  writer.StartObject();
  writer.Key("minReplicas");
  writer.Int64(min_replicas);
  writer.EndObject();
  writer.EndObject();
  return text.GetString();
}

Result<ListPage<HpaRef>> DecodeHpaPage(std::string_view body) {
  return DecodeJsonList<HpaRef>(body, &DecodeHpaValue,
                                "horizontalpodautoscaler list");
}

Result<WatchEvent<HpaRef>> DecodeHpaWatchEvent(std::string_view line) {
  return DecodeJsonWatchEvent<HpaRef>(line, &DecodeHpaValue,
                                      "horizontalpodautoscaler watch event");
}

std::string EncodeReplicasPatch(int64_t replicas) {
  return "{\"spec\":{\"replicas\":" + std::to_string(replicas) + "}}";
}

std::string EncodeScaleUpdate(const std::string& ns, const std::string& name,
                              const std::string& resource_version,
                              int64_t replicas) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("apiVersion", "autoscaling/v1", alloc);
  doc.AddMember("kind", "Scale", alloc);
  Value metadata(rapidjson::kObjectType);
  metadata.AddMember("name", Value(name, alloc), alloc);
  metadata.AddMember("namespace", Value(ns, alloc), alloc);
  if (!resource_version.empty()) {  // else an unconditional update
    metadata.AddMember("resourceVersion", Value(resource_version, alloc),
                       alloc);
  }
  doc.AddMember("metadata", metadata, alloc);
  Value spec(rapidjson::kObjectType);
  spec.AddMember("replicas", Value(replicas), alloc);
  doc.AddMember("spec", spec, alloc);
  return JsonText(doc);
}

std::string DecodeStatusMessage(std::string_view body) {
  if (std::optional<std::string> message = KubeProtobufStatusMessage(body)) {
    return *message;
  }
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (!doc.HasParseError() && doc.IsObject()) {
    std::string message = StringMember(doc, "message");
    if (!message.empty()) return message;
  }
  constexpr size_t kMaxBody = 200;
  std::string text(body.substr(0, kMaxBody));
  if (body.size() > kMaxBody) text += "...";
  return text.empty() ? "(empty body)" : text;
}

ListWatchCodec<NodeInfo> CountedNodeCodec(const TaintFilter& excluded,
                                          CountedCpu cpu) {
  return {[excluded, cpu](std::string_view body) {
            return DecodeNodeList(body, excluded, cpu);
          },
          [excluded, cpu](std::string_view line) {
            return DecodeNodeWatchEvent(line, excluded, cpu);
          },
          [excluded, cpu](JsonChunkStream* body,
                          const ItemBatches<NodeInfo>& on_items) {
            // kube-apiserver answers protobuf, a server without it JSON.
            return body->Peek() == kKubeProtobufMagic[0]
                       ? DecodeNodeListProto(body, excluded, cpu, on_items)
                       : DecodeNodeListStream(body, excluded, cpu, on_items);
          },
          /*list_stream_protobuf=*/true};
}

ListWatchCodec<ConfigMap> ConfigMapCodec() {
  return {&DecodeConfigMapList, &DecodeConfigMapWatchEvent};
}

ListWatchCodec<Scale> WorkloadScaleCodec() {
  return {&DecodeWorkloadScaleList, &DecodeWorkloadScaleEvent};
}

ListWatchCodec<HpaRef> HpaCodec() {
  return {&DecodeHpaPage, &DecodeHpaWatchEvent};
}

}  // namespace propscaler::kube

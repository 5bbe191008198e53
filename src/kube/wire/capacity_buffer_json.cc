#include "kube/wire/capacity_buffer_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/utc_time.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/object_json.h"

namespace propscaler::kube {
namespace {

using namespace json;  // NOLINT: the field decoders

Result<std::optional<int64_t>> OptionalIntegerAt(const Value& object,
                                                 const char* name,
                                                 const std::string& path) {
  if (Member(object, name) == nullptr) return std::optional<int64_t>();
  int64_t value = 0;
  PS_ASSIGN_OR_RETURN(value, IntegerAt(object, name, path));
  return std::optional<int64_t>(value);
}

Result<std::vector<BufferCondition>> ConditionsAt(const Value& status,
                                                  const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(status, "conditions", path));
  std::vector<BufferCondition> out;
  for (size_t i = 0; array != nullptr && i < array->Size(); ++i) {
    const std::string at = Index(Join(path, "conditions"), i);
    const Value& item = (*array)[i];
    BufferCondition c;
    PS_ASSIGN_OR_RETURN(c.type, StringAt(item, "type", at));
    PS_ASSIGN_OR_RETURN(c.status, StringAt(item, "status", at));
    PS_ASSIGN_OR_RETURN(c.reason, StringAt(item, "reason", at));
    PS_ASSIGN_OR_RETURN(c.message, StringAt(item, "message", at));
    PS_ASSIGN_OR_RETURN(c.last_transition,
                        StringAt(item, "lastTransitionTime", at));
    out.push_back(std::move(c));
  }
  return out;
}

Status DecodeSpec(const Value& spec, const std::string& path,
                  CapacityBuffer* b) {
  PS_ASSIGN_OR_RETURN(b->strategy,
                      StringAt(spec, "provisioningStrategy", path));
  const Value* ref = nullptr;
  PS_ASSIGN_OR_RETURN(ref, ObjectAt(spec, "podTemplateRef", path));
  if (ref != nullptr) {
    PS_ASSIGN_OR_RETURN(b->pod_template,
                        StringAt(*ref, "name", Join(path, "podTemplateRef")));
  }
  PS_ASSIGN_OR_RETURN(ref, ObjectAt(spec, "scalableRef", path));
  if (ref != nullptr) {
    const std::string at = Join(path, "scalableRef");
    ScalableRef scalable;
    PS_ASSIGN_OR_RETURN(scalable.api_group, StringAt(*ref, "apiGroup", at));
    PS_ASSIGN_OR_RETURN(scalable.kind, StringAt(*ref, "kind", at));
    PS_ASSIGN_OR_RETURN(scalable.name, StringAt(*ref, "name", at));
    b->scalable = std::move(scalable);
  }
  PS_ASSIGN_OR_RETURN(b->replicas, OptionalIntegerAt(spec, "replicas", path));
  PS_ASSIGN_OR_RETURN(b->percentage,
                      OptionalIntegerAt(spec, "percentage", path));
  if (Member(spec, "limits") != nullptr) {
    PS_ASSIGN_OR_RETURN(b->limits, ResourcesAt(spec, "limits", path));
  }
  return Status::Ok();
}

Result<CapacityBuffer> DecodeBuffer(const Value& object,
                                    const std::string& path) {
  static const Value kEmpty(rapidjson::kObjectType);
  CapacityBuffer b;
  const Value* part = nullptr;
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "metadata", path));
  const Value& metadata = part != nullptr ? *part : kEmpty;
  const std::string meta = Join(path, "metadata");
  PS_ASSIGN_OR_RETURN(b.namespace_, StringAt(metadata, "namespace", meta));
  PS_ASSIGN_OR_RETURN(b.name, StringAt(metadata, "name", meta));
  PS_ASSIGN_OR_RETURN(b.uid, StringAt(metadata, "uid", meta));
  PS_ASSIGN_OR_RETURN(b.resource_version,
                      StringAt(metadata, "resourceVersion", meta));
  PS_ASSIGN_OR_RETURN(b.generation, IntegerAt(metadata, "generation", meta));
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "spec", path));
  if (part != nullptr) {
    if (Status s = DecodeSpec(*part, Join(path, "spec"), &b); !s.ok()) {
      return s.WithContext("CapacityBuffer " + b.namespace_ + "/" + b.name);
    }
  }
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "status", path));
  if (part != nullptr) {
    const std::string at = Join(path, "status");
    PS_ASSIGN_OR_RETURN(b.status_replicas,
                        OptionalIntegerAt(*part, "replicas", at));
    const Value* ref = nullptr;
    PS_ASSIGN_OR_RETURN(ref, ObjectAt(*part, "podTemplateRef", at));
    if (ref != nullptr) {
      PS_ASSIGN_OR_RETURN(b.status_pod_template,
                          StringAt(*ref, "name", Join(at, "podTemplateRef")));
    }
    PS_ASSIGN_OR_RETURN(b.conditions, ConditionsAt(*part, at));
  }
  return b;
}

Result<BufferChunk> ChunkFromTemplate(const Value& owner, const char* name,
                                      const std::string& path) {
  const Value* template_ = nullptr;
  PS_ASSIGN_OR_RETURN(template_, ObjectAt(owner, name, path));
  if (template_ == nullptr) {
    return Status::Invalid(Join(path, name) + ": missing");
  }
  // A template has no name and may leave out its metadata; a pod has
  // both. The virtual pods are named later.
  rapidjson::Document pod;
  auto& alloc = pod.GetAllocator();
  pod.CopyFrom(*template_, alloc);
  const Value* metadata_in = nullptr;
  PS_ASSIGN_OR_RETURN(metadata_in, ObjectAt(pod, "metadata", Join(path, name)));
  if (metadata_in == nullptr) {
    pod.RemoveMember("metadata");
    pod.AddMember("metadata", rapidjson::Value(rapidjson::kObjectType), alloc);
  }
  rapidjson::Value& metadata = pod["metadata"];
  metadata.RemoveMember("name");
  metadata.AddMember("name", "chunk", alloc);
  BufferChunk chunk;
  PS_ASSIGN_OR_RETURN(chunk.pod, DecodePodObject(pod, Join(path, name)));
  return chunk;
}

void WriteCondition(rapidjson::Writer<rapidjson::StringBuffer>* w,
                    const BufferCondition& c) {
  w->StartObject();
  for (const auto& [key, value] :
       {std::pair<const char*, const std::string*>{"type", &c.type},
        {"status", &c.status},
        {"reason", &c.reason},
        {"message", &c.message},
        {"lastTransitionTime", &c.last_transition}}) {
    w->Key(key);
    w->String(value->c_str(), value->size());
  }
  w->EndObject();
}

}  // namespace

ListWatchCodec<CapacityBuffer> CapacityBufferCodec() {
  return {[](std::string_view body) {
            return DecodeJsonList<CapacityBuffer>(body, &DecodeBuffer,
                                                  "CapacityBuffer list");
          },
          [](std::string_view line) {
            return DecodeJsonWatchEvent<CapacityBuffer>(
                line, &DecodeBuffer, "CapacityBuffer watch event");
          }};
}

Result<BufferChunk> DecodePodTemplateChunk(std::string_view body) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(body));
  return PodTemplateChunkOf(doc, "PodTemplate");
}

Result<BufferChunk> PodTemplateChunkOf(const rapidjson::Value& pod_template,
                                       const std::string& path) {
  return ChunkFromTemplate(pod_template, "template", path);
}

Result<BufferChunk> DecodeWorkloadChunk(std::string_view body) {
  rapidjson::Document doc;
  PS_ASSIGN_OR_RETURN(doc, ParseObject(body));
  const Value* spec = nullptr;
  PS_ASSIGN_OR_RETURN(spec, ObjectAt(doc, "spec", ""));
  if (spec == nullptr) return Status::Invalid("spec: missing");
  BufferChunk chunk;
  PS_ASSIGN_OR_RETURN(chunk, ChunkFromTemplate(*spec, "template", "spec"));
  // The API server defaults spec.replicas to 1.
  std::optional<int64_t> replicas;
  PS_ASSIGN_OR_RETURN(replicas, OptionalIntegerAt(*spec, "replicas", "spec"));
  chunk.workload_replicas = replicas.value_or(1);
  return chunk;
}

Result<BufferChunkSource> ChunkSourceOf(const CapacityBuffer& buffer) {
  if (!buffer.pod_template.empty()) {
    return BufferChunkSource{"/api/v1/namespaces/" + buffer.namespace_ +
                                 "/podtemplates/" + buffer.pod_template,
                             "podtemplates", &DecodePodTemplateChunk};
  }
  if (!buffer.scalable) {
    return Status::Invalid("CapacityBuffer " + buffer.Key() +
                           ": names neither podTemplateRef nor scalableRef");
  }
  static const std::pair<const char*, const char*> kKinds[] = {
      {"Deployment", "deployments"},
      {"ReplicaSet", "replicasets"},
      {"StatefulSet", "statefulsets"}};
  const ScalableRef& ref = *buffer.scalable;
  for (const auto& [kind, plural] : kKinds) {
    if (ref.api_group == "apps" && ref.kind == kind) {
      return BufferChunkSource{"/apis/apps/v1/namespaces/" + buffer.namespace_ +
                                   "/" + plural + "/" + ref.name,
                               plural, &DecodeWorkloadChunk};
    }
  }
  return Status::Invalid("CapacityBuffer " + buffer.Key() +
                         ": scalableRef {apiGroup: \"" + ref.api_group +
                         "\", kind: \"" + ref.kind +
                         "\"}: want an apps Deployment, ReplicaSet or "
                         "StatefulSet");
}

std::string BufferStatusPath(const CapacityBuffer& buffer) {
  return std::string(kCapacityBufferApi) + "/namespaces/" + buffer.namespace_ +
         "/capacitybuffers/" + buffer.name + "/status";
}

std::string EncodeBufferStatusPatch(const CapacityBuffer& buffer,
                                    const BufferStatus& want, TimePoint now) {
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> w(out);
  w.StartObject();
  // Under the resourceVersion read: conditions other writers set since
  // are not lost (the patch fails with a conflict instead).
  w.Key("metadata");
  w.StartObject();
  w.Key("resourceVersion");
  w.String(buffer.resource_version.c_str());
  w.EndObject();
  w.Key("status");
  w.StartObject();
  w.Key("replicas");
  if (want.replicas) {
    w.Int64(*want.replicas);
  } else {
    w.Null();
  }
  w.Key("podTemplateRef");
  if (want.pod_template.empty()) {
    w.Null();
  } else {
    w.StartObject();
    w.Key("name");
    w.String(want.pod_template.c_str());
    w.EndObject();
  }
  w.Key("provisioningStrategy");
  w.String(buffer.strategy.empty() ? kActiveCapacityStrategy
                                   : buffer.strategy.c_str());
  w.Key("conditions");
  w.StartArray();
  const std::string stamp = FormatUtc(now, "%Y-%m-%dT%H:%M:%SZ");
  for (const BufferCondition& c : want.conditions) {
    BufferCondition written = c;
    const BufferCondition* stored = FindCondition(buffer.conditions, c.type);
    written.last_transition = stored != nullptr && stored->status == c.status
                                  ? stored->last_transition
                                  : stamp;
    WriteCondition(&w, written);
  }
  // Conditions of other writers (a quota controller's LimitedByQuotas)
  // stay as they are.
  for (const BufferCondition& c : buffer.conditions) {
    if (FindCondition(want.conditions, c.type) == nullptr)
      WriteCondition(&w, c);
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return std::string(out.GetString(), out.GetSize());
}

}  // namespace propscaler::kube

#include "kube/wire/provisioning_request_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "common/utc_time.h"
#include "kube/wire/capacity_buffer_json.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

using namespace json;  // NOLINT: the field decoders

Result<std::vector<ProvReqCondition>> ConditionsAt(const Value& status,
                                                   const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(status, "conditions", path));
  std::vector<ProvReqCondition> out;
  for (size_t i = 0; array != nullptr && i < array->Size(); ++i) {
    const std::string at = Index(Join(path, "conditions"), i);
    const Value& item = (*array)[i];
    ProvReqCondition c;
    std::string when;
    PS_ASSIGN_OR_RETURN(c.type, StringAt(item, "type", at));
    PS_ASSIGN_OR_RETURN(c.status, StringAt(item, "status", at));
    PS_ASSIGN_OR_RETURN(c.reason, StringAt(item, "reason", at));
    PS_ASSIGN_OR_RETURN(c.message, StringAt(item, "message", at));
    PS_ASSIGN_OR_RETURN(when, StringAt(item, "lastTransitionTime", at));
    c.last_transition = ParseRfc3339(when);
    out.push_back(std::move(c));
  }
  return out;
}

Status DecodeSpec(const Value& spec, const std::string& path,
                  ProvisioningRequest* r) {
  PS_ASSIGN_OR_RETURN(r->class_name,
                      StringAt(spec, "provisioningClassName", path));
  const Value* sets = nullptr;
  PS_ASSIGN_OR_RETURN(sets, ArrayAt(spec, "podSets", path));
  for (size_t i = 0; sets != nullptr && i < sets->Size(); ++i) {
    const std::string at = Index(Join(path, "podSets"), i);
    PodSet set;
    const Value* ref = nullptr;
    PS_ASSIGN_OR_RETURN(ref, ObjectAt((*sets)[i], "podTemplateRef", at));
    if (ref != nullptr) {
      PS_ASSIGN_OR_RETURN(set.pod_template,
                          StringAt(*ref, "name", Join(at, "podTemplateRef")));
    }
    PS_ASSIGN_OR_RETURN(set.count, IntegerAt((*sets)[i], "count", at));
    r->pod_sets.push_back(std::move(set));
  }
  Labels parameters;
  PS_ASSIGN_OR_RETURN(parameters, StringMapAt(spec, "parameters", path));
  r->parameters = {parameters.begin(), parameters.end()};
  return Status::Ok();
}

Result<ProvisioningRequest> DecodeRequest(const Value& object,
                                          const std::string& path) {
  static const Value kEmpty(rapidjson::kObjectType);
  ProvisioningRequest r;
  const Value* part = nullptr;
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "metadata", path));
  const Value& metadata = part != nullptr ? *part : kEmpty;
  const std::string meta = Join(path, "metadata");
  std::string created;
  PS_ASSIGN_OR_RETURN(r.namespace_, StringAt(metadata, "namespace", meta));
  PS_ASSIGN_OR_RETURN(r.name, StringAt(metadata, "name", meta));
  PS_ASSIGN_OR_RETURN(r.uid, StringAt(metadata, "uid", meta));
  PS_ASSIGN_OR_RETURN(r.resource_version,
                      StringAt(metadata, "resourceVersion", meta));
  PS_ASSIGN_OR_RETURN(r.generation, IntegerAt(metadata, "generation", meta));
  PS_ASSIGN_OR_RETURN(created, StringAt(metadata, "creationTimestamp", meta));
  r.created = ParseRfc3339(created);
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "spec", path));
  if (part != nullptr) {
    if (Status s = DecodeSpec(*part, Join(path, "spec"), &r); !s.ok()) {
      return s.WithContext("ProvisioningRequest " + r.Key());
    }
  }
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "status", path));
  if (part != nullptr) {
    PS_ASSIGN_OR_RETURN(r.conditions,
                        ConditionsAt(*part, Join(path, "status")));
  }
  return r;
}

Result<ListPage<ProvisioningRequest>> DecodeList(std::string_view body) {
  return DecodeJsonList<ProvisioningRequest>(body, &DecodeRequest,
                                             "provisioningrequest list");
}

Result<WatchEvent<ProvisioningRequest>> DecodeEvent(std::string_view line) {
  return DecodeJsonWatchEvent<ProvisioningRequest>(
      line, &DecodeRequest, "provisioningrequest watch event");
}

// Its metadata; a pod spec that cannot be read is kept as its error (one
// bad template fails the requests naming it, not the watch).
Result<PodTemplate> DecodePodTemplate(const Value& object,
                                      const std::string& path) {
  static const Value kEmpty(rapidjson::kObjectType);
  PodTemplate t;
  const Value* part = nullptr;
  PS_ASSIGN_OR_RETURN(part, ObjectAt(object, "metadata", path));
  const Value& metadata = part != nullptr ? *part : kEmpty;
  const std::string meta = Join(path, "metadata");
  PS_ASSIGN_OR_RETURN(t.namespace_, StringAt(metadata, "namespace", meta));
  PS_ASSIGN_OR_RETURN(t.name, StringAt(metadata, "name", meta));
  PS_ASSIGN_OR_RETURN(t.resource_version,
                      StringAt(metadata, "resourceVersion", meta));
  Result<BufferChunk> chunk = PodTemplateChunkOf(object, path);
  if (!chunk.ok()) {
    t.error = "PodTemplate " + t.Key() + ": " + chunk.status().message();
    return t;
  }
  t.pod = std::move(chunk->pod);
  t.pod.namespace_ = t.namespace_;
  return t;
}

Result<ListPage<PodTemplate>> DecodeTemplateList(std::string_view body) {
  return DecodeJsonList<PodTemplate>(body, &DecodePodTemplate,
                                     "podtemplate list");
}

Result<WatchEvent<PodTemplate>> DecodeTemplateEvent(std::string_view line) {
  return DecodeJsonWatchEvent<PodTemplate>(line, &DecodePodTemplate,
                                           "podtemplate watch event");
}

void WriteString(rapidjson::Writer<rapidjson::StringBuffer>& writer,
                 const char* key, const std::string& value) {
  writer.Key(key);
  writer.String(value.c_str(), value.size());
}

}  // namespace

ListWatchCodec<ProvisioningRequest> ProvisioningRequestCodec() {
  return {&DecodeList, &DecodeEvent};
}

ListWatchCodec<PodTemplate> RequestPodTemplateCodec() {
  return {&DecodeTemplateList, &DecodeTemplateEvent};
}

Result<ProvisioningRequest> DecodeProvisioningRequest(std::string_view body) {
  Result<rapidjson::Document> doc =
      ParseJsonObject(body, "provisioningrequest");
  if (!doc.ok()) return doc.status();
  return DecodeRequest(*doc, "provisioningrequest");
}

Result<ProvisioningRequestsFile> DecodeProvisioningRequestsFile(
    std::string_view json) {
  Result<rapidjson::Document> doc = ParseJsonObject(json, "list");
  if (!doc.ok()) return doc.status();
  const Value* items = nullptr;
  PS_ASSIGN_OR_RETURN(items, ArrayAt(*doc, "items", "list"));
  ProvisioningRequestsFile out;
  for (size_t i = 0; items != nullptr && i < items->Size(); ++i) {
    const std::string at = Index("items", i);
    const Value& item = (*items)[i];
    std::string kind;
    PS_ASSIGN_OR_RETURN(kind, StringAt(item, "kind", at));
    if (kind == "ProvisioningRequest") {
      ProvisioningRequest request;
      PS_ASSIGN_OR_RETURN(request, DecodeRequest(item, at));
      out.requests.push_back(std::move(request));
    } else if (kind == "PodTemplate") {
      PodTemplate pod_template;
      PS_ASSIGN_OR_RETURN(pod_template, DecodePodTemplate(item, at));
      if (!pod_template.error.empty()) {
        return Status::Invalid(at + ": " + pod_template.error);
      }
      out.pod_templates[pod_template.Key()] = std::move(pod_template);
    } else {
      return Status::Invalid(at + ".kind: \"" + kind +
                             "\": want ProvisioningRequest or PodTemplate");
    }
  }
  return out;
}

std::string ProvisioningRequestPath(const ProvisioningRequest& request) {
  return std::string(kProvisioningRequestApi) + "/namespaces/" +
         request.namespace_ + "/provisioningrequests/" + request.name;
}

std::string EncodeProvisioningRequestConditions(
    const ProvisioningRequest& request,
    const std::vector<ProvReqCondition>& set) {
  std::vector<ProvReqCondition> all = request.conditions;
  for (const ProvReqCondition& condition : set) {
    auto same = std::find_if(all.begin(), all.end(), [&](const auto& c) {
      return c.type == condition.type;
    });
    if (same != all.end()) {
      *same = condition;
    } else {
      all.push_back(condition);
    }
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("metadata");
  writer.StartObject();
  WriteString(writer, "resourceVersion", request.resource_version);
  writer.EndObject();
  writer.Key("status");
  writer.StartObject();
  writer.Key("conditions");
  writer.StartArray();
  for (const ProvReqCondition& c : all) {
    writer.StartObject();
    WriteString(writer, "type", c.type);
    WriteString(writer, "status", c.status);
    WriteString(writer, "reason", c.reason);
    WriteString(writer, "message", c.message);
    WriteString(writer, "lastTransitionTime",
                FormatUtc(c.last_transition, "%Y-%m-%dT%H:%M:%SZ"));
    writer.Key("observedGeneration");
    writer.Int64(request.generation);
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace propscaler::kube

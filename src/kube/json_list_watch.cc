#include "kube/json_list_watch.h"

#include <rapidjson/error/en.h>

#include "kube/decode.h"

namespace propscaler::kube {

Result<rapidjson::Document> ParseJsonObject(std::string_view text,
                                            const char* what) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::Internal(std::string(what) + ": invalid JSON at offset " +
                            std::to_string(doc.GetErrorOffset()) + ": " +
                            rapidjson::GetParseError_En(doc.GetParseError()));
  }
  if (!doc.IsObject()) {
    return Status::Internal(std::string(what) + ": not a JSON object");
  }
  return doc;
}

std::string JsonString(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

Result<WatchEnvelope> ParseWatchEnvelope(const rapidjson::Document& doc) {
  Result<WatchEventType> type = ParseWatchEventType(JsonString(doc, "type"));
  if (!type.ok()) return type.status();
  WatchEnvelope envelope;
  envelope.type = *type;
  auto object = doc.FindMember("object");
  if (object == doc.MemberEnd() || !object->value.IsObject()) {
    return Status::Internal("watch event without object");
  }
  const rapidjson::Value& value = object->value;
  if (envelope.type == WatchEventType::kError) {
    auto code = value.FindMember("code");
    envelope.error_code = code != value.MemberEnd() && code->value.IsInt()
                              ? code->value.GetInt()
                              : 0;
    envelope.error_message = JsonString(value, "message");
    return envelope;
  }
  if (value.HasMember("metadata")) {
    const rapidjson::Value& metadata = value["metadata"];
    envelope.resource_version = JsonString(metadata, "resourceVersion");
    if (envelope.type == WatchEventType::kBookmark &&
        metadata.HasMember("annotations")) {
      envelope.initial_events_end =
          JsonString(metadata["annotations"], "k8s.io/initial-events-end") ==
          "true";
    }
  }
  envelope.object = &value;
  return envelope;
}

}  // namespace propscaler::kube

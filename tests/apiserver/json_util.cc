#include "apiserver/json_util.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <ctime>

#include "common/utc_time.h"

namespace propscaler::sim {

bool ParseJsonObject(std::string_view text, rapidjson::Document* doc,
                     std::string* error) {
  doc->Parse(text.data(), text.size());
  if (doc->HasParseError()) {
    *error = std::string("invalid JSON at offset ") +
             std::to_string(doc->GetErrorOffset()) + ": " +
             rapidjson::GetParseError_En(doc->GetParseError());
    return false;
  }
  if (!doc->IsObject()) {
    *error = "expected a JSON object";
    return false;
  }
  return true;
}

std::string ToJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string QuoteJson(std::string_view value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string GetString(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

void SetString(rapidjson::Value& object, const char* key,
               std::string_view value, JsonAllocator& alloc) {
  rapidjson::Value v(value.data(),
                     static_cast<rapidjson::SizeType>(value.size()), alloc);
  auto it = object.FindMember(key);
  if (it != object.MemberEnd()) {
    it->value = v;
    return;
  }
  object.AddMember(rapidjson::Value(key, alloc), v, alloc);
}

rapidjson::Value& EnsureObject(rapidjson::Value& object, const char* key,
                               JsonAllocator& alloc) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd()) {
    object.AddMember(rapidjson::Value(key, alloc),
                     rapidjson::Value(rapidjson::kObjectType), alloc);
    return object[key];
  }
  if (!it->value.IsObject()) it->value.SetObject();
  return it->value;
}

const rapidjson::Value* Child(const rapidjson::Value* object, const char* key) {
  if (object == nullptr || !object->IsObject()) return nullptr;
  auto it = object->FindMember(key);
  return it == object->MemberEnd() ? nullptr : &it->value;
}

const rapidjson::Value& Metadata(const rapidjson::Value& object) {
  static const rapidjson::Value kEmpty(rapidjson::kObjectType);
  if (!object.IsObject()) return kEmpty;
  auto it = object.FindMember("metadata");
  if (it == object.MemberEnd() || !it->value.IsObject()) return kEmpty;
  return it->value;
}

Labels GetLabels(const rapidjson::Value& object) {
  Labels labels;
  const rapidjson::Value& metadata = Metadata(object);
  auto it = metadata.FindMember("labels");
  if (it == metadata.MemberEnd() || !it->value.IsObject()) return labels;
  for (const auto& m : it->value.GetObject()) {
    if (!m.value.IsString()) continue;
    labels.emplace(m.name.GetString(), m.value.GetString());
  }
  return labels;
}

std::string Rfc3339(TimePoint time) {
  return FormatUtc(time, "%Y-%m-%dT%H:%M:%SZ");
}

}  // namespace propscaler::sim

#include "kube/wire/json_fields.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace propscaler::kube::json {
std::string Snippet(const Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  std::string text(buffer.GetString(), buffer.GetSize());
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

Status WrongType(const std::string& path, const char* want, const Value& got) {
  return Status::Invalid(path + ": want " + want + ", got " + Snippet(got));
}

std::string Join(const std::string& path, const char* name) {
  return path.empty() ? name : path + "." + name;
}

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const Value* Member(const Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return nullptr;
  return &it->value;
}

Result<rapidjson::Document> ParseObject(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    return Status::Invalid("invalid JSON at offset " +
                           std::to_string(doc.GetErrorOffset()) + ": " +
                           rapidjson::GetParseError_En(doc.GetParseError()));
  }
  if (!doc.IsObject()) return WrongType("top level", "an object", doc);
  return doc;
}

Result<std::string> StringAt(const Value& object, const char* name,
                             const std::string& path) {
  const Value* value = Member(object, name);
  if (value == nullptr) return std::string();
  if (!value->IsString())
    return WrongType(Join(path, name), "a string", *value);
  return std::string(value->GetString(), value->GetStringLength());
}

Result<int64_t> IntegerAt(const Value& object, const char* name,
                          const std::string& path) {
  const Value* value = Member(object, name);
  if (value == nullptr) return int64_t{0};
  if (!value->IsInt64())
    return WrongType(Join(path, name), "an integer", *value);
  if (value->GetInt64() < 0) {
    return Status::Invalid(Join(path, name) + ": " +
                           std::to_string(value->GetInt64()) + " is negative");
  }
  return value->GetInt64();
}

Result<const Value*> ArrayAt(const Value& object, const char* name,
                             const std::string& path) {
  const Value* value = Member(object, name);
  if (value != nullptr && !value->IsArray()) {
    return WrongType(Join(path, name), "an array", *value);
  }
  return value;
}

Result<const Value*> ObjectAt(const Value& object, const char* name,
                              const std::string& path) {
  const Value* value = Member(object, name);
  if (value != nullptr && !value->IsObject()) {
    return WrongType(Join(path, name), "an object", *value);
  }
  return value;
}

Result<Labels> StringMapAt(const Value& object, const char* name,
                           const std::string& path) {
  const Value* map = nullptr;
  PS_ASSIGN_OR_RETURN(map, ObjectAt(object, name, path));
  Labels out;
  if (map == nullptr) return out;
  for (const auto& m : map->GetObject()) {
    if (!m.value.IsString()) {
      return WrongType(Join(path, name) + "." + m.name.GetString(), "a string",
                       m.value);
    }
    out.emplace(m.name.GetString(), m.value.GetString());
  }
  return out;
}

Result<std::vector<std::string>> StringsAt(const Value& object,
                                           const char* name,
                                           const std::string& path) {
  const Value* array = nullptr;
  PS_ASSIGN_OR_RETURN(array, ArrayAt(object, name, path));
  std::vector<std::string> out;
  if (array == nullptr) return out;
  for (size_t i = 0; i < array->Size(); ++i) {
    const Value& item = (*array)[i];
    if (!item.IsString()) {
      return WrongType(Index(Join(path, name), i), "a string", item);
    }
    out.emplace_back(item.GetString(), item.GetStringLength());
  }
  return out;
}

Result<Resources> ResourcesAt(const Value& object, const char* name,
                              const std::string& path) {
  Labels texts;
  PS_ASSIGN_OR_RETURN(texts, StringMapAt(object, name, path));
  Resources out;
  for (const auto& [resource, text] : texts) {
    Status status = SetResourceAmount(resource, text, &out);
    if (!status.ok()) {
      return status.WithContext(Join(path, name) + "." + resource);
    }
  }
  return out;
}

}  // namespace propscaler::kube::json

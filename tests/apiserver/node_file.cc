#include "apiserver/node_file.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "apiserver/json_util.h"
#include "common/files.h"

namespace propscaler::sim {
namespace {

Result<std::vector<std::string>> NodesOf(const rapidjson::Value& items) {
  std::vector<std::string> nodes;
  for (const rapidjson::Value& item : items.GetArray()) {
    if (!item.IsObject() || GetString(Metadata(item), "name").empty()) {
      return Status::Invalid("an item is not a Node with metadata.name");
    }
    nodes.push_back(ToJson(item));
  }
  return nodes;
}

}  // namespace

Result<std::vector<std::string>> ReadNodeFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError()) {
    return Status::Invalid("nodes file " + path + ": invalid JSON at offset " +
                           std::to_string(doc.GetErrorOffset()) + ": " +
                           rapidjson::GetParseError_En(doc.GetParseError()));
  }
  Result<std::vector<std::string>> nodes = Status::Invalid("");
  if (doc.IsArray()) {
    nodes = NodesOf(doc);
  } else if (doc.IsObject() && doc.HasMember("items") &&
             doc["items"].IsArray()) {
    nodes = NodesOf(doc["items"]);
  } else if (doc.IsObject()) {
    nodes = std::vector<std::string>{ToJson(doc)};
  } else {
    nodes = Status::Invalid("expected a List, an array or a Node");
  }
  if (!nodes.ok()) return nodes.status().WithContext("nodes file " + path);
  return nodes;
}

}  // namespace propscaler::sim

#include "kube/wire/raw_object_json.h"

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

Result<RawObject> DecodeRawObject(const rapidjson::Value& object,
                                  const std::string& path) {
  auto metadata = object.FindMember("metadata");
  if (metadata == object.MemberEnd() || !metadata->value.IsObject()) {
    return Status::Invalid(path + ": metadata: missing");
  }
  RawObject raw;
  raw.namespace_ = JsonString(metadata->value, "namespace");
  raw.name = JsonString(metadata->value, "name");
  raw.resource_version = JsonString(metadata->value, "resourceVersion");
  if (raw.name.empty())
    return Status::Invalid(path + ": metadata.name: missing");
  raw.json = JsonText(object);
  return raw;
}

}  // namespace

ListWatchCodec<RawObject> RawObjectCodec() {
  return {[](std::string_view body) {
            return DecodeJsonList<RawObject>(body, &DecodeRawObject,
                                             "object list");
          },
          [](std::string_view line) {
            return DecodeJsonWatchEvent<RawObject>(line, &DecodeRawObject,
                                                   "watch event");
          }};
}

}  // namespace propscaler::kube

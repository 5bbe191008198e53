#include "kube/wire/counted_pod_json.h"

#include <rapidjson/document.h>

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

Result<CountedPod> DecodeItem(const Value& item, const std::string& path) {
  if (!item.IsObject() || !item.HasMember("metadata") ||
      !item["metadata"].IsObject()) {
    return Status::Invalid(path + ": no metadata");
  }
  const Value& metadata = item["metadata"];
  CountedPod pod;
  pod.key =
      JsonString(metadata, "namespace") + "/" + JsonString(metadata, "name");
  std::string phase;
  if (item.HasMember("status") && item["status"].IsObject()) {
    phase = JsonString(item["status"], "phase");
  }
  // A pod the API server has just taken has no phase yet: Pending.
  pod.counted = phase.empty() || phase == "Pending" || phase == "Running";
  return pod;
}

}  // namespace

ListWatchCodec<CountedPod> CountedPodCodec() {
  return {[](std::string_view body) {
            return DecodeJsonList<CountedPod>(body, &DecodeItem,
                                              "counted pod list");
          },
          [](std::string_view line) {
            return DecodeJsonWatchEvent<CountedPod>(line, &DecodeItem,
                                                    "counted pod watch event");
          }};
}

}  // namespace propscaler::kube

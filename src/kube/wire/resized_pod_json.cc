#include "kube/wire/resized_pod_json.h"

#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/pod_template_json.h"

namespace propscaler::kube {
namespace {

using json::Member;
using rapidjson::Value;

// status.resize, as 1.27 to 1.32 report it.
ResizeState LegacyState(const std::string& resize) {
  if (resize == "Proposed" || resize == "InProgress") {
    return ResizeState::kInProgress;
  }
  if (resize == "Deferred") return ResizeState::kDeferred;
  if (resize == "Infeasible") return ResizeState::kInfeasible;
  return ResizeState::kNone;
}

// The resize conditions of 1.33+; a pending one wins over one in progress.
void ReadConditions(const Value& conditions, ResizedPod* pod) {
  if (!conditions.IsArray()) return;
  for (const Value& condition : conditions.GetArray()) {
    if (JsonString(condition, "status") != "True") continue;
    const std::string type = JsonString(condition, "type");
    const std::string reason = JsonString(condition, "reason");
    ResizeState state = ResizeState::kNone;
    if (type == "PodResizePending") {
      state = reason == "Infeasible" ? ResizeState::kInfeasible
                                     : ResizeState::kDeferred;
    } else if (type == "PodResizeInProgress") {
      state =
          reason == "Error" ? ResizeState::kError : ResizeState::kInProgress;
    } else {
      continue;
    }
    if (pod->resize == ResizeState::kNone ||
        pod->resize == ResizeState::kInProgress) {
      pod->resize = state;
      pod->resize_message = JsonString(condition, "message");
    }
  }
}

Result<ResizedPod> DecodeResizedPodValue(const Value& object,
                                         const std::string& path) {
  ResizedPod pod;
  const Value* metadata = Member(object, "metadata");
  if (metadata == nullptr) {
    return Status::Internal(path + ": pod has no metadata");
  }
  pod.name = JsonString(*metadata, "name");
  pod.uid = JsonString(*metadata, "uid");
  pod.resource_version = JsonString(*metadata, "resourceVersion");
  pod.terminating = Member(*metadata, "deletionTimestamp") != nullptr;
  if (const Value* generation = Member(*metadata, "generation");
      generation != nullptr && generation->IsInt64()) {
    pod.generation = generation->GetInt64();
  }
  if (const Value* spec = Member(object, "spec")) {
    pod.node_name = JsonString(*spec, "nodeName");
    if (const Value* containers = Member(*spec, "containers")) {
      pod.containers = ContainerResourcesOf(*containers);
    }
  }
  if (const Value* status = Member(object, "status")) {
    pod.phase = JsonString(*status, "phase");
    if (const Value* observed = Member(*status, "observedGeneration");
        observed != nullptr && observed->IsInt64()) {
      pod.observed_generation = observed->GetInt64();
    }
    pod.resize = LegacyState(JsonString(*status, "resize"));
    if (const Value* conditions = Member(*status, "conditions")) {
      ReadConditions(*conditions, &pod);
    }
    if (const Value* statuses = Member(*status, "containerStatuses")) {
      pod.applied = ContainerResourcesOf(*statuses);
    }
  }
  return pod;
}

Result<ListPage<ResizedPod>> DecodeResizedPodList(std::string_view body) {
  return DecodeJsonList<ResizedPod>(body, &DecodeResizedPodValue, "pod list");
}

Result<WatchEvent<ResizedPod>> DecodeResizedPodEvent(std::string_view line) {
  return DecodeJsonWatchEvent<ResizedPod>(line, &DecodeResizedPodValue,
                                          "pod watch event");
}

}  // namespace

Result<ResizedPod> DecodeResizedPod(std::string_view body) {
  Result<rapidjson::Document> doc = ParseJsonObject(body, "pod");
  if (!doc.ok()) return doc.status();
  return DecodeResizedPodValue(*doc, "pod");
}

ListWatchCodec<ResizedPod> ResizedPodCodec() {
  return {&DecodeResizedPodList, &DecodeResizedPodEvent};
}

}  // namespace propscaler::kube

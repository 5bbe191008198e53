#include "kube/wire/pod_decode.h"

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>

#include "common/utc_time.h"
#include "kube/wire/json_fields.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/live_node_proto_decode.h"
#include "kube/wire/object_json.h"
#include "kube/wire/pod_proto_decode.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

std::string StringOf(const Value& object, const char* name) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return "";
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

const Value& MemberOr(const Value& object, const char* name,
                      const Value& fallback) {
  if (!object.IsObject()) return fallback;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? fallback : it->value;
}

// The pod's first status condition of `type`; null when it has none.
const Value* ConditionOf(const Value& pod, std::string_view type) {
  static const Value kNull;
  const Value& conditions =
      MemberOr(MemberOr(pod, "status", kNull), "conditions", kNull);
  if (!conditions.IsArray()) return nullptr;
  for (const Value& condition : conditions.GetArray()) {
    if (StringOf(condition, "type") == type) return &condition;
  }
  return nullptr;
}

// PodScheduled=False with reason Unschedulable: since when (the epoch when
// its time is missing), or nullopt.
std::optional<TimePoint> SchedulerGaveUpAt(const Value& pod) {
  const Value* condition = ConditionOf(pod, "PodScheduled");
  if (condition == nullptr || StringOf(*condition, "status") != "False" ||
      StringOf(*condition, "reason") != "Unschedulable") {
    return std::nullopt;
  }
  return ParseRfc3339(StringOf(*condition, "lastTransitionTime"));
}

// Since when Ready=True; the epoch while it is not (or its time is missing).
TimePoint ReadySince(const Value& pod) {
  const Value* condition = ConditionOf(pod, "Ready");
  if (condition == nullptr || StringOf(*condition, "status") != "True") {
    return TimePoint{};
  }
  return ParseRfc3339(StringOf(*condition, "lastTransitionTime"));
}

Result<LivePod> DecodePod(const Value& object, const std::string& path) {
  static const Value kNull;
  Result<PodState> state = DecodePodObject(object, path);
  if (!state.ok()) return state.status();
  Result<Resources> limits =
      PodLimitsAt(MemberOr(object, "spec", kNull), json::Join(path, "spec"));
  if (!limits.ok()) return limits.status();
  const Value& metadata = MemberOr(object, "metadata", kNull);
  const std::optional<TimePoint> gave_up = SchedulerGaveUpAt(object);
  return LivePod{
      std::move(state).value(),
      StringOf(metadata, "uid"),
      gave_up.has_value(),
      ParsePodPhase(StringOf(MemberOr(object, "status", kNull), "phase")),
      ParseRfc3339(StringOf(metadata, "creationTimestamp")),
      gave_up.value_or(TimePoint{}),
      StringOf(MemberOr(object, "status", kNull), "nominatedNodeName"),
      ReadySince(object),
      limits->cpu_millis,
      limits->memory_bytes};
}

Result<LiveNode> DecodeNode(const Value& object, const std::string& path) {
  static const Value kNull;
  Result<NodeState> state = DecodeNodeObject(object, path);
  if (!state.ok()) return state.status();
  NotReadyWhileTainted(&*state);
  const Value& metadata = MemberOr(object, "metadata", kNull);
  state->uid = StringOf(metadata, "uid");
  return LiveNode{std::move(state).value(),
                  ParseRfc3339(StringOf(metadata, "creationTimestamp"))};
}

Result<PdbState> DecodePdbV1(const Value& object, const std::string& path) {
  return DecodePdbObject(object, path, PdbVersion::kV1);
}
Result<PdbState> DecodePdbV1beta1(const Value& object,
                                  const std::string& path) {
  return DecodePdbObject(object, path, PdbVersion::kV1beta1);
}

}  // namespace

Result<ListPage<LivePod>> DecodeLivePodList(std::string_view body) {
  return DecodeJsonList<LivePod>(body, &DecodePod, "pod list");
}
Result<WatchEvent<LivePod>> DecodeLivePodWatchEvent(std::string_view line) {
  return DecodeJsonWatchEvent<LivePod>(line, &DecodePod, "pod watch event");
}
Result<ListPage<LiveNode>> DecodeLiveNodeList(std::string_view body) {
  return DecodeJsonList<LiveNode>(body, &DecodeNode, "node list");
}
Result<WatchEvent<LiveNode>> DecodeLiveNodeWatchEvent(std::string_view line) {
  return DecodeJsonWatchEvent<LiveNode>(line, &DecodeNode, "node watch event");
}

// Both lists are read as they arrive, the whole collection at once from the
// watch cache, never a page held, and asked for as protobuf, which
// kube-apiserver writes several times faster than JSON (a server without
// it answers JSON); watch events stay JSON.
ListWatchCodec<LivePod> LivePodCodec() {
  return {&DecodeLivePodList, &DecodeLivePodWatchEvent,
          [](JsonChunkStream* body, const ItemBatches<LivePod>& on_items) {
            return body->Peek() == kKubeProtobufMagic[0]
                       ? DecodeLivePodListProto(body, on_items)
                       : DecodeJsonListStream<LivePod>(body, &DecodePod,
                                                       "pod list", on_items);
          },
          /*list_stream_protobuf=*/true};
}

ListWatchCodec<LiveNode> LiveNodeCodec() {
  return {&DecodeLiveNodeList, &DecodeLiveNodeWatchEvent,
          [](JsonChunkStream* body, const ItemBatches<LiveNode>& on_items) {
            return body->Peek() == kKubeProtobufMagic[0]
                       ? DecodeLiveNodeListProto(body, on_items)
                       : DecodeJsonListStream<LiveNode>(body, &DecodeNode,
                                                        "node list", on_items);
          },
          /*list_stream_protobuf=*/true};
}

ListWatchCodec<PdbState> PdbCodec(PdbVersion version) {
  const JsonObjectDecoder<PdbState> decode =
      version == PdbVersion::kV1 ? &DecodePdbV1 : &DecodePdbV1beta1;
  return {[decode](std::string_view body) {
            return DecodeJsonList<PdbState>(body, decode,
                                            "PodDisruptionBudget list");
          },
          [decode](std::string_view line) {
            return DecodeJsonWatchEvent<PdbState>(
                line, decode, "PodDisruptionBudget watch event");
          }};
}

}  // namespace propscaler::kube

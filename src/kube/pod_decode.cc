#include "kube/pod_decode.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <ctime>
#include <string>

#include "kube/object_json.h"

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

bool SchedulerGaveUp(const Value& pod) {
  static const Value kNull;
  const Value& conditions =
      MemberOr(MemberOr(pod, "status", kNull), "conditions", kNull);
  if (!conditions.IsArray()) return false;
  for (const Value& condition : conditions.GetArray()) {
    if (StringOf(condition, "type") == "PodScheduled") {
      return StringOf(condition, "status") == "False" &&
             StringOf(condition, "reason") == "Unschedulable";
    }
  }
  return false;
}

Result<LivePod> DecodePod(const Value& object, const std::string& path) {
  static const Value kNull;
  Result<PodState> state = DecodePodObject(object, path);
  if (!state.ok()) return state.status();
  const Value& metadata = MemberOr(object, "metadata", kNull);
  return LivePod{std::move(state).value(), StringOf(metadata, "uid"),
                 SchedulerGaveUp(object),
                 ParseRfc3339(StringOf(metadata, "creationTimestamp"))};
}

constexpr std::string_view kNotReadyTaint = "node.kubernetes.io/not-ready";

Result<LiveNode> DecodeNode(const Value& object, const std::string& path) {
  static const Value kNull;
  Result<NodeState> state = DecodeNodeObject(object, path);
  if (!state.ok()) return state.status();
  // The API server taints every new node not-ready; the node lifecycle
  // controller lifts it once the node is Ready. Until then the node takes
  // no pods: it is still coming, as Cluster Autoscaler counts it.
  for (const Taint& taint : state->taints) {
    if (taint.key == kNotReadyTaint) state->ready = false;
  }
  const Value& metadata = MemberOr(object, "metadata", kNull);
  return LiveNode{std::move(state).value(), StringOf(metadata, "uid"),
                  ParseRfc3339(StringOf(metadata, "creationTimestamp"))};
}

template <typename T>
using ObjectDecoder = Result<T> (*)(const Value&, const std::string&);

Result<rapidjson::Document> Parse(std::string_view text, const char* what) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::Invalid(std::string(what) + ": not a JSON object: " +
                           rapidjson::GetParseError_En(doc.GetParseError()));
  }
  return doc;
}

template <typename T>
Result<ListPage<T>> DecodeList(std::string_view body, ObjectDecoder<T> decode,
                               const char* what) {
  static const Value kNull;
  Result<rapidjson::Document> doc = Parse(body, what);
  if (!doc.ok()) return doc.status();
  ListPage<T> page;
  const Value& metadata = MemberOr(*doc, "metadata", kNull);
  page.resource_version = StringOf(metadata, "resourceVersion");
  page.continue_token = StringOf(metadata, "continue");
  const Value& items = MemberOr(*doc, "items", kNull);
  if (!items.IsArray()) return page;
  for (size_t i = 0; i < items.Size(); ++i) {
    Result<T> item = decode(items[i], "items[" + std::to_string(i) + "]");
    if (item.ok()) {
      page.items.push_back(std::move(item).value());
    } else {
      page.item_errors.push_back(item.status().message());
    }
  }
  return page;
}

Result<WatchEventType> EventType(const std::string& type) {
  if (type == "ADDED") return WatchEventType::kAdded;
  if (type == "MODIFIED") return WatchEventType::kModified;
  if (type == "DELETED") return WatchEventType::kDeleted;
  if (type == "BOOKMARK") return WatchEventType::kBookmark;
  if (type == "ERROR") return WatchEventType::kError;
  return Status::Invalid("watch event type \"" + type + "\": unknown");
}

template <typename T>
Result<WatchEvent<T>> DecodeEvent(std::string_view line,
                                  ObjectDecoder<T> decode, const char* what) {
  static const Value kNull;
  Result<rapidjson::Document> doc = Parse(line, what);
  if (!doc.ok()) return doc.status();
  Result<WatchEventType> type = EventType(StringOf(*doc, "type"));
  if (!type.ok()) return type.status();
  WatchEvent<T> event;
  event.type = *type;
  const Value& object = MemberOr(*doc, "object", kNull);
  if (event.type == WatchEventType::kError) {
    const Value& code = MemberOr(object, "code", kNull);
    event.error_code = code.IsInt() ? code.GetInt() : 0;
    event.error_message = StringOf(object, "message");
    return event;
  }
  event.resource_version =
      StringOf(MemberOr(object, "metadata", kNull), "resourceVersion");
  if (event.type == WatchEventType::kBookmark) return event;
  Result<T> decoded = decode(object, "object");
  if (!decoded.ok()) return decoded.status();
  event.object = std::move(decoded).value();
  return event;
}

}  // namespace

TimePoint ParseRfc3339(std::string_view text) {
  std::tm tm{};
  const std::string copy(text);
  if (strptime(copy.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) {
    return TimePoint();
  }
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

Result<ListPage<LivePod>> DecodeLivePodList(std::string_view body) {
  return DecodeList<LivePod>(body, &DecodePod, "pod list");
}
Result<WatchEvent<LivePod>> DecodeLivePodWatchEvent(std::string_view line) {
  return DecodeEvent<LivePod>(line, &DecodePod, "pod watch event");
}
Result<ListPage<LiveNode>> DecodeLiveNodeList(std::string_view body) {
  return DecodeList<LiveNode>(body, &DecodeNode, "node list");
}
Result<WatchEvent<LiveNode>> DecodeLiveNodeWatchEvent(std::string_view line) {
  return DecodeEvent<LiveNode>(line, &DecodeNode, "node watch event");
}

ListWatchCodec<LivePod> LivePodCodec() {
  return {&DecodeLivePodList, &DecodeLivePodWatchEvent};
}

ListWatchCodec<LiveNode> LiveNodeCodec() {
  return {&DecodeLiveNodeList, &DecodeLiveNodeWatchEvent};
}

}  // namespace propscaler::kube

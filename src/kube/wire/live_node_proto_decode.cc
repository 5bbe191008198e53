#include "kube/wire/live_node_proto_decode.h"

#include <utility>

#include "kube/wire/json_fields.h"
#include "kube/wire/pod_field_values.h"
#include "kube/wire/proto_fields.h"
#include "kube/wire/proto_list_scan.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

using json::Join;

// Field numbers, from k8s.io/api/core/v1/generated.proto (Node, NodeSpec,
// Taint, NodeStatus); ObjectMeta's in proto_fields.h.
constexpr uint32_t kNodeMeta = 1, kNodeSpec = 2, kNodeStatus = 3;
constexpr uint32_t kSpecProviderId = 3, kSpecUnschedulable = 4, kSpecTaints = 5;
constexpr uint32_t kTaintKey = 1, kTaintValue = 2, kTaintEffect = 3;
constexpr uint32_t kStatusAllocatable = 2, kStatusConditions = 4;

class NodeReader {
 public:
  explicit NodeReader(std::string path) : path_(std::move(path)) {}

  Result<LiveNode> Read(std::string_view node) {
    Status status =
        EachProtoField(node, path_.c_str(), [&](const ProtoField& f) -> Status {
          if (!IsBytes(f)) return Status::Ok();
          switch (f.number) {
            case kNodeMeta:
              return ReadMeta(f.bytes);
            case kNodeSpec:
              return ReadSpec(f.bytes);
            case kNodeStatus:
              return ReadStatus(f.bytes);
            default:
              return Status::Ok();
          }
        });
    if (!status.ok()) return status;
    NodeState& state = live_.state;
    if (state.name.empty()) {
      return Status::Invalid(Join(Join(path_, "metadata"), "name") +
                             ": missing");
    }
    NotReadyWhileTainted(&state);
    state.created = live_.created;
    return std::move(live_);
  }

 private:
  Status ReadMeta(std::string_view meta) {
    const std::string at = Join(path_, "metadata");
    NodeState& state = live_.state;
    return EachProtoField(meta, at.c_str(), [&](const ProtoField& f) {
      if (!IsBytes(f)) return Status::Ok();
      switch (f.number) {
        case kMetaName:
          state.name = f.bytes;
          return Status::Ok();
        case kMetaUid:
          state.uid = f.bytes;
          return Status::Ok();
        case kMetaCreated: {
          Result<TimePoint> created =
              TimeOf(f.bytes, Join(at, "creationTimestamp"));
          if (!created.ok()) return created.status();
          live_.created = *created;
          return Status::Ok();
        }
        case kMetaLabels:
          return AddStringEntry(f.bytes, Join(at, "labels"), &state.labels);
        case kMetaAnnotations:
          return AddStringEntry(f.bytes, Join(at, "annotations"),
                                &state.annotations);
        default:
          return Status::Ok();
      }
    });
  }

  Status ReadSpec(std::string_view spec) {
    const std::string at = Join(path_, "spec");
    NodeState& state = live_.state;
    return EachProtoField(spec, at.c_str(), [&](const ProtoField& f) {
      if (f.number == kSpecUnschedulable && IsVarint(f)) {
        state.unschedulable = f.varint != 0;
      }
      if (!IsBytes(f)) return Status::Ok();
      if (f.number == kSpecProviderId) state.provider_id = f.bytes;
      if (f.number == kSpecTaints)
        return ReadTaint(f.bytes, Join(at, "taints"));
      return Status::Ok();
    });
  }

  Status ReadTaint(std::string_view message, const std::string& path) {
    const std::string at = path + "[" + std::to_string(taint_index_++) + "]";
    std::string_view key, value, effect;
    Status status =
        ProtoStrings(message, at.c_str(), kTaintKey, &key, kTaintValue, &value);
    if (status.ok()) {
      status = ProtoStrings(message, at.c_str(), kTaintEffect, &effect);
    }
    if (!status.ok()) return status;
    Result<TaintEffect> parsed = ParseTaintEffect(effect, Join(at, "effect"));
    if (!parsed.ok()) return parsed.status();
    live_.state.taints.push_back({.key = std::string(key),
                                  .value = std::string(value),
                                  .effect = *parsed});
    return Status::Ok();
  }

  Status ReadStatus(std::string_view status_message) {
    const std::string at = Join(path_, "status");
    NodeState& state = live_.state;
    return EachProtoField(
        status_message, at.c_str(), [&](const ProtoField& f) -> Status {
          if (!IsBytes(f)) return Status::Ok();
          if (f.number == kStatusAllocatable) {
            return AddResourceEntry(f.bytes, Join(at, "allocatable"),
                                    &state.allocatable);
          }
          if (f.number != kStatusConditions) return Status::Ok();
          std::string_view type, status_text;
          Status status = ProtoStrings(f.bytes, at.c_str(), kConditionType,
                                       &type, kConditionStatus, &status_text);
          if (status.ok() && type == "Ready" && !seen_ready_) {
            seen_ready_ = true;
            state.ready = status_text == "True";
          }
          return status;
        });
  }

  const std::string path_;
  LiveNode live_;
  size_t taint_index_ = 0;
  bool seen_ready_ = false;
};

}  // namespace

Result<LiveNode> DecodeLiveNodeProto(std::string_view node,
                                     const std::string& path) {
  return NodeReader(path).Read(node);
}

Result<ListPage<LiveNode>> DecodeLiveNodeListProto(
    JsonChunkStream* body, const ItemBatches<LiveNode>& on_items) {
  return DecodeProtoObjectList<LiveNode>(
      body, {.what = "node list", .kind = "NodeList"}, &DecodeLiveNodeProto,
      on_items);
}

}  // namespace propscaler::kube

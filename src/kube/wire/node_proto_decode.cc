#include "kube/wire/node_proto_decode.h"

#include <string>

#include "kube/wire/proto_fields.h"
#include "kube/wire/proto_list_scan.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

// Field numbers, from k8s.io/api/core/v1 and apimachinery's generated.proto.
constexpr uint32_t kNodeMeta = 1, kNodeSpec = 2, kNodeStatus = 3;
constexpr uint32_t kMetaResourceVersion = 6;
constexpr uint32_t kSpecUnschedulable = 4, kSpecTaints = 5;
constexpr uint32_t kTaintKey = 1, kTaintEffect = 3;
constexpr uint32_t kStatusCapacity = 1, kStatusAllocatable = 2,
                   kStatusConditions = 4;

Status DecodeMeta(std::string_view meta, NodeFields* fields) {
  return EachProtoField(meta, "node metadata", [&](const ProtoField& field) {
    if (!IsBytes(field)) return Status::Ok();
    if (field.number == kMetaName) fields->name = field.bytes;
    if (field.number == kMetaResourceVersion) {
      fields->resource_version = field.bytes;
    }
    return Status::Ok();
  });
}

Status DecodeSpec(std::string_view spec, const TaintFilter& excluded,
                  NodeFields* fields) {
  return EachProtoField(spec, "node spec", [&](const ProtoField& field) {
    if (field.number == kSpecUnschedulable && field.type == WireType::kVarint) {
      fields->unschedulable = field.varint != 0;
    }
    if (field.number != kSpecTaints || !IsBytes(field)) return Status::Ok();
    std::string_view key, effect;
    Status status = ProtoStrings(field.bytes, "node taint", kTaintKey, &key,
                                 kTaintEffect, &effect);
    if (status.ok() && excluded.Matches(key, effect)) {
      fields->excluded_by_taint = true;
    }
    return status;
  });
}

// A map<string, Quantity> entry: its cpu value, if the key is "cpu".
Status CpuOfEntry(std::string_view entry, std::string* cpu) {
  std::string_view key, quantity;
  Status status = ProtoStrings(entry, "node resource", kEntryKey, &key,
                               kEntryValue, &quantity);
  if (!status.ok() || key != "cpu") return status;
  std::string_view text;
  status = ProtoStrings(quantity, "node cpu quantity", kQuantityString, &text);
  if (status.ok()) *cpu = text;
  return status;
}

Status DecodeStatus(std::string_view node_status, CountedCpu cpu,
                    NodeFields* fields) {
  const uint32_t counted =
      cpu == CountedCpu::kCapacity ? kStatusCapacity : kStatusAllocatable;
  return EachProtoField(
      node_status, "node status", [&](const ProtoField& field) {
        if (!IsBytes(field)) return Status::Ok();
        if (field.number == counted)
          return CpuOfEntry(field.bytes, &fields->cpu);
        if (field.number != kStatusConditions) return Status::Ok();
        std::string_view type, status_text;
        Status status =
            ProtoStrings(field.bytes, "node condition", kConditionType, &type,
                         kConditionStatus, &status_text);
        if (status.ok() && type == "Ready" && !fields->seen_ready) {
          fields->seen_ready = true;
          fields->ready = status_text == "True";
        }
        return status;
      });
}

}  // namespace

Status DecodeNodeProto(std::string_view node, const TaintFilter& excluded,
                       CountedCpu cpu, NodeFields* fields) {
  return EachProtoField(node, "node", [&](const ProtoField& field) {
    if (!IsBytes(field)) return Status::Ok();
    switch (field.number) {
      case kNodeMeta:
        return DecodeMeta(field.bytes, fields);
      case kNodeSpec:
        return DecodeSpec(field.bytes, excluded, fields);
      case kNodeStatus:
        return DecodeStatus(field.bytes, cpu, fields);
      default:
        return Status::Ok();
    }
  });
}

Result<ListPage<NodeInfo>> DecodeNodeListProto(
    JsonChunkStream* body, const TaintFilter& excluded, CountedCpu cpu,
    const ItemBatches<NodeInfo>& on_items) {
  return ScanProtoListPage<NodeInfo>(
      body, {.what = "node list", .kind = "NodeList"}, on_items,
      [&](std::string_view item, size_t, ListPage<NodeInfo>* page) {
        NodeFields fields;
        Status decoded = DecodeNodeProto(item, excluded, cpu, &fields);
        if (!decoded.ok()) return decoded.WithContext("node list (protobuf)");
        AddNodeItem(fields, cpu, on_items, page);
        return Status::Ok();
      });
}

}  // namespace propscaler::kube

#include "kube/node_proto_decode.h"

#include <optional>
#include <string>

#include "kube/proto_wire.h"

namespace propscaler::kube {
namespace {

// Field numbers, from k8s.io/api/core/v1 and apimachinery's generated.proto.
constexpr uint32_t kUnknownTypeMeta = 1, kUnknownRaw = 2;
constexpr uint32_t kTypeMetaKind = 2;
constexpr uint32_t kListMeta = 1, kListItems = 2;
constexpr uint32_t kListMetaResourceVersion = 2, kListMetaContinue = 3;
constexpr uint32_t kNodeMeta = 1, kNodeSpec = 2, kNodeStatus = 3;
constexpr uint32_t kMetaName = 1, kMetaResourceVersion = 6;
constexpr uint32_t kSpecUnschedulable = 4, kSpecTaints = 5;
constexpr uint32_t kTaintKey = 1, kTaintEffect = 3;
constexpr uint32_t kStatusCapacity = 1, kStatusAllocatable = 2,
                   kStatusConditions = 4;
constexpr uint32_t kEntryKey = 1, kEntryValue = 2;  // map entries
constexpr uint32_t kQuantityString = 1;
constexpr uint32_t kConditionType = 1, kConditionStatus = 2;

// A Node larger than this is refused rather than buffered (real ones are a
// few KB; the API server caps an object at about 1.5 MB).
constexpr uint64_t kMaxNodeBytes = 16 << 20;

bool IsBytes(const ProtoField& field) { return field.type == WireType::kBytes; }

// Calls `on_field` for each field of `message`; its error, or the cursor's
// naming `what`.
template <typename OnField>
Status EachField(std::string_view message, const char* what,
                 OnField&& on_field) {
  ProtoCursor cursor(message);
  ProtoField field;
  while (cursor.Next(&field)) {
    if (Status status = on_field(field); !status.ok()) return status;
  }
  if (!cursor.error().empty()) {
    return Status::Internal(std::string(what) + ": " + cursor.error());
  }
  return Status::Ok();
}

// Fields of `message` (e.g. a Taint's key and effect) as strings, by
// number; others are ignored.
Status StringsOf(std::string_view message, const char* what, uint32_t first,
                 std::string_view* first_value, uint32_t second = 0,
                 std::string_view* second_value = nullptr) {
  return EachField(message, what, [&](const ProtoField& field) {
    if (IsBytes(field) && field.number == first) *first_value = field.bytes;
    if (IsBytes(field) && field.number == second && second_value != nullptr) {
      *second_value = field.bytes;
    }
    return Status::Ok();
  });
}

// The next `length` bytes of `body` into `*out`, refusing more than
// kMaxNodeBytes rather than buffering them.
Status ReadBounded(JsonChunkStream* body, uint64_t length, const char* what,
                   std::string* out) {
  if (length > kMaxNodeBytes) {
    return Status::Internal("node list (protobuf): " + std::string(what) +
                            " of " + std::to_string(length) +
                            " bytes at byte " + std::to_string(body->Tell()) +
                            " (at most " + std::to_string(kMaxNodeBytes) + ")");
  }
  out->clear();
  if (!body->TakeBytes(length, out)) {
    return Status::Internal("node list (protobuf): " + std::string(what) +
                            " truncated at byte " +
                            std::to_string(body->Tell()));
  }
  return Status::Ok();
}

Status DecodeMeta(std::string_view meta, NodeFields* fields) {
  return EachField(meta, "node metadata", [&](const ProtoField& field) {
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
  return EachField(spec, "node spec", [&](const ProtoField& field) {
    if (field.number == kSpecUnschedulable && field.type == WireType::kVarint) {
      fields->unschedulable = field.varint != 0;
    }
    if (field.number != kSpecTaints || !IsBytes(field)) return Status::Ok();
    std::string_view key, effect;
    Status status = StringsOf(field.bytes, "node taint", kTaintKey, &key,
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
  Status status = StringsOf(entry, "node resource", kEntryKey, &key,
                            kEntryValue, &quantity);
  if (!status.ok() || key != "cpu") return status;
  std::string_view text;
  status = StringsOf(quantity, "node cpu quantity", kQuantityString, &text);
  if (status.ok()) *cpu = text;
  return status;
}

Status DecodeStatus(std::string_view node_status, CountedCpu cpu,
                    NodeFields* fields) {
  const uint32_t counted =
      cpu == CountedCpu::kCapacity ? kStatusCapacity : kStatusAllocatable;
  return EachField(node_status, "node status", [&](const ProtoField& field) {
    if (!IsBytes(field)) return Status::Ok();
    if (field.number == counted) return CpuOfEntry(field.bytes, &fields->cpu);
    if (field.number != kStatusConditions) return Status::Ok();
    std::string_view type, status_text;
    Status status = StringsOf(field.bytes, "node condition", kConditionType,
                              &type, kConditionStatus, &status_text);
    if (status.ok() && type == "Ready" && !fields->seen_ready) {
      fields->seen_ready = true;
      fields->ready = status_text == "True";
    }
    return status;
  });
}

// Reads the list's items as they arrive, within `length` bytes.
class ListReader {
 public:
  ListReader(JsonChunkStream* body, const TaintFilter& excluded, CountedCpu cpu,
             const ItemBatches<NodeInfo>& on_items, ListPage<NodeInfo>* page)
      : body_(body),
        excluded_(excluded),
        cpu_(cpu),
        on_items_(on_items),
        page_(page) {}

  Status Read(uint64_t length) {
    const size_t end = body_->Tell() + length;
    while (body_->Tell() < end) {
      StreamedKey key;
      if (auto error = ReadStreamedKey(body_, &key)) return Error(*error);
      if (key.end) break;
      const ProtoField& field = key.field;
      if (field.number == kListItems && IsBytes(field)) {
        if (Status status = ReadItem(field.varint); !status.ok()) return status;
      } else if (field.number == kListMeta && IsBytes(field)) {
        if (Status status = ReadListMeta(field.varint); !status.ok()) {
          return status;
        }
      } else if (auto error = SkipStreamedField(body_, field)) {
        return Error(*error);
      }
    }
    if (body_->Tell() != end) {
      return Error("the list ends at byte " + std::to_string(body_->Tell()) +
                   ", not at its length's " + std::to_string(end));
    }
    FlushNodeItems(on_items_, page_);
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Internal("node list (protobuf): " + what);
  }

  Status ReadListMeta(uint64_t length) {
    Status status = ReadBounded(body_, length, "the list metadata", &buffer_);
    if (!status.ok()) return status;
    return EachField(buffer_, "node list metadata", [&](const ProtoField& f) {
      if (IsBytes(f) && f.number == kListMetaResourceVersion) {
        page_->resource_version = f.bytes;
      }
      if (IsBytes(f) && f.number == kListMetaContinue) {
        page_->continue_token = f.bytes;
      }
      return Status::Ok();
    });
  }

  Status ReadItem(uint64_t length) {
    Status status = ReadBounded(body_, length, "an item", &buffer_);
    if (!status.ok()) return status;
    NodeFields fields;
    status = DecodeNodeProto(buffer_, excluded_, cpu_, &fields);
    if (!status.ok()) return status.WithContext("node list (protobuf)");
    AddNodeItem(fields, cpu_, on_items_, page_);
    return Status::Ok();
  }

  JsonChunkStream* body_;
  const TaintFilter& excluded_;
  const CountedCpu cpu_;
  const ItemBatches<NodeInfo>& on_items_;
  ListPage<NodeInfo>* page_;
  std::string buffer_;  // one item at a time
};

// The envelope's TypeMeta: its kind must be NodeList.
Status CheckKind(JsonChunkStream* body, uint64_t length) {
  std::string type_meta;
  Status status = ReadBounded(body, length, "the type", &type_meta);
  if (!status.ok()) return status;
  std::string_view kind;
  status = StringsOf(type_meta, "node list type", kTypeMetaKind, &kind);
  if (status.ok() && kind != "NodeList") {
    return Status::Internal("node list (protobuf): the server sent a \"" +
                            std::string(kind) + "\", not a NodeList");
  }
  return status;
}

}  // namespace

Status DecodeNodeProto(std::string_view node, const TaintFilter& excluded,
                       CountedCpu cpu, NodeFields* fields) {
  return EachField(node, "node", [&](const ProtoField& field) {
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
  std::string magic;
  if (!body->TakeBytes(kKubeProtobufMagic.size(), &magic) ||
      magic != kKubeProtobufMagic) {
    return Status::Internal(
        "node list (protobuf): the body does not start with \"k8s\\0\"");
  }
  ListPage<NodeInfo> page;
  bool saw_list = false;
  for (;;) {
    StreamedKey key;
    if (auto error = ReadStreamedKey(body, &key)) {
      return Status::Internal("node list (protobuf): " + *error);
    }
    if (key.end) break;
    const ProtoField& field = key.field;
    Status status;
    if (field.number == kUnknownTypeMeta && IsBytes(field)) {
      status = CheckKind(body, field.varint);
    } else if (field.number == kUnknownRaw && IsBytes(field)) {
      status =
          ListReader(body, excluded, cpu, on_items, &page).Read(field.varint);
      saw_list = true;
    } else if (auto error = SkipStreamedField(body, field)) {
      status = Status::Internal("node list (protobuf): " + *error);
    }
    if (!status.ok()) return status;
  }
  if (!saw_list) return Status::Internal("node list (protobuf): no list");
  return page;
}

}  // namespace propscaler::kube

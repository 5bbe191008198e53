#include "kube/wire/proto_list_scan.h"

#include <optional>

#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

// Field numbers, from apimachinery's generated.proto (runtime.Unknown,
// TypeMeta, ListMeta) and every core/v1 List (metadata = 1, items = 2).
constexpr uint32_t kUnknownTypeMeta = 1, kUnknownRaw = 2;
constexpr uint32_t kTypeMetaKind = 2;
constexpr uint32_t kListMeta = 1, kListItems = 2;
constexpr uint32_t kListMetaResourceVersion = 2, kListMetaContinue = 3;

bool IsBytes(const ProtoField& field) { return field.type == WireType::kBytes; }

class Scanner {
 public:
  Scanner(JsonChunkStream* body, const ProtoListShape& shape,
          ProtoListScan* out, const ProtoItemVisitor& visit)
      : body_(body), shape_(shape), out_(out), visit_(visit) {}

  Status Scan() {
    std::string magic;
    if (!body_->TakeBytes(kKubeProtobufMagic.size(), &magic) ||
        magic != kKubeProtobufMagic) {
      return Error("the body does not start with \"k8s\\0\"");
    }
    bool saw_list = false;
    for (;;) {
      StreamedKey key;
      if (auto error = ReadStreamedKey(body_, &key)) return Error(*error);
      if (key.end) break;
      const ProtoField& field = key.field;
      Status status;
      if (field.number == kUnknownTypeMeta && IsBytes(field)) {
        status = CheckKind(field.varint);
      } else if (field.number == kUnknownRaw && IsBytes(field)) {
        status = ReadList(field.varint);
        saw_list = true;
      } else if (auto error = SkipStreamedField(body_, field)) {
        status = Error(*error);
      }
      if (!status.ok()) return status;
    }
    return saw_list ? Status::Ok() : Error("no list");
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Internal(std::string(shape_.what) + " (protobuf): " + what);
  }

  // The next `length` bytes into buffer_, refusing more than an item may
  // be rather than buffering them.
  Status ReadBounded(uint64_t length, const char* what) {
    if (length > shape_.max_item_bytes) {
      return Error(std::string(what) + " of " + std::to_string(length) +
                   " bytes at byte " + std::to_string(body_->Tell()) +
                   " (at most " + std::to_string(shape_.max_item_bytes) + ")");
    }
    buffer_.clear();
    if (!body_->TakeBytes(length, &buffer_)) {
      return Error(std::string(what) + " truncated at byte " +
                   std::to_string(body_->Tell()));
    }
    return Status::Ok();
  }

  Status CheckKind(uint64_t length) {
    Status status = ReadBounded(length, "the type");
    if (!status.ok()) return status;
    std::string_view kind;
    const std::string what = std::string(shape_.what) + " type";
    status = ProtoStrings(buffer_, what.c_str(), kTypeMetaKind, &kind);
    if (status.ok() && kind != shape_.kind) {
      return Error("the server sent a \"" + std::string(kind) + "\", not a " +
                   std::string(shape_.kind));
    }
    return status;
  }

  Status ReadList(uint64_t length) {
    const size_t end = body_->Tell() + length;
    while (body_->Tell() < end) {
      StreamedKey key;
      if (auto error = ReadStreamedKey(body_, &key)) return Error(*error);
      if (key.end) break;
      const ProtoField& field = key.field;
      Status status;
      if (field.number == kListItems && IsBytes(field)) {
        status = ReadBounded(field.varint, "an item");
        if (status.ok()) status = visit_(buffer_, items_++);
      } else if (field.number == kListMeta && IsBytes(field)) {
        status = ReadListMeta(field.varint);
      } else if (auto error = SkipStreamedField(body_, field)) {
        status = Error(*error);
      }
      if (!status.ok()) return status;
    }
    if (body_->Tell() != end) {
      return Error("the list ends at byte " + std::to_string(body_->Tell()) +
                   ", not at its length's " + std::to_string(end));
    }
    return Status::Ok();
  }

  Status ReadListMeta(uint64_t length) {
    Status status = ReadBounded(length, "the list metadata");
    if (!status.ok()) return status;
    const std::string what = std::string(shape_.what) + " metadata";
    std::string_view version, token;
    status = ProtoStrings(buffer_, what.c_str(), kListMetaResourceVersion,
                          &version, kListMetaContinue, &token);
    out_->resource_version = version;
    out_->continue_token = token;
    return status;
  }

  JsonChunkStream* body_;
  const ProtoListShape& shape_;
  ProtoListScan* out_;
  const ProtoItemVisitor& visit_;
  size_t items_ = 0;
  std::string buffer_;  // one item at a time
};

}  // namespace

Status ScanProtoListStream(JsonChunkStream* body, const ProtoListShape& shape,
                           ProtoListScan* out, const ProtoItemVisitor& visit) {
  return Scanner(body, shape, out, visit).Scan();
}

}  // namespace propscaler::kube

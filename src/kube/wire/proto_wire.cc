#include "kube/wire/proto_wire.h"

namespace propscaler::kube {
namespace {

constexpr int kMaxVarintBytes = 10;

bool KnownWireType(uint64_t type) {
  return type == 0 || type == 1 || type == 2 || type == 5;
}

// runtime.Unknown: typeMeta = 1, raw = 2, contentEncoding = 3,
// contentType = 4.
constexpr uint32_t kUnknownRaw = 2;
// metav1.Status: message = 3.
constexpr uint32_t kStatusMessage = 3;

}  // namespace

bool ProtoCursor::Fail(const std::string& what) {
  error_ = what + " at byte " + std::to_string(pos_);
  return false;
}

bool ProtoCursor::ReadVarint(uint64_t* value) {
  *value = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    if (pos_ >= data_.size()) return Fail("truncated varint");
    const auto byte = static_cast<uint8_t>(data_[pos_++]);
    *value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) return true;
  }
  return Fail("varint longer than 10 bytes");
}

bool ProtoCursor::Next(ProtoField* field) {
  if (pos_ >= data_.size() || !error_.empty()) return false;
  uint64_t key = 0;
  if (!ReadVarint(&key)) return false;
  if (!KnownWireType(key & 7)) {
    return Fail("unsupported wire type " + std::to_string(key & 7));
  }
  if ((key >> 3) == 0 || (key >> 3) > UINT32_MAX) {
    return Fail("field number " + std::to_string(key >> 3));
  }
  field->number = static_cast<uint32_t>(key >> 3);
  field->type = static_cast<WireType>(key & 7);
  field->varint = 0;
  field->bytes = {};
  switch (field->type) {
    case WireType::kVarint:
      return ReadVarint(&field->varint);
    case WireType::kFixed64:
    case WireType::kFixed32: {
      const size_t size = field->type == WireType::kFixed64 ? 8 : 4;
      if (data_.size() - pos_ < size) return Fail("truncated fixed field");
      pos_ += size;
      return true;
    }
    case WireType::kBytes: {
      uint64_t length = 0;
      if (!ReadVarint(&length)) return false;
      if (length > data_.size() - pos_) {
        return Fail("length " + std::to_string(length) + " past the end");
      }
      field->bytes = data_.substr(pos_, length);
      pos_ += length;
      return true;
    }
  }
  return false;
}

namespace {

std::optional<std::string> ReadStreamedVarint(JsonChunkStream* stream,
                                              uint64_t* value) {
  *value = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    if (stream->AtEnd()) {
      return "truncated varint at byte " + std::to_string(stream->Tell());
    }
    const auto bits = static_cast<uint8_t>(stream->Take());
    *value |= static_cast<uint64_t>(bits & 0x7f) << (7 * i);
    if ((bits & 0x80) == 0) return std::nullopt;
  }
  return "varint longer than 10 bytes at byte " +
         std::to_string(stream->Tell());
}

}  // namespace

std::optional<std::string> ReadStreamedKey(JsonChunkStream* stream,
                                           StreamedKey* key) {
  key->end = stream->AtEnd();
  if (key->end) return std::nullopt;
  const size_t at = stream->Tell();
  uint64_t raw = 0;
  if (auto error = ReadStreamedVarint(stream, &raw)) return error;
  if (!KnownWireType(raw & 7) || (raw >> 3) == 0 || (raw >> 3) > UINT32_MAX) {
    return "unsupported field key " + std::to_string(raw) + " at byte " +
           std::to_string(at);
  }
  key->field.number = static_cast<uint32_t>(raw >> 3);
  key->field.type = static_cast<WireType>(raw & 7);
  key->field.bytes = {};
  if (key->field.type == WireType::kVarint ||
      key->field.type == WireType::kBytes) {
    return ReadStreamedVarint(stream, &key->field.varint);
  }
  key->field.varint = 0;
  return std::nullopt;
}

std::optional<std::string> SkipStreamedField(JsonChunkStream* stream,
                                             const ProtoField& field) {
  size_t size = 0;
  switch (field.type) {
    case WireType::kVarint:
      return std::nullopt;  // read with the key
    case WireType::kFixed64:
      size = 8;
      break;
    case WireType::kFixed32:
      size = 4;
      break;
    case WireType::kBytes:
      size = field.varint;
      break;
  }
  if (!stream->SkipBytes(size)) {
    return "truncated field " + std::to_string(field.number) + " at byte " +
           std::to_string(stream->Tell());
  }
  return std::nullopt;
}

Status ProtoStrings(std::string_view message, const char* what, uint32_t first,
                    std::string_view* first_value, uint32_t second,
                    std::string_view* second_value) {
  return EachProtoField(message, what, [&](const ProtoField& field) {
    if (field.type != WireType::kBytes) return Status::Ok();
    if (field.number == first) *first_value = field.bytes;
    if (field.number == second && second_value != nullptr) {
      *second_value = field.bytes;
    }
    return Status::Ok();
  });
}

bool IsKubeProtobuf(std::string_view body) {
  return body.substr(0, kKubeProtobufMagic.size()) == kKubeProtobufMagic;
}

std::optional<std::string> KubeProtobufStatusMessage(std::string_view body) {
  if (!IsKubeProtobuf(body)) return std::nullopt;
  ProtoCursor envelope(body.substr(kKubeProtobufMagic.size()));
  ProtoField field;
  while (envelope.Next(&field)) {
    if (field.number != kUnknownRaw || field.type != WireType::kBytes) continue;
    ProtoCursor status(field.bytes);
    ProtoField member;
    while (status.Next(&member)) {
      if (member.number == kStatusMessage && member.type == WireType::kBytes) {
        return std::string(member.bytes);
      }
    }
  }
  return std::nullopt;
}

}  // namespace propscaler::kube

// Protobuf's wire format, read by hand for the few Kubernetes messages
// propscaler takes as protobuf (see node_proto_decode.h): a cursor over one
// message in memory, the same reads over a stream as it arrives, and
// Kubernetes' envelope (the bytes "k8s\0", then a runtime.Unknown whose
// field 2 holds the object). Malformed input is an error, never a throw or
// a read out of bounds.
#ifndef PROPSCALER_KUBE_WIRE_PROTO_WIRE_H_
#define PROPSCALER_KUBE_WIRE_PROTO_WIRE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "kube/wire/json_chunk_stream.h"

namespace propscaler::kube {

inline constexpr std::string_view kKubeProtobufMagic{"k8s\0", 4};
inline constexpr char kKubeProtobufType[] =
    "application/vnd.kubernetes.protobuf";

enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kBytes = 2,  // length-delimited: strings, messages, maps' entries
  kFixed32 = 5,
};

struct ProtoField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t varint = 0;     // kVarint
  std::string_view bytes;  // kBytes
};

// One message's fields in order. Next() is false at the end and on
// malformed input, which error() then describes with its offset.
class ProtoCursor {
 public:
  explicit ProtoCursor(std::string_view data) : data_(data) {}
  bool Next(ProtoField* field);
  const std::string& error() const { return error_; }

 private:
  bool ReadVarint(uint64_t* value);
  bool Fail(const std::string& what);

  std::string_view data_;
  size_t pos_ = 0;
  std::string error_;
};

// A field's key (number and wire type) and, for kVarint, its value; for
// kBytes, `varint` is the length of the bytes that follow, not yet read.
// Empty at the end of the stream; an error message when malformed.
struct StreamedKey {
  ProtoField field;
  bool end = false;
};
std::optional<std::string> ReadStreamedKey(JsonChunkStream* stream,
                                           StreamedKey* key);
// Skips the rest of a field whose key ReadStreamedKey read.
std::optional<std::string> SkipStreamedField(JsonChunkStream* stream,
                                             const ProtoField& field);

// Calls `on_field` for each field of one message in memory; the first
// error it returns, or the cursor's naming `what`.
template <typename OnField>
Status EachProtoField(std::string_view message, const char* what,
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

// Up to two length-delimited fields of `message` (a taint's key and
// effect, say), by number; other fields are skipped.
Status ProtoStrings(std::string_view message, const char* what, uint32_t first,
                    std::string_view* first_value, uint32_t second = 0,
                    std::string_view* second_value = nullptr);

// Whether `body` starts with Kubernetes' protobuf envelope.
bool IsKubeProtobuf(std::string_view body);
// The message of a metav1.Status in Kubernetes' protobuf envelope (an error
// response to a protobuf request); nullopt when `body` is not one.
std::optional<std::string> KubeProtobufStatusMessage(std::string_view body);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_PROTO_WIRE_H_

// Protobuf written by hand for the decoders' tests, field by field as
// kube-apiserver writes it: varints, length-delimited fields, Kubernetes'
// envelope, and a stream that hands a body over in pieces.
#ifndef PROPSCALER_TESTS_UNIT_PROTO_TEST_ENCODING_H_
#define PROPSCALER_TESTS_UNIT_PROTO_TEST_ENCODING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kube/wire/json_chunk_stream.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube::prototest {

inline std::string Varint(uint64_t value) {
  std::string out;
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    if (value != 0) byte |= 0x80;
    out += static_cast<char>(byte);
  } while (value != 0);
  return out;
}
// A length-delimited field: a string, a message, a map entry.
inline std::string Bytes(uint32_t number, const std::string& bytes) {
  return Varint(number << 3 | 2) + Varint(bytes.size()) + bytes;
}
// A varint field; negative int32/int64 values are sign-extended.
inline std::string Int(uint32_t number, int64_t value) {
  return Varint(number << 3) + Varint(static_cast<uint64_t>(value));
}
inline std::string Bool(uint32_t number, bool value) {
  return Int(number, value ? 1 : 0);
}
// A map<string, string> entry, or with `quantity` a map<string, Quantity>'s.
inline std::string Entry(uint32_t number, const std::string& key,
                         const std::string& value, bool quantity = false) {
  return Bytes(number,
               Bytes(1, key) + Bytes(2, quantity ? Bytes(1, value) : value));
}

inline std::string Envelope(const std::string& kind, const std::string& raw) {
  return std::string(kKubeProtobufMagic) +
         Bytes(1, Bytes(1, "v1") + Bytes(2, kind)) + Bytes(2, raw) +
         Bytes(3, "") + Bytes(4, kKubeProtobufType);
}

// `body` handed over `piece` bytes at a time.
inline JsonChunkStream Cut(const std::string& body, size_t piece) {
  auto rest = std::make_shared<std::string_view>(body);
  return JsonChunkStream([rest, piece](std::string_view* chunk) {
    if (rest->empty()) return false;
    *chunk = rest->substr(0, piece);
    rest->remove_prefix(chunk->size());
    return true;
  });
}

}  // namespace propscaler::kube::prototest

#endif  // PROPSCALER_TESTS_UNIT_PROTO_TEST_ENCODING_H_

// The pieces of Kubernetes' protobuf messages that the object decoders
// (pod_proto_decode.cc, live_node_proto_decode.cc) read alike: field
// numbers of ObjectMeta, map entries, Quantity, Time and conditions (from
// apimachinery's and k8s.io/api/core/v1's generated.proto), and readers
// for them whose errors start with the field's path, as the JSON
// decoders' do.
#ifndef PROPSCALER_KUBE_WIRE_PROTO_FIELDS_H_
#define PROPSCALER_KUBE_WIRE_PROTO_FIELDS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "common/status.h"
#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"
#include "kube/wire/proto_wire.h"

namespace propscaler::kube {

inline constexpr uint32_t kMetaName = 1, kMetaNamespace = 3, kMetaUid = 5,
                          kMetaCreated = 8, kMetaLabels = 11,
                          kMetaAnnotations = 12, kMetaOwners = 13;
inline constexpr uint32_t kTimeSeconds = 1;
inline constexpr uint32_t kEntryKey = 1, kEntryValue = 2;  // map entries
inline constexpr uint32_t kQuantityString = 1;
// PodCondition and NodeCondition alike.
inline constexpr uint32_t kConditionType = 1, kConditionStatus = 2;

inline bool IsBytes(const ProtoField& field) {
  return field.type == WireType::kBytes;
}
inline bool IsVarint(const ProtoField& field) {
  return field.type == WireType::kVarint;
}
// An int32 or int64 field: negative values are sign-extended varints.
inline int64_t SignedOf(const ProtoField& field) {
  return static_cast<int64_t>(field.varint);
}

// One entry of a map<string, string> into `out`.
Status AddStringEntry(std::string_view entry, const std::string& path,
                      Labels* out);
// One entry of a map<string, Quantity> (a resource list) into `out`.
Status AddResourceEntry(std::string_view entry, const std::string& path,
                        Resources* out);
// A metav1.Time: whole seconds, as its RFC 3339 form in JSON has them.
Result<TimePoint> TimeOf(std::string_view time, const std::string& path);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_PROTO_FIELDS_H_

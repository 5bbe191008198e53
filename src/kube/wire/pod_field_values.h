// The enumerated and bounded values of a pod's scheduling fields, checked
// alike by both pod decoders (JSON in snapshot_json.cc, protobuf in
// pod_proto_decode.cc). Each error starts with `path`, the field's, and
// quotes the bad value.
#ifndef PROPSCALER_KUBE_WIRE_POD_FIELD_VALUES_H_
#define PROPSCALER_KUBE_WIRE_POD_FIELD_VALUES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/label_selector.h"
#include "common/status.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

Result<TaintEffect> ParseTaintEffect(std::string_view text,
                                     const std::string& path);
// "" is Equal, as the API server defaults it.
Result<Toleration::Op> ParseTolerationOp(std::string_view text,
                                         const std::string& path);
Result<NodeSelectorRequirement::Op> ParseNodeSelectorOp(
    std::string_view text, const std::string& path);
Result<LabelRequirement::Op> ParseLabelSelectorOp(std::string_view text,
                                                  const std::string& path);
// A pod affinity term's or spread constraint's topologyKey.
Status CheckTopologyKey(std::string_view key, const std::string& path);
Status CheckMaxSkew(int64_t max_skew, const std::string& path);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_POD_FIELD_VALUES_H_

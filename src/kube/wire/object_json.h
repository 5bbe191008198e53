// Decoding of one Pod, Node or PodDisruptionBudget object, already parsed, into
// the snapshot's compact form: what snapshot_json does per list item, shared
// with the live loop's watch decoders. Errors start with `path` ("items[2]",
// "object").
#ifndef PROPSCALER_KUBE_WIRE_OBJECT_JSON_H_
#define PROPSCALER_KUBE_WIRE_OBJECT_JSON_H_

#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "common/status.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler::kube {

Result<PodState> DecodePodObject(const rapidjson::Value& item,
                                 const std::string& path);
// A pod's limits (EffectivePodLimits); `spec` is the pod's spec (none: no
// limits).
Result<Resources> PodLimitsAt(const rapidjson::Value& spec,
                              const std::string& path);
Result<NodeState> DecodeNodeObject(const rapidjson::Value& item,
                                   const std::string& path);

// PodDisruptionBudgets differ between versions in what an empty selector
// matches: nothing in policy/v1beta1, every pod of the namespace in v1.
enum class PdbVersion { kV1beta1, kV1 };
Result<PdbState> DecodePdbObject(const rapidjson::Value& item,
                                 const std::string& path, PdbVersion version);

// A NodeSelector's terms (pod node affinity, PersistentVolume node
// affinity), at `selector`.nodeSelectorTerms.
Result<std::vector<NodeSelectorTerm>> NodeSelectorTermsAt(
    const rapidjson::Value& selector, const std::string& path);

// A metav1.LabelSelector object (matchLabels, matchExpressions) at `at`.
Result<LabelSelector> LabelSelectorOf(const rapidjson::Value& selector,
                                      const std::string& at);

// The kind and name of `metadata`'s controller owner reference (empty when
// it has none).
struct ControllerRef {
  std::string kind;
  std::string name;
};
Result<ControllerRef> ControllerOwnerOf(const rapidjson::Value& metadata,
                                        const std::string& path);

// A node's or node template's taints array, at `object`[`name`].
Result<std::vector<Taint>> TaintsAt(const rapidjson::Value& object,
                                    const char* name, const std::string& path);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_OBJECT_JSON_H_

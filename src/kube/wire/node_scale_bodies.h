// The JSON bodies of node-scale mode's writes: a kwok-style simulated Node,
// a node's DeleteOptions and a pod's Eviction. Part of the encode/decode layer.
#ifndef PROPSCALER_KUBE_WIRE_NODE_SCALE_BODIES_H_
#define PROPSCALER_KUBE_WIRE_NODE_SCALE_BODIES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "kube/model/node_template.h"

namespace propscaler::kube {

// A Node annotated kwok.x-k8s.io/node=fake, providerID kwok://<name> (as
// Karpenter's kwok provider gives its nodes), with `shape`'s labels, taints
// and allocatable (as its capacity too), and a Ready condition True or False.
std::string EncodeSimulatedNode(const std::string& name,
                                const NodeTemplate& shape, bool ready);

// DeleteOptions with a uid precondition: the delete applies only to that
// very object.
std::string DeleteOptionsWithUid(const std::string& uid);

// An Eviction of pod `ns`/`name` with its grace period, in `api_version`
// (policy/v1, or policy/v1beta1 for servers before 1.22).
std::string EncodeEviction(const std::string& ns, const std::string& name,
                           int64_t grace_seconds,
                           std::string_view api_version = "policy/v1");

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_NODE_SCALE_BODIES_H_

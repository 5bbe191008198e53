// Resources as the quantity map and taints as the spec.taints list of a Node's
// status.allocatable
// ({"cpu":"4000m","memory":"17179869184",...}), for objects propscaler
// writes. Pure.
#ifndef PROPSCALER_KUBE_WIRE_RESOURCES_JSON_H_
#define PROPSCALER_KUBE_WIRE_RESOURCES_JSON_H_

#include <string>
#include <vector>

#include "kube/model/node_scale_objects.h"
#include "kube/model/resources.h"

namespace propscaler::kube {

std::string EncodeResourceMap(const Resources& resources);

// A node's spec.taints list.
std::string EncodeTaints(const std::vector<Taint>& taints);

// A JSON string literal, quoted and escaped.
std::string QuoteJsonString(const std::string& text);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_RESOURCES_JSON_H_

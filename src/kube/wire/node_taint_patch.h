// The read-modify-write of a NodeTaintEdit (model/node_taint_edit.h) over a
// node's JSON: a merge patch under the resourceVersion read, again on 409.
#ifndef PROPSCALER_KUBE_WIRE_NODE_TAINT_PATCH_H_
#define PROPSCALER_KUBE_WIRE_NODE_TAINT_PATCH_H_

#include <functional>
#include <string>

#include "common/status.h"
#include "kube/model/node_taint_edit.h"

namespace propscaler::kube {

// Applies `edit` to node `name`: `read` GETs the node's JSON, `patch` sends
// a merge patch (carrying the resourceVersion read). No write when nothing
// would change. kNotFound when the node is gone; kConflict after repeated
// 409s. Both kube::Client implementations use it.
Status EditNodeTaintsWith(
    const std::function<Result<std::string>()>& read,
    const std::function<Status(const std::string& merge_patch)>& patch,
    const std::string& name, const NodeTaintEdit& edit);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_NODE_TAINT_PATCH_H_

// The pods/resize subresource of in-place pod resize (KEP-1287; beta and on
// by default in Kubernetes 1.33, stable in 1.35), and the kubelet's answer
// to it, played at once:
//   - A PATCH (merge or strategic) may change only the cpu and memory
//     requests and limits of the pod's containers: any other change is 422
//     "spec: Forbidden: only cpu and memory resources are mutable"; a
//     request above its limit, or a change of the pod's QoS class, is 422.
//     A stale metadata.resourceVersion in the patch is 409.
//   - A pod on a node is then sized as its kubelet would: requests above
//     the node's allocatable -> condition PodResizePending, reason
//     Infeasible; above what the node has free (allocatable less the other
//     running pods' requests) -> PodResizePending, reason Deferred; else the
//     resize is done: status.containerStatuses[].resources and
//     allocatedResources take the new values and no resize condition stays.
//     A Deferred resize is not retried by itself (a test calls
//     RetryDeferredResizes, as a kubelet retries when room frees up).
//   - A pod not yet on a node is only changed.
#ifndef PROPSCALER_TESTS_APISERVER_POD_RESIZE_H_
#define PROPSCALER_TESTS_APISERVER_POD_RESIZE_H_

#include <rapidjson/document.h>

#include <string>

#include "apiserver/api_error.h"
#include "apiserver/object_store.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

ApiResult<std::string> ResizePod(ObjectStore& store, const ResourcePath& path,
                                 const rapidjson::Value& patch,
                                 ObjectStore::PatchType patch_type);

// Sizes again every pod in `ns` whose resize is Deferred.
void RetryDeferredResizes(ObjectStore& store, const std::string& ns);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_POD_RESIZE_H_

// The Eviction subresource of pods (POST
// /api/v1/namespaces/NS/pods/NAME/eviction): deletes the pod and answers
// 201, as a kube-apiserver does when no PodDisruptionBudget objects; a pod
// with metadata.finalizers only gets a deletionTimestamp and stays (until a
// test deletes it), as a pod does while it terminates. A
// PDB refusal is simulated with a fault rule (429 on POST .../eviction).
#ifndef PROPSCALER_TESTS_APISERVER_EVICTION_ROUTE_H_
#define PROPSCALER_TESTS_APISERVER_EVICTION_ROUTE_H_

#include <httplib.h>

#include "apiserver/object_store.h"

namespace propscaler::sim {

// The eviction of pod `ns`/`name` (its body `eviction_json`) on the store.
ApiResult<ObjectPtr> EvictPod(ObjectStore* store, const std::string& ns,
                              const std::string& name,
                              const std::string& eviction_json);

// `store` must outlive the server. Install before the generic API routes.
void InstallEvictionRoute(httplib::Server& server, ObjectStore* store);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_EVICTION_ROUTE_H_

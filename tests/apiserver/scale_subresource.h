// The autoscaling/v1 Scale subresource of workloads (deployments,
// replicasets, statefulsets, replicationcontrollers, ...):
// {"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{name,namespace,
// resourceVersion,...},"spec":{"replicas":N},"status":{"replicas":N}}.
//
// Setting the scale changes the workload's spec.replicas and, as if its
// controller reacted at once, status.replicas.
#ifndef PROPSCALER_TESTS_APISERVER_SCALE_SUBRESOURCE_H_
#define PROPSCALER_TESTS_APISERVER_SCALE_SUBRESOURCE_H_

#include <rapidjson/document.h>

#include <string>

#include "apiserver/api_error.h"
#include "apiserver/object_store.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

// The Scale of the workload at `path` (404 when absent).
ApiResult<std::string> GetScale(const ObjectStore& store,
                                const ResourcePath& path);

// PUT: `scale` is the whole new Scale. PATCH: `scale` is a merge patch of
// it. Either way a stale metadata.resourceVersion is 409 Conflict. Returns
// the new Scale.
ApiResult<std::string> PutScale(ObjectStore& store, const ResourcePath& path,
                                const rapidjson::Value& scale);
ApiResult<std::string> PatchScale(ObjectStore& store, const ResourcePath& path,
                                  const rapidjson::Value& patch);

// spec.replicas of a workload object (1 when absent, as the API defaults).
int64_t SpecReplicas(const rapidjson::Value& workload);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_SCALE_SUBRESOURCE_H_

// The objects of a simulated cluster as tests set them up and read them
// back, straight on an ObjectStore (no HTTP, not counted as requests): the
// C++ test API of FakeApiServer and of the in-memory cluster
// (tests/memcluster/).
#ifndef PROPSCALER_TESTS_APISERVER_STORE_OBJECTS_H_
#define PROPSCALER_TESTS_APISERVER_STORE_OBJECTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apiserver/object_store.h"
#include "common/status.h"

namespace propscaler::sim {

// Nodes, as JSON objects (a Node's metadata.name is required).
Status CreateNode(ObjectStore& store, const std::string& node_json);
Status UpdateNode(ObjectStore& store, const std::string& node_json);
Status PatchNode(ObjectStore& store, const std::string& name,
                 const std::string& merge_patch);
Status DeleteNode(ObjectStore& store, const std::string& name);
std::vector<std::string> NodeNames(const ObjectStore& store);

// Any object by API path ("/api/v1/nodes/n1",
// "/apis/apps/v1/namespaces/ns/deployments/d"), as stored JSON.
std::optional<std::string> GetObject(const ObjectStore& store,
                                     const std::string& path);
// Creates an object in the collection at `collection_path`.
Status CreateObject(ObjectStore& store, const std::string& collection_path,
                    const std::string& object_json);
// A strategic merge patch of the object at `path`, as another writer's
// `kubectl patch` would send.
Status PatchObject(ObjectStore& store, const std::string& path,
                   const std::string& strategic_patch);

// ConfigMaps: create or replace the data; read it back.
Status PutConfigMap(ObjectStore& store, const std::string& ns,
                    const std::string& name,
                    const std::map<std::string, std::string>& data);
std::optional<std::map<std::string, std::string>> ConfigMapData(
    const ObjectStore& store, const std::string& ns, const std::string& name);

// Workloads by kind ("deployment", "Deployment", "deployments", also
// replicaset, statefulset, replicationcontroller).
Status CreateWorkload(ObjectStore& store, const std::string& kind,
                      const std::string& ns, const std::string& name,
                      int64_t replicas);
Result<int64_t> GetReplicas(const ObjectStore& store, const std::string& kind,
                            const std::string& ns, const std::string& name);
Status SetReplicas(ObjectStore& store, const std::string& kind,
                   const std::string& ns, const std::string& name,
                   int64_t replicas);

// A pod in namespace "default" owned by ReplicaSet "web", requesting `cpu`
// and `memory`: bound to `node` and Running, or with `node` empty Pending
// and marked PodScheduled=False, Unschedulable.
std::string PodJson(const std::string& name, const std::string& cpu,
                    const std::string& node,
                    const std::string& memory = "256Mi");

// One node group of the kwok provider's node-groups.json, and the ConfigMap
// `ns`/`config_map` holding these groups.
std::string GroupJson(const std::string& name, int min, int max,
                      const std::string& cpu, const std::string& memory);
Status PutNodeGroups(ObjectStore& store, const std::string& ns,
                     const std::string& config_map,
                     const std::vector<std::string>& groups);

// Events posted in `ns`, as JSON objects, oldest first.
std::vector<std::string> Events(const ObjectStore& store,
                                const std::string& ns);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_STORE_OBJECTS_H_

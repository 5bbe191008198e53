// The resource types the simulated server knows, and the parsing of API
// paths into (resource, namespace, name, subresource).
//
// Paths: /api/v1/RESOURCE[/NAME[/SUB]] for cluster-scoped resources,
// /api/v1/namespaces/NS/RESOURCE[/NAME[/SUB]] for namespaced ones, and the
// same under /apis/GROUP/VERSION; /api/v1/RESOURCE of a namespaced resource
// lists across all namespaces.
#ifndef PROPSCALER_TESTS_APISERVER_RESOURCES_H_
#define PROPSCALER_TESTS_APISERVER_RESOURCES_H_

#include <optional>
#include <string>
#include <string_view>

namespace propscaler::sim {

struct ResourceType {
  std::string group;    // "" for the core group
  std::string version;  // "v1"
  std::string plural;   // "nodes", unique across the table
  std::string kind;     // "Node"
  bool namespaced = true;
  bool scalable = false;  // has a /scale subresource
  // Has a /status subresource: writes to the object leave its status as it
  // was, writes to /status change nothing else (as a CRD that enables it).
  bool status_subresource = false;
  // An older version serving the same objects ("" when none), as
  // HorizontalPodAutoscalers are served in autoscaling/v2 and v1. A real
  // server converts between them; the fields propscaler reads and writes
  // (scaleTargetRef, minReplicas, maxReplicas) are the same in both, so the
  // objects are served as stored, and discovery lists `version` first
  // (preferred), then this.
  std::string also_served;

  // "v1" or "apps/v1".
  std::string ApiVersion() const;
  // "/api/v1" or "/apis/apps/v1".
  std::string PathPrefix() const;
  // "nodes" or "deployments.apps", as error messages name resources.
  std::string QualifiedName() const;
};

// By plural ("deployments"), singular ("deployment") or kind ("Deployment");
// nullptr when unknown.
const ResourceType* FindResourceType(std::string_view name);

// A parsed API path. `ns` is empty for cluster-scoped resources and for
// lists across all namespaces; `name` is empty for collections.
struct ResourcePath {
  const ResourceType* type = nullptr;
  std::string ns;
  std::string name;
  std::string subresource;  // "scale" or ""

  bool is_collection() const { return name.empty(); }
  // The canonical collection path, e.g. "/api/v1/namespaces/NS/configmaps".
  std::string CollectionPath() const;
};

// nullopt when `path` is not an API path of a known resource.
std::optional<ResourcePath> ParseResourcePath(std::string_view path);

// For /api/v1 or /apis/GROUP/VERSION of a group version the table holds:
// its APIResourceList (names and kinds); /apis/GROUP: its APIGroup (the
// versions and the preferred one). nullopt for any other path (the
// server then answers 404 as kube-apiserver does for a version it does not
// serve). /api/v1 lists pods/resize when `pod_resize` (1.33+).
std::optional<std::string> DiscoveryDocument(std::string_view path,
                                             bool pod_resize);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_RESOURCES_H_

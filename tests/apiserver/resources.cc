#include "apiserver/resources.h"

#include <algorithm>
#include <vector>

namespace propscaler::sim {
namespace {

const std::vector<ResourceType>& AllResourceTypes() {
  static const std::vector<ResourceType> kTypes = {
      {"", "v1", "nodes", "Node", false, false},
      {"", "v1", "pods", "Pod", true, false},
      {"", "v1", "configmaps", "ConfigMap", true, false},
      {"", "v1", "events", "Event", true, false},
      {"", "v1", "podtemplates", "PodTemplate", true, false},
      {"", "v1", "persistentvolumes", "PersistentVolume", false, false},
      {"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true,
       false},
      {"storage.k8s.io", "v1", "storageclasses", "StorageClass", false, false},
      {"storage.k8s.io", "v1", "csinodes", "CSINode", false, false},
      {"storage.k8s.io", "v1", "csidrivers", "CSIDriver", false, false},
      {"storage.k8s.io", "v1", "csistoragecapacities", "CSIStorageCapacity",
       true, false},
      {"", "v1", "replicationcontrollers", "ReplicationController", true, true},
      {"apps", "v1", "deployments", "Deployment", true, true},
      {"apps", "v1", "replicasets", "ReplicaSet", true, true},
      {"apps", "v1", "statefulsets", "StatefulSet", true, true},
      {"apps", "v1", "daemonsets", "DaemonSet", true, false},
      {"coordination.k8s.io", "v1", "leases", "Lease", true, false},
      // policy/v1 only (Kubernetes 1.25 and later); the real-server tests
      // cover v1beta1 (kube-apiserver 1.20).
      {"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true,
       false},
      {"autoscaling", "v2", "horizontalpodautoscalers",
       "HorizontalPodAutoscaler", true, false, false, "v1"},
      {"cluster.x-k8s.io", "v1beta1", "machinedeployments", "MachineDeployment",
       true, true},
      {"cluster.x-k8s.io", "v1beta1", "machinesets", "MachineSet", true, true},
      {"cluster.x-k8s.io", "v1beta1", "machines", "Machine", true, false},
      {"cluster.x-k8s.io", "v1beta1", "machinepools", "MachinePool", true,
       true},
      // An infrastructure provider's machine templates (Cluster API's
      // Docker provider), for scale from zero.
      {"infrastructure.cluster.x-k8s.io", "v1beta1", "dockermachinetemplates",
       "DockerMachineTemplate", true, false},
      {"autoscaling.x-k8s.io", "v1beta1", "capacitybuffers", "CapacityBuffer",
       true, false, true},
      {"autoscaling.x-k8s.io", "v1", "provisioningrequests",
       "ProvisioningRequest", true, false, true},
      // Karpenter's, cluster-scoped (its scale subresource is not modelled).
      {"karpenter.sh", "v1", "nodepools", "NodePool", false, false, true},
  };
  return kTypes;
}

const ResourceType* FindByGroupVersion(std::string_view group,
                                       std::string_view version,
                                       std::string_view plural) {
  for (const ResourceType& type : AllResourceTypes()) {
    if (type.group == group &&
        (type.version == version || type.also_served == version) &&
        type.plural == plural) {
      return &type;
    }
  }
  return nullptr;
}

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// Parses what follows the group/version: [namespaces/NS/]RESOURCE[/NAME[/SUB]].
std::optional<ResourcePath> ParseRest(std::string_view group,
                                      std::string_view version,
                                      const std::vector<std::string_view>& p,
                                      size_t i) {
  ResourcePath result;
  if (p.size() > i + 2 && p[i] == "namespaces") {
    result.ns = std::string(p[i + 1]);
    i += 2;
  }
  if (i >= p.size() || p.size() - i > 3) return std::nullopt;
  result.type = FindByGroupVersion(group, version, p[i]);
  if (result.type == nullptr) return std::nullopt;
  if (!result.ns.empty() && !result.type->namespaced) return std::nullopt;
  if (p.size() > i + 1) result.name = std::string(p[i + 1]);
  if (p.size() > i + 2) result.subresource = std::string(p[i + 2]);
  // A named namespaced object needs its namespace.
  if (result.type->namespaced && result.ns.empty() && !result.name.empty()) {
    return std::nullopt;
  }
  return result;
}

}  // namespace

std::string ResourceType::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string ResourceType::PathPrefix() const {
  return group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
}

std::string ResourceType::QualifiedName() const {
  return group.empty() ? plural : plural + "." + group;
}

const ResourceType* FindResourceType(std::string_view name) {
  for (const ResourceType& type : AllResourceTypes()) {
    std::string_view plural = type.plural;
    std::string_view singular = plural.substr(0, plural.size() - 1);
    if (name == plural || name == singular || name == type.kind) return &type;
  }
  return nullptr;
}

std::string ResourcePath::CollectionPath() const {
  std::string path = type->PathPrefix();
  if (!ns.empty()) path += "/namespaces/" + ns;
  return path + "/" + type->plural;
}

std::optional<ResourcePath> ParseResourcePath(std::string_view path) {
  std::vector<std::string_view> p = SplitPath(path);
  if (p.size() >= 3 && p[0] == "api") return ParseRest("", p[1], p, 2);
  if (p.size() >= 4 && p[0] == "apis") return ParseRest(p[1], p[2], p, 3);
  return std::nullopt;
}

// An APIGroup document for /apis/GROUP: its versions in the table's order,
// the first preferred (the table lists one version a group).
std::optional<std::string> GroupDocument(std::string_view group) {
  std::vector<std::string> versions;
  for (const ResourceType& type : AllResourceTypes()) {
    if (type.group != group || std::find(versions.begin(), versions.end(),
                                         type.version) != versions.end()) {
      continue;
    }
    versions.push_back(type.version);
    if (!type.also_served.empty()) versions.push_back(type.also_served);
  }
  if (versions.empty()) return std::nullopt;
  auto entry = [&](const std::string& version) {
    return R"({"groupVersion":")" + std::string(group) + "/" + version +
           R"(","version":")" + version + R"("})";
  };
  std::string list;
  for (const std::string& version : versions) {
    list += (list.empty() ? "" : ",") + entry(version);
  }
  return R"({"kind":"APIGroup","apiVersion":"v1","name":")" +
         std::string(group) + R"(","versions":[)" + list +
         R"(],"preferredVersion":)" + entry(versions.front()) + "}";
}

std::optional<std::string> DiscoveryDocument(std::string_view path,
                                             bool pod_resize) {
  if (path.starts_with("/apis/") &&
      std::count(path.begin(), path.end(), '/') == 2) {
    return GroupDocument(path.substr(6));
  }
  std::string group_version;
  if (path == "/api/v1") {
    group_version = "v1";
  } else if (path.starts_with("/apis/") &&
             std::count(path.begin(), path.end(), '/') == 3) {
    group_version = std::string(path.substr(6));
  } else {
    return std::nullopt;
  }
  std::string resources;
  for (const ResourceType& type : AllResourceTypes()) {
    if (type.ApiVersion() != group_version &&
        (type.also_served.empty() ||
         type.group + "/" + type.also_served != group_version)) {
      continue;
    }
    if (!resources.empty()) resources += ',';
    resources += R"({"name":")" + type.plural + R"(","namespaced":)" +
                 (type.namespaced ? "true" : "false") + R"(,"kind":")" +
                 type.kind + R"(","verbs":["get","list","watch"]})";
  }
  if (resources.empty()) return std::nullopt;
  if (group_version == "v1" && pod_resize) {
    resources += R"(,{"name":"pods/resize","namespaced":true,"kind":"Pod",)"
                 R"("verbs":["get","patch","update"]})";
  }
  return R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":")" +
         group_version + R"(","resources":[)" + resources + "]}";
}

}  // namespace propscaler::sim

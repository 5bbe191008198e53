// Objects on the real API server, written as the cluster admin: namespaces,
// service accounts and their short-lived tokens, RBAC from YAML manifests,
// labelled Nodes, Deployments and ConfigMaps. Every helper returns an error
// naming the call and the server's answer.
#ifndef PROPSCALER_TESTS_ENVTEST_REAL_OBJECTS_H_
#define PROPSCALER_TESTS_ENVTEST_REAL_OBJECTS_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "envtest/real_cluster.h"

namespace propscaler::envtest {

// Sends an admin request and turns a non-2xx answer into an error.
Result<std::string> AdminCall(
    const RealCluster& cluster, const std::string& method,
    const std::string& path, const std::string& body = "",
    const std::string& content_type = "application/json");
// GETs a list (`path` of a collection) as the cluster admin: the parsed
// document, whose "items" is an array.
Result<rapidjson::Document> AdminList(const RealCluster& cluster,
                                      const std::string& path);

// Sends every object of a YAML manifest to the server with ?dryRun=All: it
// is decoded, defaulted, validated and admitted as a real create, and
// nothing is stored. Namespaced objects go to `ns`. Returns how many were
// accepted; the first refusal (or a kind not known here) is the error,
// naming the object.
Result<int> DryRunManifest(const RealCluster& cluster, const std::string& yaml,
                           const std::string& ns);

Status CreateNamespace(const RealCluster& cluster, const std::string& ns);
Status CreateServiceAccount(const RealCluster& cluster, const std::string& ns,
                            const std::string& name);
// A TokenRequest for the service account, valid for `valid_seconds`; bound
// to the Secret `bound_secret` when given (deleting it revokes the token).
Result<std::string> ServiceAccountToken(const RealCluster& cluster,
                                        const std::string& ns,
                                        const std::string& account,
                                        const std::string& bound_secret = "",
                                        int valid_seconds = 600);

// Creates the RBAC objects of a YAML manifest (Role, RoleBinding,
// ClusterRole, ClusterRoleBinding; other kinds are skipped) with every
// namespace set to `ns` and cluster-scoped names suffixed with "-ns", so
// tests do not share them. The rules are the manifest's, unchanged.
Status ApplyRbacManifest(const RealCluster& cluster, const std::string& yaml,
                         const std::string& ns);

// Creates the CustomResourceDefinitions of a YAML manifest (one that
// exists already is kept) and waits until each is Established.
Status CreateCustomResourceDefinitions(const RealCluster& cluster,
                                       const std::string& yaml);

struct RealNode {
  std::string name;
  std::string cpu = "4";
  bool ready = true;
  bool unschedulable = false;
  std::string label;  // "key=value" on the node, empty for none
};
// Creates the node as a kubelet registers it and the node lifecycle
// controller then finds it: the server's not-ready taint on every new node is
// lifted when the node is Ready (no controller manager runs here).
Status CreateNode(const RealCluster& cluster, const RealNode& node);
// What the node lifecycle controller does for a Ready node: removes the
// node.kubernetes.io/not-ready taint, if there.
Status ClearNotReadyTaint(const RealCluster& cluster, const std::string& name);
Status SetNodeReady(const RealCluster& cluster, const std::string& name,
                    bool ready);
Status CordonNode(const RealCluster& cluster, const std::string& name);
Status DeleteNode(const RealCluster& cluster, const std::string& name);

Status CreateDeployment(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, int64_t replicas);
// spec.replicas of the Deployment, read from the server.
Result<int64_t> DeploymentReplicas(const RealCluster& cluster,
                                   const std::string& ns,
                                   const std::string& name);
// A person's `kubectl scale`.
Status ScaleDeployment(const RealCluster& cluster, const std::string& ns,
                       const std::string& name, int64_t replicas);

// Creates or replaces the ConfigMap with one data key.
Status PutConfigMap(const RealCluster& cluster, const std::string& ns,
                    const std::string& name, const std::string& key,
                    const std::string& value);
Result<std::string> ConfigMapValue(const RealCluster& cluster,
                                   const std::string& ns,
                                   const std::string& name,
                                   const std::string& key);
Status DeleteConfigMap(const RealCluster& cluster, const std::string& ns,
                       const std::string& name);

// More of a pending pod: its labels (a JSON object) and members added to its
// spec (JSON, e.g. "\"topologySpreadConstraints\":[...]").
struct PodExtras {
  std::string labels;
  std::string spec;
  std::string memory = "256Mi";  // its memory request
  std::string annotations;       // a JSON object; empty: none
};
// A ReplicaSet-owned pod requesting `cpu`, marked Unschedulable by "the
// scheduler" (its status written through /status, as the scheduler does).
Status CreatePendingPod(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, const std::string& cpu,
                        const PodExtras& extras = {});
// The two halves of CreatePendingPod: the pod as its controller creates
// it (the scheduler has not tried it yet), and the scheduler's verdict.
Status CreateUntriedPod(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, const std::string& cpu,
                        const PodExtras& extras = {});
Status MarkUnschedulable(const RealCluster& cluster, const std::string& ns,
                         const std::string& name);
// Binds the pod to the node through the pods/binding subresource, as the
// scheduler does.
Status BindPod(const RealCluster& cluster, const std::string& ns,
               const std::string& name, const std::string& node);
Status DeletePod(const RealCluster& cluster, const std::string& ns,
                 const std::string& name);
// A claim bound to its PersistentVolume both ways, as the PV controller
// leaves them: the PV "<ns>-<claim>" (1Gi, ReadWriteOnce, class "disk", CSI
// `driver` and `handle`, and with `zone` a node affinity on
// topology.kubernetes.io/zone) and the claim with bind-completed.
struct RealBoundClaim {
  std::string claim;
  std::string driver;
  std::string handle;
  std::string zone;  // empty: the PV goes anywhere
};
Status CreateBoundClaim(const RealCluster& cluster, const std::string& ns,
                        const RealBoundClaim& bound);
// Names of the nodes matching a label selector.
Result<std::vector<std::string>> NodeNames(const RealCluster& cluster,
                                           const std::string& selector);
// spec.holderIdentity of a Lease; empty when none holds it.
Result<std::string> LeaseHolder(const RealCluster& cluster,
                                const std::string& ns, const std::string& name);

}  // namespace propscaler::envtest

#endif  // PROPSCALER_TESTS_ENVTEST_REAL_OBJECTS_H_

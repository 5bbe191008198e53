// The cluster a scale run measures propscaler against: the simulated API
// server in process (simulated_bench_cluster.h) or the real kube-apiserver
// of ../shared/envtest (real_bench_cluster.h). A run changes the cluster
// through these calls and learns what propscaler sent from the server's own
// record of its requests.
//
// Every cluster holds generated Ready nodes sim-node-1..N, the Deployment
// kube-system/coredns and the ConfigMap kube-system/coredns-autoscaler
// asking for one replica per schedulable node.
#ifndef PROPSCALER_BENCH_HARNESS_BENCH_CLUSTER_H_
#define PROPSCALER_BENCH_HARNESS_BENCH_CLUSTER_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "apiserver/request_counter.h"
#include "common/status.h"
#include "transport/http_client.h"

namespace propscaler::bench {

inline constexpr char kNamespace[] = "kube-system";
inline constexpr char kConfigMap[] = "coredns-autoscaler";
inline constexpr char kDeployment[] = "coredns";

// What a pod's in-cluster client (client-go's rest.InClusterConfig, as
// cluster-proportional-autoscaler uses) is given: the server's address in
// $KUBERNETES_SERVICE_HOST and _PORT, and the files of
// /var/run/secrets/kubernetes.io/serviceaccount.
struct InClusterIdentity {
  std::string host;
  std::string port;
  std::string token;
  std::string ca_file;
};

class BenchCluster {
 public:
  virtual ~BenchCluster() = default;

  // Adds the generated nodes up to sim-node-`nodes` that are not there yet.
  virtual Status GrowTo(int nodes) = 0;
  // For propscaler: a kubeconfig with its identity on this server, under
  // `rbac`: "ours" (deploy/replicas/rbac.yaml: it watches) or "cpa"
  // (cluster-proportional-autoscaler's example RBAC: it polls).
  virtual Result<std::string> PropscalerKubeconfig(
      const std::string& rbac) const = 0;
  // The same identity for an in-cluster client; only a real server has one.
  virtual Result<InClusterIdentity> PodIdentity(
      const std::string& rbac) const = 0;
  // The cluster admin's client, for the harness's own reads.
  virtual const kube::HttpClient& Admin() const = 0;

  virtual Status SetReplicas(int64_t replicas) = 0;
  virtual Result<int64_t> Replicas() const = 0;
  // A kubelet's status update: `merge_patch` applied to the node's status.
  virtual Status PatchNodeStatus(const std::string& name,
                                 const std::string& merge_patch) = 0;
  // propscaler's requests that arrived at or after `since`, oldest first, as
  // "VERB path" (a watch as "WATCH path"), timed by the server.
  virtual Result<std::vector<sim::LoggedRequest>> RequestsSince(
      std::chrono::steady_clock::time_point since) = 0;
  // "simulated", "kube-apiserver v1.20.2".
  virtual std::string ServerName() const = 0;
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_BENCH_CLUSTER_H_

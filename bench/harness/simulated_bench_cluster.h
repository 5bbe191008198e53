// The simulated API server (tests/apiserver) in process as a bench cluster:
// generated nodes served from memory, requests logged as they arrive. It
// grows by starting afresh with more generated nodes.
#ifndef PROPSCALER_BENCH_HARNESS_SIMULATED_BENCH_CLUSTER_H_
#define PROPSCALER_BENCH_HARNESS_SIMULATED_BENCH_CLUSTER_H_

#include <memory>
#include <string>

#include "apiserver/fake_apiserver.h"
#include "e2e/process.h"
#include "harness/bench_cluster.h"

namespace propscaler::bench {

class SimulatedBenchCluster : public BenchCluster {
 public:
  // `watch_list`: serve WatchList as Kubernetes 1.32+ does; false refuses
  // it as kube-apiserver 1.20 does, so lists come in pages.
  explicit SimulatedBenchCluster(bool watch_list) : watch_list_(watch_list) {}

  Status GrowTo(int nodes) override;
  // The simulated server has no RBAC: "ours" only.
  Result<std::string> PropscalerKubeconfig(
      const std::string& rbac) const override;
  Result<InClusterIdentity> PodIdentity(
      const std::string& /*rbac*/) const override {
    return Status::Invalid("the simulated server has no service accounts");
  }
  const kube::HttpClient& Admin() const override { return *admin_; }
  Status SetReplicas(int64_t replicas) override;
  Result<int64_t> Replicas() const override;
  Status PatchNodeStatus(const std::string& name,
                         const std::string& merge_patch) override;
  Result<std::vector<sim::LoggedRequest>> RequestsSince(
      std::chrono::steady_clock::time_point since) override;
  std::string ServerName() const override { return "simulated"; }

 private:
  const bool watch_list_;
  e2e::TempDir dir_;
  std::unique_ptr<sim::FakeApiServer> server_;
  std::unique_ptr<kube::HttpClient> admin_;
  std::string kubeconfig_;
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_SIMULATED_BENCH_CLUSTER_H_

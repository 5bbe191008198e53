// The real kube-apiserver v1.20.2 and etcd of ../shared/envtest as a bench
// cluster (tests/envtest/real_cluster.h): nodes created as a kubelet
// registers them (so the server stores them with their managedFields),
// propscaler run with a service-account token under exactly the RBAC of a
// manifest, and its requests read back from the server's audit log.
#ifndef PROPSCALER_BENCH_HARNESS_REAL_BENCH_CLUSTER_H_
#define PROPSCALER_BENCH_HARNESS_REAL_BENCH_CLUSTER_H_

#include <map>
#include <memory>
#include <string>

#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "harness/audit_log.h"
#include "harness/bench_cluster.h"

namespace propscaler::bench {

struct RealBenchOptions {
  std::string envtest_dir;  // ../shared/envtest
  std::string unpack_dir;   // where kube-apiserver is unpacked
  std::string source_dir;   // for the RBAC manifests
  int create_threads = 8;   // parallel node creations
};

class RealBenchCluster : public BenchCluster {
 public:
  static Result<std::unique_ptr<RealBenchCluster>> Start(
      const RealBenchOptions& options);

  Status GrowTo(int nodes) override;
  Result<std::string> PropscalerKubeconfig(
      const std::string& rbac) const override;
  Result<InClusterIdentity> PodIdentity(const std::string& rbac) const override;
  const kube::HttpClient& Admin() const override {
    return cluster_->admin_http();
  }
  Status SetReplicas(int64_t replicas) override;
  Result<int64_t> Replicas() const override;
  Status PatchNodeStatus(const std::string& name,
                         const std::string& merge_patch) override;
  Result<std::vector<sim::LoggedRequest>> RequestsSince(
      std::chrono::steady_clock::time_point since) override;
  std::string ServerName() const override { return "kube-apiserver v1.20.2"; }

  // Bytes of one node as the server returns it (managedFields included).
  Result<size_t> NodeBytes(const std::string& name) const;

 private:
  explicit RealBenchCluster(const RealBenchOptions& options)
      : options_(options) {}
  Status Populate();
  Status CreateNodes(int first, int last);

  const RealBenchOptions options_;
  e2e::TempDir dir_;
  std::unique_ptr<envtest::RealCluster> cluster_;
  std::unique_ptr<AuditLog> audit_;
  std::map<std::string, std::string> kubeconfigs_;  // by RBAC
  std::map<std::string, std::string> tokens_;       // by RBAC
  int nodes_ = 0;
};

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_REAL_BENCH_CLUSTER_H_

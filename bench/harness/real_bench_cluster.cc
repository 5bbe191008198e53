#include "harness/real_bench_cluster.h"

#include <cstdio>
#include <tuple>

#include "apiserver/node_generator.h"
#include "common/files.h"
#include "envtest/real_objects.h"
#include "harness/parallel.h"

namespace propscaler::bench {
namespace {

constexpr char kOurAccount[] = "coredns-autoscaler";
constexpr char kCpaAccount[] = "autoscaler";
constexpr char kOurRbac[] = "deploy/replicas/rbac.yaml";
constexpr char kCpaRbac[] = "tests/envtest/rbac/cpa-examples.yaml";
// Long enough for the longest run; propscaler never needs a fresh one.
constexpr int kTokenSeconds = 24 * 3600;

std::string ServiceAccountUser(const std::string& account) {
  return std::string("system:serviceaccount:") + kNamespace + ":" + account;
}

}  // namespace

Result<std::unique_ptr<RealBenchCluster>> RealBenchCluster::Start(
    const RealBenchOptions& options) {
  std::unique_ptr<RealBenchCluster> bench(new RealBenchCluster(options));
  const std::string audit_path = bench->dir_.path() + "/audit.log";
  const std::string policy = bench->dir_.Write(
      "audit-policy.yaml", AuditPolicyYaml({ServiceAccountUser(kOurAccount),
                                            ServiceAccountUser(kCpaAccount)}));
  bench->audit_ = std::make_unique<AuditLog>(audit_path);
  envtest::RealClusterOptions cluster_options{
      .envtest_dir = options.envtest_dir,
      .unpack_dir = options.unpack_dir,
      // 65,000 nodes of 7 KB and an hour of their heartbeats outgrow etcd's
      // default 2 GiB quota between compactions.
      .etcd_args = {"--quota-backend-bytes=8589934592"},
      .apiserver_args = {"--audit-policy-file=" + policy,
                         "--audit-log-path=" + audit_path,
                         "--audit-log-format=json"}};
  Result<std::unique_ptr<envtest::RealCluster>> cluster =
      envtest::RealCluster::Start(cluster_options);
  if (!cluster.ok()) return cluster.status();
  bench->cluster_ = std::move(*cluster);
  if (Status status = bench->Populate(); !status.ok()) return status;
  return bench;
}

// The target, its ConfigMap, and a service account for each RBAC with a
// kubeconfig holding its token.
Status RealBenchCluster::Populate() {
  const envtest::RealCluster& cluster = *cluster_;
  Status status =
      envtest::CreateDeployment(cluster, kNamespace, kDeployment, 1);
  if (status.ok()) {
    status = envtest::PutConfigMap(cluster, kNamespace, kConfigMap, "linear",
                                   R"({"nodesPerReplica":1})");
  }
  for (const auto& [rbac, account, manifest] :
       {std::tuple{"ours", kOurAccount, kOurRbac},
        std::tuple{"cpa", kCpaAccount, kCpaRbac}}) {
    if (status.ok()) {
      status = envtest::CreateServiceAccount(cluster, kNamespace, account);
    }
    if (!status.ok()) return status;
    Result<std::string> yaml = ReadFile(options_.source_dir + "/" + manifest);
    if (!yaml.ok()) return yaml.status();
    status = envtest::ApplyRbacManifest(cluster, *yaml, kNamespace);
    if (!status.ok()) return status;
    Result<std::string> token = envtest::ServiceAccountToken(
        cluster, kNamespace, account, "", kTokenSeconds);
    if (!token.ok()) return token.status();
    tokens_[rbac] = *token;
    kubeconfigs_[rbac] = dir_.Write(
        std::string("kubeconfig-") + rbac,
        e2e::KubeconfigYaml(cluster.url(), *token, cluster.ca_file()));
  }
  return status;
}

Result<std::string> RealBenchCluster::PropscalerKubeconfig(
    const std::string& rbac) const {
  const auto kubeconfig = kubeconfigs_.find(rbac);
  if (kubeconfig == kubeconfigs_.end()) {
    return Status::Invalid("unknown RBAC \"" + rbac + "\": want ours or cpa");
  }
  return kubeconfig->second;
}

Result<InClusterIdentity> RealBenchCluster::PodIdentity(
    const std::string& rbac) const {
  const auto token = tokens_.find(rbac);
  if (token == tokens_.end()) {
    return Status::Invalid("unknown RBAC \"" + rbac + "\": want ours or cpa");
  }
  // https://HOST:PORT
  const std::string& url = cluster_->url();
  const size_t host_start = url.find("://") + 3;
  const size_t colon = url.rfind(':');
  return InClusterIdentity{.host = url.substr(host_start, colon - host_start),
                           .port = url.substr(colon + 1),
                           .token = token->second,
                           .ca_file = cluster_->ca_file()};
}

Status RealBenchCluster::GrowTo(int nodes) {
  if (nodes <= nodes_) return Status::Ok();
  const auto start = std::chrono::steady_clock::now();
  if (Status status = CreateNodes(nodes_ + 1, nodes); !status.ok()) {
    return status;
  }
  std::fprintf(
      stderr, "created sim-node-%d..%d in %.1fs\n", nodes_ + 1, nodes,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  nodes_ = nodes;
  return Status::Ok();
}

// POSTs nodes first..last from `create_threads` threads, as their kubelets
// register them (field manager "kubelet", status included).
Status RealBenchCluster::CreateNodes(int first, int last) {
  return ParallelFor(first, last, options_.create_threads, [&](int i) {
    return envtest::AdminCall(
               *cluster_, "POST", "/api/v1/nodes?fieldManager=kubelet",
               sim::MakeNodeJson(sim::GeneratedNodeShape("sim-node-", i, 0)))
        .status();
  });
}

Status RealBenchCluster::SetReplicas(int64_t replicas) {
  return envtest::ScaleDeployment(*cluster_, kNamespace, kDeployment, replicas);
}

Result<int64_t> RealBenchCluster::Replicas() const {
  return envtest::DeploymentReplicas(*cluster_, kNamespace, kDeployment);
}

Status RealBenchCluster::PatchNodeStatus(const std::string& name,
                                         const std::string& merge_patch) {
  return envtest::AdminCall(
             *cluster_, "PATCH",
             "/api/v1/nodes/" + name + "/status?fieldManager=kubelet",
             merge_patch, "application/merge-patch+json")
      .status();
}

Result<std::vector<sim::LoggedRequest>> RealBenchCluster::RequestsSince(
    std::chrono::steady_clock::time_point since) {
  return audit_->Since(since);
}

Result<size_t> RealBenchCluster::NodeBytes(const std::string& name) const {
  Result<std::string> node =
      envtest::AdminCall(*cluster_, "GET", "/api/v1/nodes/" + name);
  if (!node.ok()) return node.status();
  return node->size();
}

}  // namespace propscaler::bench

#include "harness/simulated_bench_cluster.h"

namespace propscaler::bench {
namespace {

constexpr char kToken[] = "bench-token";

}  // namespace

Status SimulatedBenchCluster::GrowTo(int nodes) {
  server_.reset();
  auto server = std::make_unique<sim::FakeApiServer>();
  sim::FakeApiServerOptions options;
  options.bearer_token = kToken;
  options.generate_nodes = nodes;
  options.history_size = static_cast<size_t>(nodes) + 20000;
  options.watch_list = watch_list_ ? sim::WatchListSupport::kSupported
                                   : sim::WatchListSupport::kBefore;
  Status status = server->Start(options);
  if (status.ok()) {
    status = server->CreateWorkload("deployment", kNamespace, kDeployment, 1);
  }
  if (status.ok()) {
    status = server->PutConfigMap(kNamespace, kConfigMap,
                                  {{"linear", R"({"nodesPerReplica":1})"}});
  }
  if (!status.ok()) return status;
  server_ = std::move(server);
  kube::ClientConfig admin;
  admin.server = server_->url();
  admin.token = kToken;
  admin_ = std::make_unique<kube::HttpClient>(admin, &RealClock::Instance());
  kubeconfig_ = dir_.Write("kubeconfig-" + std::to_string(nodes),
                           e2e::KubeconfigYaml(server_->url(), kToken));
  return Status::Ok();
}

Result<std::string> SimulatedBenchCluster::PropscalerKubeconfig(
    const std::string& rbac) const {
  if (rbac != "ours") {
    return Status::Invalid("RBAC \"" + rbac +
                           "\" needs --server=real: the simulated server "
                           "has no RBAC");
  }
  return kubeconfig_;
}

Status SimulatedBenchCluster::SetReplicas(int64_t replicas) {
  return server_->SetReplicas("deployment", kNamespace, kDeployment, replicas);
}

Result<int64_t> SimulatedBenchCluster::Replicas() const {
  return server_->GetReplicas("deployment", kNamespace, kDeployment);
}

Status SimulatedBenchCluster::PatchNodeStatus(const std::string& name,
                                              const std::string& merge_patch) {
  return server_->PatchNode(name, merge_patch);
}

Result<std::vector<sim::LoggedRequest>> SimulatedBenchCluster::RequestsSince(
    std::chrono::steady_clock::time_point since) {
  return server_->RequestLog(since);
}

}  // namespace propscaler::bench

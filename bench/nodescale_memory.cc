// propscaler_nodescale_memory: node-scale mode's memory at cluster scale.
// Starts an API server (the simulated one in process, or with --server=real
// kube-apiserver v1.20.2 and etcd from ../shared/envtest) with N generated
// nodes and P pods bound to them (realistic pods, apiserver/pod_generator.h,
// or tiny ones with --tiny_pods), runs the real propscaler binary in
// --mode=node-scale against it (on the real server under
// deploy/node-scale/kwok's RBAC), waits for `--loops` loops (each one after
// the pods and nodes were listed and watched), and prints its peak and
// current resident size (see bench/README.md).
//
//   propscaler_nodescale_memory --nodes=1000 --pods=30000 [--server=real]
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "apiserver/fake_apiserver.h"
#include "apiserver/node_generator.h"
#include "apiserver/pod_generator.h"
#include "apiserver/store_objects.h"
#include "common/files.h"
#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "envtest/real_objects.h"
#include "harness/metrics_scrape.h"
#include "harness/parallel.h"
#include "harness/proc_stats.h"

DEFINE_int32(nodes, 1000, "Generated nodes.");
DEFINE_int32(pods, 30000, "Running pods, spread evenly over the nodes.");
DEFINE_bool(tiny_pods, false,
            "Pods of one container, no labels or annotations (~0.6 KB) "
            "instead of realistic ones (~6 KB).");
DEFINE_int32(loops, 3, "Node-scale loops to wait for before measuring.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(server, "simulated",
              "simulated: tests/apiserver in process; real: kube-apiserver "
              "v1.20.2 and etcd (../shared/envtest).");
DEFINE_string(envtest_dir, PROPSCALER_ENVTEST_DIR,
              "With --server=real: the folder of kube-apiserver-v1.20.2.xz.");
DEFINE_int32(writer_threads, 8,
             "With --server=real: parallel writers creating nodes and pods.");

namespace propscaler::bench {
namespace {

constexpr char kToken[] = "bench-token";
constexpr char kNamespace[] = "kube-system";
constexpr char kGroups[] = "node-groups";

constexpr char kAccount[] = "propscaler-node-scale";
constexpr const char* kRbac[] = {"deploy/node-scale/base/role.yaml",
                                 "deploy/node-scale/base/clusterrole.yaml",
                                 "deploy/node-scale/kwok/clusterrole.yaml"};
constexpr int kNamespaces = 10;  // RealisticPodNamespace's

struct GeneratedPod {
  std::string ns;
  std::string json;
};

GeneratedPod MakePod(int i) {
  const std::string node = "sim-node-" + std::to_string(1 + i % FLAGS_nodes);
  if (FLAGS_tiny_pods) {
    return {"default", sim::PodJson("pod-" + std::to_string(i), "100m", node)};
  }
  return {sim::RealisticPodNamespace(i), sim::MakeRealisticPodJson(i, node)};
}

std::string NodeGroupsJson() {
  return "{\"nodeGroups\":[" + sim::GroupJson("pool", 0, 2000, "4", "16Gi") +
         "]}";
}

// The cluster propscaler runs against, and its kubeconfig there.
struct Cluster {
  std::unique_ptr<sim::FakeApiServer> simulated;
  std::unique_ptr<envtest::RealCluster> real;
  std::string kubeconfig;
};

Status StartSimulated(Cluster* cluster, e2e::TempDir* dir) {
  cluster->simulated = std::make_unique<sim::FakeApiServer>();
  sim::FakeApiServer& server = *cluster->simulated;
  sim::FakeApiServerOptions options;
  options.bearer_token = kToken;
  options.generate_nodes = FLAGS_nodes;
  options.generated_node_cores = 4;
  options.history_size = static_cast<size_t>(FLAGS_pods) + 20000;
  Status status = server.Start(options);
  if (status.ok()) {
    status = sim::PutNodeGroups(server.store(), kNamespace, kGroups,
                                {sim::GroupJson("pool", 0, 2000, "4", "16Gi")});
  }
  for (int i = 0; status.ok() && i < FLAGS_pods; ++i) {
    const GeneratedPod pod = MakePod(i);
    status =
        server.CreateObject("/api/v1/namespaces/" + pod.ns + "/pods", pod.json);
  }
  cluster->kubeconfig =
      dir->Write("kubeconfig", e2e::KubeconfigYaml(server.url(), kToken));
  return status;
}

// propscaler's service account under deploy/node-scale/kwok's RBAC.
Result<std::string> RealKubeconfig(const envtest::RealCluster& cluster,
                                   e2e::TempDir* dir) {
  Status status = envtest::CreateServiceAccount(cluster, kNamespace, kAccount);
  for (const char* manifest : kRbac) {
    if (!status.ok()) return status;
    Result<std::string> yaml =
        ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/" + manifest);
    if (!yaml.ok()) return yaml.status();
    status = envtest::ApplyRbacManifest(cluster, *yaml, kNamespace);
  }
  if (!status.ok()) return status;
  Result<std::string> token = envtest::ServiceAccountToken(
      cluster, kNamespace, kAccount, "", 24 * 3600);
  if (!token.ok()) return token.status();
  return dir->Write("kubeconfig", e2e::KubeconfigYaml(cluster.url(), *token,
                                                      cluster.ca_file()));
}

// The pods' service account ("shop" for realistic pods, "default" for tiny
// ones). It mounts no token: that needs a token Secret filled in by the
// token controller, which does not run here.
Status CreateAppServiceAccount(const envtest::RealCluster& cluster,
                               const std::string& ns, const std::string& name) {
  return envtest::AdminCall(
             cluster, "POST", "/api/v1/namespaces/" + ns + "/serviceaccounts",
             R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":)"
             R"({"name":")" +
                 name + R"("},"automountServiceAccountToken":false})")
      .status();
}

Status CreatePod(const envtest::RealCluster& cluster, const GeneratedPod& pod) {
  return envtest::AdminCall(cluster, "POST",
                            "/api/v1/namespaces/" + pod.ns +
                                "/pods?fieldManager=kube-controller-manager",
                            pod.json)
      .status();
}

// Nodes as their kubelets register them, pods as a controller creates them
// (bound by nodeName; the server keeps no status given at creation).
Status PopulateReal(const envtest::RealCluster& cluster) {
  const auto start = std::chrono::steady_clock::now();
  Status status = envtest::PutConfigMap(cluster, kNamespace, kGroups,
                                        "node-groups.json", NodeGroupsJson());
  if (status.ok() && FLAGS_tiny_pods) {
    status = CreateAppServiceAccount(cluster, "default", "default");
  }
  for (int i = 0; status.ok() && !FLAGS_tiny_pods && i < kNamespaces; ++i) {
    const std::string ns = "apps-" + std::to_string(i);
    status = envtest::CreateNamespace(cluster, ns);
    if (status.ok()) status = CreateAppServiceAccount(cluster, ns, "shop");
  }
  if (status.ok()) {
    status = ParallelFor(1, FLAGS_nodes, FLAGS_writer_threads, [&](int i) {
      return envtest::AdminCall(
                 cluster, "POST", "/api/v1/nodes?fieldManager=kubelet",
                 sim::MakeNodeJson(sim::GeneratedNodeShape("sim-node-", i, 4)))
          .status();
    });
  }
  if (status.ok()) {
    status = ParallelFor(0, FLAGS_pods - 1, FLAGS_writer_threads,
                         [&](int i) { return CreatePod(cluster, MakePod(i)); });
  }
  std::fprintf(
      stderr, "created %d nodes and %d pods on the real server in %.1fs\n",
      FLAGS_nodes, FLAGS_pods,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  return status;
}

Status StartReal(Cluster* cluster, e2e::TempDir* dir) {
  Result<std::unique_ptr<envtest::RealCluster>> real =
      envtest::RealCluster::Start(
          {.envtest_dir = FLAGS_envtest_dir,
           .unpack_dir = PROPSCALER_ENVTEST_UNPACK_DIR,
           .etcd_args = {"--quota-backend-bytes=8589934592"}});
  if (!real.ok()) return real.status();
  cluster->real = std::move(*real);
  if (Status status = PopulateReal(*cluster->real); !status.ok()) {
    return status;
  }
  Result<std::string> kubeconfig = RealKubeconfig(*cluster->real, dir);
  if (!kubeconfig.ok()) return kubeconfig.status();
  cluster->kubeconfig = *kubeconfig;
  return Status::Ok();
}

// The count of node-scale loops run so far, from propscaler's /metrics.
int64_t LoopsRun(int port) {
  constexpr char kLoops[] = "propscaler_node_scale_loop_duration_seconds_count";
  Result<std::map<std::string, int64_t>> values = ScrapeMetrics(port, {kLoops});
  return values.ok() ? (*values)[kLoops] : 0;
}

int Measure() {
  e2e::TempDir dir;
  Cluster cluster;
  Status status = FLAGS_server == "real" ? StartReal(&cluster, &dir)
                  : FLAGS_server == "simulated"
                      ? StartSimulated(&cluster, &dir)
                      : Status::Invalid("--server=" + FLAGS_server +
                                        ": want simulated or real");
  if (!status.ok()) {
    std::cerr << "starting the cluster: " << status.message() << "\n";
    return 1;
  }
  size_t pod_bytes = 0;
  for (int i = 0; i < FLAGS_pods; ++i) pod_bytes += MakePod(i).json.size();
  const std::string& kubeconfig = cluster.kubeconfig;
  const int port = e2e::FreePort();
  const auto start = std::chrono::steady_clock::now();
  e2e::Process propscaler(
      FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler,
      {"--mode=node-scale", "--kubeconfig=" + kubeconfig,
       std::string("--namespace=") + kNamespace, "--cloud-provider=kwok",
       std::string("--node-group-config=") + kGroups, "--scan-interval=2s",
       "--healthz-port=" + std::to_string(port), "--leader-elect=false"});
  const bool looped = e2e::WaitUntil(
      [&] { return LoopsRun(port) >= FLAGS_loops || !propscaler.Running(); },
      std::chrono::minutes(5));
  Result<ProcStats> stats = ReadProcStats(propscaler.pid());
  if (!looped || !stats.ok() || LoopsRun(port) < FLAGS_loops) {
    std::cerr << "propscaler did not run " << FLAGS_loops
              << " loops: " << propscaler.Report() << "\n";
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  auto mib = [](int64_t kib) { return static_cast<double>(kib) / 1024; };
  std::printf(
      "%s server: nodes=%d pods=%d (%s, %.1f KB of JSON each as generated) "
      "loops=%d in %.1fs: "
      "peak RSS %.1f MiB, RSS %.1f MiB (anon %.1f, files %.1f), "
      "%.0f bytes of anon RSS per pod\n",
      FLAGS_server.c_str(), FLAGS_nodes, FLAGS_pods,
      FLAGS_tiny_pods ? "tiny" : "realistic",
      static_cast<double>(pod_bytes) / FLAGS_pods / 1000, FLAGS_loops, seconds,
      mib(stats->peak_rss_kib), mib(stats->rss_kib), mib(stats->rss_anon_kib),
      mib(stats->rss_file_kib),
      static_cast<double>(stats->rss_anon_kib) * 1024 / FLAGS_pods);
  return 0;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return propscaler::bench::Measure();
}

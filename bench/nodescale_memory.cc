// propscaler_nodescale_memory: node-scale mode's memory at cluster scale.
// Starts an API server (the simulated one in process, or with --server=real
// kube-apiserver v1.20.2 and etcd from ../shared/envtest) with N generated
// nodes and P pods bound to them (realistic pods, apiserver/pod_generator.h,
// or tiny ones with --tiny_pods), runs the real propscaler binary in
// --mode=node-scale against it (on the real server under
// deploy/node-scale/kwok's RBAC), waits for `--loops` loops (each one after
// the pods and nodes were listed and watched), and prints its peak and
// current resident size, the time to its first loop, and the CPU a loop at
// rest takes (see bench/README.md). On the real server it also times the
// server's own sending of the two lists, and with --bursts the time from
// the last pod of a burst marked Unschedulable to the first and the last
// node its group got (with --provider=clusterapi: the first and the last
// raise of its MachineDeployment's replicas). A burst whose group does not
// reach the nodes its pods need, or a p50 past --burst_target_seconds, exits
// 1, as does a peak RSS, a first loop or a loop's CPU at rest over its
// target (checks/memory_targets.h: the README's shapes have them; the
// --*_target flags set or override them). --server_rest_seconds measures
// kube-apiserver's CPU while propscaler rests; --raw_out keeps every sample.
//
//   propscaler_nodescale_memory --nodes=1000 --pods=30000 [--server=real]
//   propscaler_nodescale_memory --nodes=5000 --pods=150000 --server=real
//       --scan_interval=10s --bursts=5
//   propscaler_nodescale_memory --nodes=1000 --pods=30000 --server=real
//       --provider=clusterapi --scan_interval=10s --bursts=5 --burst_pods=400
//       --burst_pod_cpu=500m --burst_pod_memory=512Mi
#include <gflags/gflags.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "apiserver/node_generator.h"
#include "apiserver/pod_generator.h"
#include "apiserver/store_objects.h"
#include "checks/memory_targets.h"
#include "common/files.h"
#include "common/quantity.h"
#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "envtest/real_objects.h"
#include "harness/metrics_scrape.h"
#include "harness/node_scale_identity.h"
#include "harness/parallel.h"
#include "harness/percentile.h"
#include "harness/proc_stats.h"
#include "harness/result_file.h"
#include "kube/model/node_scale_objects.h"
#include "kube/wire/proto_wire.h"
#include "nodescale/domain/node_marks.h"
#include "transport/http_client.h"

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
DEFINE_string(scan_interval, "2s", "propscaler's --scan-interval.");
DEFINE_int32(rest_loops, 3,
             "Loops at rest over which a loop's CPU is measured.");
DEFINE_int32(bursts, 0,
             "With --server=real: bursts of --burst_pods pending pods, each "
             "needing a node group of its own, run with the default batch "
             "window and then again with batching off (the scan interval "
             "only, as before batching).");
DEFINE_int32(burst_pods, 2000, "Pods of a burst.");
DEFINE_string(burst_pod_cpu, "100m", "The cpu request of a burst's pods.");
DEFINE_string(burst_pod_memory, "256Mi",
              "The memory request of a burst's pods.");
DEFINE_double(burst_target_seconds, 1.5,
              "The p50 from a burst's last Unschedulable mark to the last "
              "node (or replicas raise) it needs, with the default batch "
              "window, above which the run fails.");
DEFINE_double(peak_rss_target_mib, -1,
              "The peak RSS over the lists and first loops above which the "
              "run fails; -1: the shape's (checks/memory_targets.h), 0: "
              "none.");
DEFINE_double(first_loop_target_seconds, -1,
              "The time to the first loop above which the run fails; -1: "
              "the shape's, 0: none.");
DEFINE_double(rest_cpu_target_ms, -1,
              "The CPU of a loop at rest above which the run fails; -1: the "
              "shape's, 0: none.");
DEFINE_string(provider, "kwok",
              "kwok (Node objects from the node-groups ConfigMap) or "
              "clusterapi (the real server only: Cluster API's CRDs, a "
              "Machine and MachineDeployment for the nodes, one "
              "MachineDeployment per burst).");
DEFINE_int32(server_rest_seconds, 0,
             "With --server=real: kube-apiserver's CPU over this many "
             "seconds while propscaler rests (0: not measured).");
DEFINE_string(raw_out, "",
              "A file to append every sample to (tab-separated), besides "
              "the summary on stdout.");
DEFINE_int32(claim_percent, 0,
             "Realistic pods with a PersistentVolumeClaim, in percent (issue "
             "43: 10): each claim bound to its own PV, whose affinity every "
             "node meets, so that decisions stay those without claims and "
             "only the volume checks' cost is added.");
DEFINE_string(json_out, "",
              "Write the run's figures and verdict to this JSON file "
              "(bench/results/, read by bench/tables.py).");

namespace propscaler::bench {
namespace {

constexpr const char* kToken = kSimulatedToken;
constexpr const char* kNamespace = kNodeScaleNamespace;
constexpr const char* kGroups = kNodeGroupsConfigMap;

bool ClusterApi() { return FLAGS_provider == "clusterapi"; }

// Appends `line` to --raw_out, if given.
void Raw(const std::string& line) {
  if (FLAGS_raw_out.empty()) return;
  if (FILE* out = std::fopen(FLAGS_raw_out.c_str(), "a")) {
    std::fprintf(out, "%s\n", line.c_str());
    std::fclose(out);
  }
}
constexpr int kNamespaces = 10;  // RealisticPodNamespace's

struct GeneratedPod {
  std::string ns;
  std::string json;
};

bool HasClaim(int i) {
  return !FLAGS_tiny_pods && FLAGS_claim_percent > 0 &&
         i % 100 < FLAGS_claim_percent;
}
std::string ClaimName(int i) { return "data-" + std::to_string(i); }

GeneratedPod MakePod(int i) {
  const std::string node = "sim-node-" + std::to_string(1 + i % FLAGS_nodes);
  if (FLAGS_tiny_pods) {
    return {"default", sim::PodJson("pod-" + std::to_string(i), "100m", node)};
  }
  GeneratedPod pod{sim::RealisticPodNamespace(i),
                   sim::MakeRealisticPodJson(i, node)};
  if (HasClaim(i)) {
    const std::string volumes = "\"volumes\":[";
    pod.json.insert(pod.json.find(volumes) + volumes.size(),
                    R"({"name":"data","persistentVolumeClaim":{"claimName":")" +
                        ClaimName(i) + R"("}},)");
  }
  return pod;
}

// The claim of pod `i` and its PV, bound both ways: (path, body) pairs.
std::vector<std::pair<std::string, std::string>> ClaimObjects(int i) {
  const std::string ns = sim::RealisticPodNamespace(i);
  const std::string pv = ns + "-" + ClaimName(i);
  return {{"/api/v1/persistentvolumes",
           R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":)"
           R"({"name":")" +
               pv +
               R"("},"spec":{"capacity":{"storage":"10Gi"},)"
               R"("accessModes":["ReadWriteOnce"],"storageClassName":"disk",)"
               R"("csi":{"driver":"disk.example.com","volumeHandle":")" +
               pv + R"("},"claimRef":{"namespace":")" + ns + R"(","name":")" +
               ClaimName(i) +
               R"("},"nodeAffinity":{"required":{"nodeSelectorTerms":[)"
               R"({"matchExpressions":[{"key":"kubernetes.io/hostname",)"
               R"("operator":"Exists"}]}]}}}})"},
          {"/api/v1/namespaces/" + ns + "/persistentvolumeclaims",
           R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":)"
           R"({"name":")" +
               ClaimName(i) +
               R"(","annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
               R"("spec":{"accessModes":["ReadWriteOnce"],)"
               R"("storageClassName":"disk","volumeName":")" +
               pv + R"(","resources":{"requests":{"storage":"10Gi"}}}})"}};
}

// The pool of the bench's nodes, and one empty group per burst (two sets:
// batching on, then off), which only its burst's pods select.
constexpr char kBurstLabel[] = "bench.propscaler.io/burst";
std::string BurstGroup(int burst) { return "burst-" + std::to_string(burst); }
std::string NodeGroupsJson() {
  std::string groups = sim::GroupJson("pool", 0, 2000, "4", "16Gi");
  for (int i = 0; i < 2 * FLAGS_bursts; ++i) {
    // Its template carries the label its burst's pods select.
    std::string group = sim::GroupJson(BurstGroup(i), 0, 1000, "4", "16Gi");
    const std::string no_labels = "\"labels\":{}";
    group.replace(group.find(no_labels), no_labels.size(),
                  "\"labels\":{\"" + std::string(kBurstLabel) + "\":\"" +
                      BurstGroup(i) + "\"}");
    groups += ',';
    groups += group;
  }
  return "{\"nodeGroups\":[" + groups + "]}";
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
    if (!HasClaim(i)) continue;
    for (const auto& [path, body] : ClaimObjects(i)) {
      if (status.ok()) status = server.CreateObject(path, body);
    }
  }
  cluster->kubeconfig =
      dir->Write("kubeconfig", e2e::KubeconfigYaml(server.url(), kToken));
  return status;
}

// propscaler's service account under deploy/node-scale/kwok's RBAC.
Result<std::string> RealKubeconfig(const envtest::RealCluster& cluster,
                                   e2e::TempDir* dir) {
  return NodeScaleKubeconfig(cluster, kNamespace, FLAGS_provider, dir);
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

constexpr char kCapiPath[] =
    "/apis/cluster.x-k8s.io/v1beta1/namespaces/kube-system/";

// A MachineDeployment with Cluster Autoscaler's size and capacity
// annotations (4 cpu, 16Gi; `labels` for its nodes' template).
std::string MachineDeploymentJson(const std::string& name, int replicas,
                                  int max, const std::string& labels) {
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1",)"
         R"("kind":"MachineDeployment","metadata":{"name":")" +
         name +
         R"(","annotations":{)"
         R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":"0",)"
         R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":")" +
         std::to_string(max) +
         R"(","capacity.cluster-autoscaler.kubernetes.io/cpu":"4",)"
         R"("capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi",)"
         R"("capacity.cluster-autoscaler.kubernetes.io/labels":")" +
         labels + R"("}},"spec":{"clusterName":"bench","replicas":)" +
         std::to_string(replicas) + "}}";
}

// Cluster API as a management cluster would hold it, without its
// controllers: the CRDs, MachineDeployment "pool" with a Machine per node
// (the node names it in Cluster API's annotations), and an empty
// MachineDeployment per burst whose template carries the burst's label.
Status PopulateClusterApi(const envtest::RealCluster& cluster) {
  Result<std::string> crds = ReadFile(std::string(PROPSCALER_SOURCE_DIR) +
                                      "/tests/envtest/crds/cluster-api.yaml");
  if (!crds.ok()) return crds.status();
  Status status = envtest::CreateCustomResourceDefinitions(cluster, *crds);
  auto create = [&](const std::string& resource, const std::string& json) {
    return envtest::AdminCall(cluster, "POST", kCapiPath + resource, json)
        .status();
  };
  if (status.ok()) {
    status = create("machinedeployments",
                    MachineDeploymentJson("pool", FLAGS_nodes, 2000, ""));
  }
  for (int i = 0; status.ok() && i < 2 * FLAGS_bursts; ++i) {
    status = create(
        "machinedeployments",
        MachineDeploymentJson(BurstGroup(i), 0, 1000,
                              std::string(kBurstLabel) + "=" + BurstGroup(i)));
  }
  if (!status.ok()) return status;
  return ParallelFor(1, FLAGS_nodes, FLAGS_writer_threads, [&](int i) {
    const std::string node = "sim-node-" + std::to_string(i);
    const std::string machine = "m-" + std::to_string(i);
    Status created =
        create("machines",
               R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
               R"("metadata":{"name":")" +
                   machine +
                   R"(","labels":{"cluster.x-k8s.io/deployment-name":"pool"}},)"
                   R"("spec":{"clusterName":"bench","providerID":"kwok://)" +
                   node + R"("}})");
    if (!created.ok()) return created;
    return envtest::AdminCall(
               cluster, "PATCH", "/api/v1/nodes/" + node,
               R"({"metadata":{"annotations":{"cluster.x-k8s.io/machine":")" +
                   machine +
                   R"(","cluster.x-k8s.io/cluster-namespace":"kube-system"}}})",
               "application/merge-patch+json")
        .status();
  });
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
  // The API server taints every new Node not-ready; the node lifecycle
  // controller, which envtest does not run, lifts it once the node is
  // Ready. Lifted here, as a real cluster's nodes have it lifted.
  if (status.ok()) {
    status = ParallelFor(1, FLAGS_nodes, FLAGS_writer_threads, [&](int i) {
      return envtest::ClearNotReadyTaint(cluster,
                                         "sim-node-" + std::to_string(i));
    });
  }
  if (status.ok() && ClusterApi()) status = PopulateClusterApi(cluster);
  if (status.ok()) {
    status = ParallelFor(0, FLAGS_pods - 1, FLAGS_writer_threads, [&](int i) {
      if (HasClaim(i)) {
        for (const auto& [path, body] : ClaimObjects(i)) {
          Status created =
              envtest::AdminCall(cluster, "POST", path, body).status();
          if (!created.ok()) return created;
        }
      }
      return CreatePod(cluster, MakePod(i));
    });
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

// The count of node-scale loops run so far (full and scale-up), from
// propscaler's /metrics.
int64_t LoopsRun(int port) {
  const std::vector<std::string> kinds = {
      R"(propscaler_node_scale_loop_duration_seconds_count{kind="full"})",
      R"(propscaler_node_scale_loop_duration_seconds_count{kind="scale-up"})"};
  Result<std::map<std::string, double>> values = ScrapeMetrics(port, kinds);
  if (!values.ok()) return 0;
  int64_t loops = 0;
  for (const auto& [kind, count] : *values)
    loops += static_cast<int64_t>(count);
  return loops;
}

// The full loops run so far and their total time, by their histogram.
struct LoopTime {
  double count = 0;
  double seconds = 0;
};
LoopTime FullLoopTime(int port) {
  const std::string name = "propscaler_node_scale_loop_duration_seconds";
  const std::string full = R"({kind="full"})";
  Result<std::map<std::string, double>> values =
      ScrapeMetrics(port, {name + "_count" + full, name + "_sum" + full});
  if (!values.ok()) return {};
  return {(*values)[name + "_count" + full], (*values)[name + "_sum" + full]};
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// The server's own time to send both whole lists from its watch cache
// (resourceVersion=0, protobuf, at once, as propscaler asks for them), read
// to the end and dropped: the median of three.
Result<double> ServerListSeconds(const envtest::RealCluster& cluster) {
  auto list = [&](const char* path) {
    kube::HttpRequest request;
    request.path = path;
    request.accept =
        std::string(kube::kKubeProtobufType) + ", application/json";
    request.timeout_seconds = 600;
    Result<kube::HttpResponse> response = cluster.admin_http().Do(request);
    if (!response.ok()) return response.status();
    if (response->status != 200) {
      return Status::Internal(std::string(path) + ": HTTP " +
                              std::to_string(response->status));
    }
    return Status::Ok();
  };
  std::vector<double> samples;
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto pods =
        std::async(std::launch::async, list, "/api/v1/pods?resourceVersion=0");
    Status nodes = list("/api/v1/nodes?resourceVersion=0");
    Status pods_status = pods.get();
    if (!nodes.ok()) return nodes;
    if (!pods_status.ok()) return pods_status;
    samples.push_back(SecondsSince(start));
  }
  return Percentile(samples, 0.5);
}

// Pod `i` of burst `burst`: its namespace and name.
std::pair<std::string, std::string> BurstPod(int burst, int i) {
  return {"apps-" + std::to_string(i % kNamespaces),
          BurstGroup(burst) + "-" + std::to_string(i)};
}

// A pod of burst `burst` as its controller creates it; the scheduler has
// not tried it yet, so node-scale mode does not count it.
Status CreateBurstPod(const envtest::RealCluster& cluster, int burst, int i) {
  envtest::PodExtras extras;
  extras.spec = "\"serviceAccountName\":\"shop\",\"nodeSelector\":{\"" +
                std::string(kBurstLabel) + "\":\"" + BurstGroup(burst) + "\"}";
  extras.memory = FLAGS_burst_pod_memory;
  const auto [ns, name] = BurstPod(burst, i);
  return envtest::CreateUntriedPod(cluster, ns, name, FLAGS_burst_pod_cpu,
                                   extras);
}

// How many nodes group `burst` has, from the watch cache (Cluster API: its
// MachineDeployment's replicas, as no controller makes the machines); -1
// when the server does not answer.
int BurstGroupNodes(const envtest::RealCluster& cluster, int burst) {
  if (ClusterApi()) {
    Result<std::string> json = envtest::AdminCall(
        cluster, "GET",
        kCapiPath + std::string("machinedeployments/") + BurstGroup(burst));
    if (!json.ok()) return -1;
    rapidjson::Document doc;
    doc.Parse(json->c_str());
    return doc.HasParseError() ? -1 : doc["spec"]["replicas"].GetInt();
  }
  Result<rapidjson::Document> list = envtest::AdminList(
      cluster, "/api/v1/nodes?resourceVersion=0&labelSelector=" +
                   std::string(nodescale::kNodeGroupLabel) + "%3D" +
                   BurstGroup(burst));
  return list.ok() ? static_cast<int>((*list)["items"].Size()) : -1;
}

// The 4-cpu, 16Gi, 110-pod nodes a burst's pods need, by whichever of
// the three binds.
Result<int> NodesNeeded() {
  Result<int64_t> cpu = ParseMilliQuantity(FLAGS_burst_pod_cpu);
  Result<int64_t> memory = ParseQuantity(FLAGS_burst_pod_memory);
  if (!cpu.ok() || !memory.ok() || *cpu <= 0 || *memory <= 0) {
    return Status::Invalid("--burst_pod_cpu=" + FLAGS_burst_pod_cpu +
                           " --burst_pod_memory=" + FLAGS_burst_pod_memory +
                           ": want positive quantities");
  }
  const int64_t per_node = std::min<int64_t>(
      {4000 / *cpu, (int64_t{16} << 30) / *memory, int64_t{110}});
  if (per_node == 0) {
    return Status::Invalid("a burst pod fits no 4-cpu, 16Gi node");
  }
  return static_cast<int>((FLAGS_burst_pods + per_node - 1) / per_node);
}

struct BurstTimes {
  std::vector<double> first_node;  // seconds from the last mark
  std::vector<double> all_nodes;   // to the last node the burst got
  std::vector<double> marking;     // seconds from first to last mark
};

// A burst's group stops growing once every pod has a node: no new node for
// longer than the batch's maximum window and a loop.
constexpr auto kSettled = std::chrono::seconds(15);

// Waits until group `burst` has a node and then until it stops growing;
// adds both times, counted from `last_mark`, to `times`. A group that stops
// short of (or beyond) the `needed` nodes is an error.
Status WaitForBurstNodes(const envtest::RealCluster& cluster, int burst,
                         int needed,
                         std::chrono::steady_clock::time_point last_mark,
                         BurstTimes* times) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = last_mark + std::chrono::seconds(180);
  int nodes = 0;
  Clock::time_point grown = last_mark;
  while (Clock::now() < deadline) {
    const int now_nodes = BurstGroupNodes(cluster, burst);
    if (now_nodes > nodes) {
      if (nodes == 0) {
        times->first_node.push_back(SecondsSince(last_mark));
      }
      nodes = now_nodes;
      grown = Clock::now();
    } else if (nodes > 0 && Clock::now() - grown > kSettled) {
      if (nodes != needed) {
        return Status::Internal("group " + BurstGroup(burst) + " settled at " +
                                std::to_string(nodes) + " nodes; its " +
                                std::to_string(FLAGS_burst_pods) +
                                " pods need " + std::to_string(needed));
      }
      times->all_nodes.push_back(
          std::chrono::duration<double>(grown - last_mark).count());
      return Status::Ok();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return Status::Internal("group " + BurstGroup(burst) + " had " +
                          std::to_string(nodes) +
                          " nodes and was still growing 180 s after its "
                          "burst's last mark");
}

// Bursts `first`..`first + count - 1`: each creates its pods, then marks
// them Unschedulable with the writer threads, as fast as the server takes
// it (a scheduler tries a burst's pods within moments of each other), then
// waits for its group's first node and its last. Only the marks are timed:
// creating and marking each pod in turn took longer than the batch's
// maximum window.
Result<BurstTimes> RunBursts(const envtest::RealCluster& cluster, int first,
                             int count) {
  BurstTimes times;
  Result<int> needed = NodesNeeded();
  if (!needed.ok()) return needed.status();
  for (int burst = first; burst < first + count; ++burst) {
    Status status =
        ParallelFor(0, FLAGS_burst_pods - 1, FLAGS_writer_threads,
                    [&](int i) { return CreateBurstPod(cluster, burst, i); });
    if (!status.ok()) return status;
    const auto start = std::chrono::steady_clock::now();
    status =
        ParallelFor(0, FLAGS_burst_pods - 1, FLAGS_writer_threads, [&](int i) {
          const auto [ns, name] = BurstPod(burst, i);
          return envtest::MarkUnschedulable(cluster, ns, name);
        });
    if (!status.ok()) return status;
    const auto last_mark = std::chrono::steady_clock::now();
    status = WaitForBurstNodes(cluster, burst, *needed, last_mark, &times);
    if (!status.ok()) return status;
    times.marking.push_back(
        std::chrono::duration<double>(last_mark - start).count());
    std::fprintf(stderr,
                 "burst %s: marked in %.1fs, first node after %.2fs, last "
                 "after %.2fs (%d nodes)\n",
                 BurstGroup(burst).c_str(), times.marking.back(),
                 times.first_node.back(), times.all_nodes.back(),
                 BurstGroupNodes(cluster, burst));
    char line[256];
    std::snprintf(line, sizeof(line), "burst\t%s\t%s\t%.3f\t%.3f\t%.3f\t%d",
                  FLAGS_provider.c_str(), BurstGroup(burst).c_str(),
                  times.marking.back(), times.first_node.back(),
                  times.all_nodes.back(), *needed);
    Raw(line);
  }
  return times;
}

std::unique_ptr<e2e::Process> StartPropscaler(
    const std::string& kubeconfig, int port,
    const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--mode=node-scale",
                                   "--kubeconfig=" + kubeconfig,
                                   std::string("--namespace=") + kNamespace,
                                   "--cloud-provider=" + FLAGS_provider,
                                   "--scan-interval=" + FLAGS_scan_interval,
                                   "--healthz-port=" + std::to_string(port),
                                   "--leader-elect=false"};
  if (!ClusterApi()) {
    args.push_back(std::string("--node-group-config=") + kGroups);
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return std::make_unique<e2e::Process>(
      FLAGS_propscaler.empty() ? e2e::PropscalerBinary() : FLAGS_propscaler,
      args);
}

// Where a burst's time went, from propscaler's own histograms: its
// scale-up loops (reading the cluster, planning, the provider's calls) and
// each pod's wait from its Unschedulable condition to the provider call.
void PrintBurstLoops(int port) {
  const std::string loop = "propscaler_node_scale_loop_duration_seconds";
  const std::string wait = "propscaler_pod_unschedulable_to_scale_up_seconds";
  const std::string scale_up = R"({kind="scale-up"})";
  Result<std::map<std::string, double>> values =
      ScrapeMetrics(port, {loop + "_sum" + scale_up, loop + "_count" + scale_up,
                           wait + "_sum", wait + "_count"});
  if (!values.ok()) return;
  auto mean = [&](const std::string& sum, const std::string& count) {
    const double n = (*values)[count];
    return n == 0 ? 0.0 : (*values)[sum] / n;
  };
  std::fprintf(stderr,
               "scale-up loops: %.0f, mean %.3fs; pods from Unschedulable to "
               "the provider call: %.0f, mean %.2fs\n",
               (*values)[loop + "_count" + scale_up],
               mean(loop + "_sum" + scale_up, loop + "_count" + scale_up),
               (*values)[wait + "_count"],
               mean(wait + "_sum", wait + "_count"));
}

// The bursts with the default batch window, then with batching off on a
// fresh propscaler; prints the medians.
int MeasureBursts(const Cluster& cluster, std::unique_ptr<e2e::Process> first,
                  int port, ResultFile* result,
                  std::vector<std::string>* failures) {
  Result<BurstTimes> batched = RunBursts(*cluster.real, 0, FLAGS_bursts);
  PrintBurstLoops(port);
  // The high-water mark over the whole run, the bursts' scale-ups
  // included (the peak printed before is the lists' and first loops').
  Result<ProcStats> after_bursts = ReadProcStats(first->pid());
  first.reset();
  if (!batched.ok()) {
    failures->push_back("bursts: " + batched.status().message());
    std::cerr << failures->back() << "\n";
    return 1;
  }
  if (!after_bursts.ok()) {
    std::cerr << "reading propscaler's memory after the bursts: "
              << after_bursts.status().message() << "\n";
    return 1;
  }
  std::printf(
      "peak RSS over the whole run, bursts included: %.1f MiB; RSS after "
      "them %.1f MiB (anon %.1f)\n",
      static_cast<double>(after_bursts->peak_rss_kib) / 1024,
      static_cast<double>(after_bursts->rss_kib) / 1024,
      static_cast<double>(after_bursts->rss_anon_kib) / 1024);
  result->Add("peak_rss_whole_run_kib", after_bursts->peak_rss_kib);
  Raw("peak_rss_whole_run_kib\t" + std::to_string(after_bursts->peak_rss_kib) +
      "\t" + std::to_string(after_bursts->rss_kib) + "\t" +
      std::to_string(after_bursts->rss_anon_kib));
  auto unbatched_process =
      StartPropscaler(cluster.kubeconfig, port,
                      {"--batch-idle-duration=1h", "--batch-max-duration=1h"});
  if (!e2e::WaitUntil([&] { return LoopsRun(port) >= 1; },
                      std::chrono::minutes(5))) {
    std::cerr << "propscaler (batching off) did not loop: "
              << unbatched_process->Report() << "\n";
    return 1;
  }
  Result<BurstTimes> unbatched =
      RunBursts(*cluster.real, FLAGS_bursts, FLAGS_bursts);
  if (!unbatched.ok()) {
    failures->push_back("bursts, batching off: " +
                        unbatched.status().message());
    std::cerr << failures->back() << "\n";
    return 1;
  }
  std::printf(
      "bursts of %d pods (%d each), from the last pod marked Unschedulable "
      "to its group's first node / last node: p50 %.2fs / %.2fs (max %.2fs "
      "/ %.2fs) with the default batch window; %.2fs / %.2fs (max %.2fs / "
      "%.2fs) with batching off (--scan-interval=%s); marking took p50 "
      "%.1fs\n",
      FLAGS_burst_pods, FLAGS_bursts, Percentile(batched->first_node, 0.5),
      Percentile(batched->all_nodes, 0.5), Percentile(batched->first_node, 1.0),
      Percentile(batched->all_nodes, 1.0),
      Percentile(unbatched->first_node, 0.5),
      Percentile(unbatched->all_nodes, 0.5),
      Percentile(unbatched->first_node, 1.0),
      Percentile(unbatched->all_nodes, 1.0), FLAGS_scan_interval.c_str(),
      Percentile(batched->marking, 0.5));
  for (const auto& [key, times] :
       {std::pair<const char*, const BurstTimes*>{"batched", &*batched},
        {"unbatched", &*unbatched}}) {
    const std::string prefix = std::string("burst_") + key + "_";
    result->Add(prefix + "first_node_p50_s", Percentile(times->first_node, .5));
    result->Add(prefix + "last_node_p50_s", Percentile(times->all_nodes, .5));
    result->Add(prefix + "first_node_max_s", Percentile(times->first_node, 1));
    result->Add(prefix + "last_node_max_s", Percentile(times->all_nodes, 1));
  }
  result->Add("bursts", FLAGS_bursts);
  result->Add("burst_pods", FLAGS_burst_pods);
  result->Add("burst_target_s", FLAGS_burst_target_seconds);
  const double p50 = Percentile(batched->all_nodes, 0.5);
  if (p50 > FLAGS_burst_target_seconds) {
    char failure[160];
    std::snprintf(failure, sizeof(failure),
                  "the p50 to the last node, %.2fs, is over the target of "
                  "%.2fs (--burst_target_seconds)",
                  p50, FLAGS_burst_target_seconds);
    failures->push_back(failure);
    std::printf("FAILED: %s\n", failure);
    return 1;
  }
  return 0;
}

// A correctness condition of the figures: propscaler resolved every
// generated claim against its PV (a run that read no claims, or no PVs,
// would be cheaper for the wrong reason). Empty when it holds.
std::string ClaimsNotRead(int port) {
  int64_t want = 0;
  for (int i = 0; i < FLAGS_pods; ++i) want += HasClaim(i) ? 1 : 0;
  const std::string somewhere =
      R"(propscaler_pods_with_claims{fit="somewhere"})";
  const std::string nowhere = R"(propscaler_pods_with_claims{fit="nowhere"})";
  Result<std::map<std::string, double>> values =
      ScrapeMetrics(port, {somewhere, nowhere});
  if (!values.ok())
    return "reading the claims gauge: " + values.status().message();
  auto value = [&](const std::string& name) {
    auto found = values->find(name);
    return found == values->end() ? int64_t{0}
                                  : static_cast<int64_t>(found->second);
  };
  if (value(somewhere) == want && value(nowhere) == 0) return "";
  return "propscaler resolved " + std::to_string(value(somewhere)) +
         " pods' claims to a node and " + std::to_string(value(nowhere)) +
         " to none; the run made " + std::to_string(want) +
         ", each bound to a PV every node meets";
}

// The requests kube-apiserver has served, by verb ("LIST", "WATCH", ...),
// from its apiserver_request_total counters.
Result<std::map<std::string, double>> ServedRequests(
    const envtest::RealCluster& cluster) {
  kube::HttpRequest request;
  request.path = "/metrics";
  request.accept = "text/plain";
  Result<kube::HttpResponse> response = cluster.admin_http().Do(request);
  if (!response.ok()) return response.status();
  std::map<std::string, double> by_verb;
  std::istringstream lines(response->body);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("apiserver_request_total{")) continue;
    const size_t verb = line.find("verb=\"");
    const size_t space = line.rfind(' ');
    if (verb == std::string::npos || space == std::string::npos) continue;
    const size_t end = line.find('"', verb + 6);
    by_verb[line.substr(verb + 6, end - verb - 6)] +=
        std::strtod(line.c_str() + space + 1, nullptr);
  }
  return by_verb;
}

// What kube-apiserver spent over --server_rest_seconds: CPU seconds a
// minute, and the requests it served a minute by verb.
struct ServerAtRest {
  double cpu_per_minute = 0;
  std::map<std::string, double> requests_per_minute;
};
Result<ServerAtRest> ServerCpuAtRest(const envtest::RealCluster& cluster) {
  Result<std::map<std::string, double>> served = ServedRequests(cluster);
  if (!served.ok()) return served.status();
  Result<ProcStats> before = ReadProcStats(cluster.apiserver_pid());
  if (!before.ok()) return before.status();
  std::this_thread::sleep_for(std::chrono::seconds(FLAGS_server_rest_seconds));
  Result<ProcStats> after = ReadProcStats(cluster.apiserver_pid());
  if (!after.ok()) return after.status();
  Result<std::map<std::string, double>> served_after = ServedRequests(cluster);
  if (!served_after.ok()) return served_after.status();
  ServerAtRest rest;
  const double minutes = FLAGS_server_rest_seconds / 60.0;
  rest.cpu_per_minute = (after->cpu_seconds - before->cpu_seconds) / minutes;
  for (const auto& [verb, count] : *served_after) {
    // The two /metrics reads themselves are not the rest's.
    const double own = verb == "GET" ? 1 : 0;
    rest.requests_per_minute[verb] = (count - (*served)[verb] - own) / minutes;
  }
  return rest;
}

std::string RequestsText(const ServerAtRest& rest) {
  std::string text;
  for (const auto& [verb, per_minute] : rest.requests_per_minute) {
    if (per_minute <= 0) continue;
    char item[64];
    std::snprintf(item, sizeof(item), "%s%s %.1f", text.empty() ? "" : ", ",
                  verb.c_str(), per_minute);
    text += item;
  }
  return text.empty() ? "none" : text;
}

// The shape's targets, each flag set (not -1) in place of its own.
MemoryTargets Targets() {
  MemoryTargets targets = DefaultMemoryTargets(
      {FLAGS_server, FLAGS_nodes, FLAGS_pods, FLAGS_claim_percent,
       FLAGS_tiny_pods, FLAGS_provider});
  auto given = [](double flag, double* target) {
    if (flag >= 0) *target = flag;
  };
  given(FLAGS_peak_rss_target_mib, &targets.peak_rss_mib);
  given(FLAGS_first_loop_target_seconds, &targets.first_loop_s);
  given(FLAGS_rest_cpu_target_ms, &targets.rest_cpu_ms);
  if (targets.source.empty()) targets.source = "--*_target flags";
  return targets;
}

int Measure(ResultFile* result, std::vector<std::string>* failures) {
  e2e::TempDir dir;
  Cluster cluster;
  if (ClusterApi() && FLAGS_server != "real") {
    std::cerr << "--provider=clusterapi needs --server=real\n";
    return 1;
  }
  Status status = FLAGS_server == "real" ? StartReal(&cluster, &dir)
                  : FLAGS_server == "simulated"
                      ? StartSimulated(&cluster, &dir)
                      : Status::Invalid("--server=" + FLAGS_server +
                                        ": want simulated or real");
  if (!status.ok()) {
    std::cerr << "starting the cluster: " << status.message() << "\n";
    return 1;
  }
  double server_list_seconds = 0;
  if (cluster.real) {
    Result<double> listed = ServerListSeconds(*cluster.real);
    if (!listed.ok()) {
      std::cerr << "timing the server's lists: " << listed.status().message()
                << "\n";
      return 1;
    }
    server_list_seconds = *listed;
  }
  // The server's CPU before propscaler starts: what it spends on its own.
  ServerAtRest server_alone;
  if (FLAGS_server_rest_seconds > 0 && cluster.real) {
    Result<ServerAtRest> alone = ServerCpuAtRest(*cluster.real);
    if (!alone.ok()) {
      std::cerr << "kube-apiserver's CPU: " << alone.status().message() << "\n";
      return 1;
    }
    server_alone = *alone;
    Raw("server_alone\t" + std::to_string(server_alone.cpu_per_minute) + "\t" +
        RequestsText(server_alone));
  }
  size_t pod_bytes = 0;
  for (int i = 0; i < FLAGS_pods; ++i) pod_bytes += MakePod(i).json.size();
  const int port = e2e::FreePort();
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<e2e::Process> propscaler =
      StartPropscaler(cluster.kubeconfig, port, {});
  const bool first_loop = e2e::WaitUntil(
      [&] { return LoopsRun(port) >= 1 || !propscaler->Running(); },
      std::chrono::minutes(15));
  const double first_loop_seconds = SecondsSince(start);
  const bool looped =
      first_loop && e2e::WaitUntil(
                        [&] {
                          return LoopsRun(port) >= FLAGS_loops ||
                                 !propscaler->Running();
                        },
                        std::chrono::minutes(15));
  Result<ProcStats> stats = ReadProcStats(propscaler->pid());
  if (!looped || !stats.ok() || LoopsRun(port) < FLAGS_loops) {
    std::cerr << "propscaler did not run " << FLAGS_loops
              << " loops: " << propscaler->Report() << "\n";
    return 1;
  }
  const double seconds = SecondsSince(start);
  // A loop at rest: the CPU of --rest_loops loops after those, and the
  // loops' own time from their histogram.
  const int64_t rest_from = LoopsRun(port);
  const LoopTime rest_start = FullLoopTime(port);
  // Polled every 5 s: each scrape of /metrics costs propscaler CPU too.
  bool rested = false;
  for (int waited = 0; !rested && waited < 300; waited += 5) {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    rested = LoopsRun(port) >= rest_from + FLAGS_rest_loops;
  }
  const LoopTime rest_end = FullLoopTime(port);
  Result<ProcStats> rest = ReadProcStats(propscaler->pid());
  if (!rested || !rest.ok()) {
    std::cerr << "propscaler did not run " << FLAGS_rest_loops
              << " more loops: " << propscaler->Report() << "\n";
    return 1;
  }
  const double rest_cpu_ms = (rest->cpu_seconds - stats->cpu_seconds) * 1000 /
                             (LoopsRun(port) - rest_from);
  auto mib = [](int64_t kib) { return static_cast<double>(kib) / 1024; };
  const MemoryTargets targets = Targets();
  result->Add("peak_rss_target_mib", targets.peak_rss_mib);
  result->Add("first_loop_target_s", targets.first_loop_s);
  result->Add("rest_cpu_target_ms", targets.rest_cpu_ms);
  for (const std::string& miss : MemoryTargetFailures(
           {mib(stats->peak_rss_kib), first_loop_seconds, rest_cpu_ms},
           targets)) {
    failures->push_back(miss);
    std::printf("FAILED: %s\n", miss.c_str());
  }
  if (std::string wrong = ClaimsNotRead(port); !wrong.empty()) {
    failures->push_back(wrong);
    std::printf("FAILED: %s\n", wrong.c_str());
    return 1;
  }
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
  result->Add("server", FLAGS_server);
  result->Add("provider", FLAGS_provider);
  result->Add("nodes", FLAGS_nodes);
  result->Add("pods", FLAGS_pods);
  result->Add("claim_percent", FLAGS_claim_percent);
  result->Add("pod_kind", FLAGS_tiny_pods ? "tiny" : "realistic");
  result->Add("loops", FLAGS_loops);
  result->Add("first_loops_s", seconds);
  result->Add("first_loop_s", first_loop_seconds);
  if (cluster.real) result->Add("server_lists_s", server_list_seconds);
  result->Add("peak_rss_first_loops_kib", stats->peak_rss_kib);
  result->Add("rss_kib", stats->rss_kib);
  result->Add("rss_anon_kib", stats->rss_anon_kib);
  result->Add("rss_file_kib", stats->rss_file_kib);
  result->Add("rest_cpu_ms_per_loop", rest_cpu_ms);
  Raw("peak_rss_first_loops_kib\t" + std::to_string(stats->peak_rss_kib) +
      "\t" + std::to_string(stats->rss_kib) + "\t" +
      std::to_string(stats->rss_anon_kib));
  std::printf("first loop done %.2fs after start", first_loop_seconds);
  if (cluster.real) {
    std::printf(" (the server sends both lists in %.2fs: %.2fx)",
                server_list_seconds, first_loop_seconds / server_list_seconds);
  }
  const double loops = rest_end.count - rest_start.count;
  std::printf(
      "; a loop at rest: %.0f ms of CPU (over %d loops), %.0f ms by its "
      "histogram (%.0f full loops)\n",
      rest_cpu_ms, FLAGS_rest_loops,
      loops > 0 ? (rest_end.seconds - rest_start.seconds) * 1000 / loops : 0.0,
      loops);
  std::fflush(stdout);
  if (FLAGS_server_rest_seconds > 0 && cluster.real) {
    Result<ServerAtRest> server = ServerCpuAtRest(*cluster.real);
    if (!server.ok()) {
      std::cerr << "kube-apiserver's CPU: " << server.status().message()
                << "\n";
      return 1;
    }
    std::printf(
        "kube-apiserver while propscaler rests (over %d s, "
        "--scan-interval=%s, --provider=%s): %.2f s of CPU a minute, "
        "requests a minute: %s; before propscaler started: %.2f s, "
        "requests: %s\n",
        FLAGS_server_rest_seconds, FLAGS_scan_interval.c_str(),
        FLAGS_provider.c_str(), server->cpu_per_minute,
        RequestsText(*server).c_str(), server_alone.cpu_per_minute,
        RequestsText(server_alone).c_str());
    result->Add("server_cpu_s_per_minute", server->cpu_per_minute);
    result->Add("server_alone_cpu_s_per_minute", server_alone.cpu_per_minute);
    result->Add("server_requests_per_minute", RequestsText(*server));
    Raw("server_with_propscaler\t" + FLAGS_provider + "\t" +
        FLAGS_scan_interval + "\t" + std::to_string(server->cpu_per_minute) +
        "\t" + RequestsText(*server));
    std::fflush(stdout);
  }
  if (FLAGS_bursts > 0 && cluster.real) {
    return MeasureBursts(cluster, std::move(propscaler), port, result,
                         failures);
  }
  return 0;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  // As typed, for the result file: the flag parser takes the flags out.
  propscaler::bench::ResultFile result(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  result.SetBinary(FLAGS_propscaler.empty()
                       ? std::string(propscaler::e2e::PropscalerBinary())
                       : FLAGS_propscaler);
  std::vector<std::string> failures;
  const int code = propscaler::bench::Measure(&result, &failures);
  if (code != 0 && failures.empty()) {
    failures.push_back("exited " + std::to_string(code) +
                       " before its figures (its error is on stderr)");
  }
  if (propscaler::Status s = result.Write(FLAGS_json_out, failures); !s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  return code != 0 ? code : failures.empty() ? 0 : 1;
}

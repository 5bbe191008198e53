// propscaler_runonce: Cluster Autoscaler's two RunOnce benchmark shapes
// (kubernetes/autoscaler, cluster-autoscaler/core/bench/
// benchmark_runonce_test.go) run as one iteration of the real propscaler
// binary (`--mode=node-scale --once`, kwok provider) against the simulated
// API server in process:
//
// - scale-up: one node group of 10-cpu nodes and 50 pending pods for each
//   node wanted, each asking for a fiftieth of a node (200m): the group must
//   get exactly --nodes new nodes;
// - scale-down: --nodes nodes of the group at 40% (40 pods of 99m on
//   9,920m), every one unneeded at once (`--scale-down-unneeded-time=0s`,
//   parallelism as large as the group): exactly 60% must be marked
//   ToBeDeletedByClusterAutoscaler.
//
// It prints the process's wall time from start to exit (its lists
// included: CA's figure times RunOnce alone, on a warm informer cache), its
// peak resident size, and the requests it sent, by verb and path; with
// --json_out it writes them with the command and the machine. It exits 1
// when the count is wrong or propscaler fails.
//
//   propscaler_runonce --shape=scale-up --nodes=1000
//   propscaler_runonce --shape=scale-down --nodes=2000
#include <gflags/gflags.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "apiserver/fake_apiserver.h"
#include "apiserver/node_generator.h"
#include "apiserver/store_objects.h"
#include "common/files.h"
#include "e2e/process.h"
#include "harness/proc_stats.h"

DEFINE_string(shape, "scale-up", "scale-up or scale-down.");
DEFINE_int32(nodes, 1000,
             "scale-up: the nodes wanted (50 pods each); scale-down: the "
             "nodes at 40%, of which 60% must go.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(json_out, "", "Write the figures to this JSON file as well.");

namespace propscaler::bench {
namespace {

constexpr char kToken[] = "bench-token";
constexpr char kNamespace[] = "kube-system";
constexpr char kGroups[] = "propscaler-node-groups";
constexpr char kGroup[] = "ng1";
constexpr char kDeletionTaint[] = "ToBeDeletedByClusterAutoscaler";

bool ScaleUp() { return FLAGS_shape == "scale-up"; }

// The cluster before the iteration: the group, and its pods (pending for a
// scale-up; bound, at 40% of each node, for a scale-down).
Status SetUpCluster(sim::FakeApiServer* server) {
  Status groups =
      sim::PutNodeGroups(server->store(), kNamespace, kGroups,
                         {sim::GroupJson(kGroup, 0, 100000, "10", "16Gi")});
  if (!groups.ok()) return groups;
  if (ScaleUp()) {
    for (int i = 0; i < FLAGS_nodes * 50; ++i) {
      Status s = server->CreateObject(
          "/api/v1/namespaces/default/pods",
          sim::PodJson("pod-" + std::to_string(i), "200m", ""));
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }
  for (int n = 1; n <= FLAGS_nodes; ++n) {
    sim::NodeShape shape{
        .name = "ng1-node-" + std::to_string(n),
        .index = n,
        .cpu_cores = 10,
        .memory_gib = 16,
        .instance_type = "m5.2xlarge",
        .extra_labels = {{"propscaler.io/node-group", kGroup}}};
    if (Status s = server->CreateNode(sim::MakeNodeJson(shape)); !s.ok()) {
      return s;
    }
  }
  for (int i = 0; i < FLAGS_nodes * 40; ++i) {
    Status s = server->CreateObject(
        "/api/v1/namespaces/default/pods",
        sim::PodJson("pod-" + std::to_string(i), "99m",
                     "ng1-node-" + std::to_string(1 + i % FLAGS_nodes),
                     "100Mi"));
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

std::vector<std::string> PropscalerArgs(const std::string& kubeconfig) {
  std::vector<std::string> args = {
      "--mode=node-scale",
      "--kubeconfig=" + kubeconfig,
      std::string("--namespace=") + kNamespace,
      "--cloud-provider=kwok",
      std::string("--node-group-config=") + kGroups,
      "--once",
      "--leader-elect=false",
      "--healthz-port=0",
      "--max-nodes-per-scaleup=100000"};
  if (!ScaleUp()) {
    const std::string all = std::to_string(FLAGS_nodes);
    for (const std::string& arg :
         {std::string("--scale-down-unneeded-time=0s"),
          std::string("--scale-down-delay-after-add=0s"),
          "--max-scale-down-parallelism=" + all,
          "--max-drain-parallelism=" + all}) {
      args.push_back(arg);
    }
  }
  return args;
}

// What the iteration did to the group: nodes made, or nodes marked (or
// already gone).
int64_t Outcome(const sim::FakeApiServer& server) {
  int64_t count = 0;
  const std::vector<std::string> names = server.NodeNames();
  if (ScaleUp()) {
    for (const std::string& name : names) count += name.starts_with(kGroup);
    return count;
  }
  for (const std::string& name : names) {
    std::optional<std::string> node = server.GetObject("/api/v1/nodes/" + name);
    count += node && node->find(kDeletionTaint) != std::string::npos;
  }
  return count + (FLAGS_nodes - static_cast<int64_t>(names.size()));
}

// "PATCH /api/v1/nodes/ng1-node-7" -> "PATCH /api/v1/nodes/{name}": the
// requests by kind, not by object.
std::map<std::string, int64_t> ByKind(const sim::RequestCounts& requests) {
  std::map<std::string, int64_t> kinds;
  for (const auto& [request, count] : requests.by_request) {
    std::string kind;
    std::string_view rest = request;
    bool named = false;
    while (!rest.empty()) {
      const size_t slash = rest.find('/', 1);
      std::string_view part = rest.substr(0, slash);
      kind += named ? "/{name}" : std::string(part);
      named = part == "/nodes" || part == "/pods" || part == "/events";
      rest = slash == std::string_view::npos ? "" : rest.substr(slash);
    }
    kinds[kind] += count;
  }
  return kinds;
}

std::string Machine() {
  std::ifstream load("/proc/loadavg");
  std::string load_1m;
  load >> load_1m;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  return "{\"cores\":" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) +
         ",\"memory_mib\":" +
         std::to_string(static_cast<int64_t>(pages) * page_size >> 20) +
         ",\"load_1m\":" + (load_1m.empty() ? "null" : load_1m) + "}";
}

int Main(int argc, char** argv) {
  if (FLAGS_shape != "scale-up" && FLAGS_shape != "scale-down") {
    std::cerr << "--shape=" << FLAGS_shape << ": want scale-up or scale-down\n";
    return 2;
  }
  sim::FakeApiServer server;
  if (Status s = server.Start({.bearer_token = kToken}); !s.ok()) {
    std::cerr << "runonce: server: " << s.message() << "\n";
    return 1;
  }
  if (Status s = SetUpCluster(&server); !s.ok()) {
    std::cerr << "runonce: set-up: " << s.message() << "\n";
    return 1;
  }
  e2e::TempDir dir;
  const std::string kubeconfig =
      dir.Write("kubeconfig", e2e::KubeconfigYaml(server.url(), kToken));
  server.ResetRequestCounts();
  const auto start = std::chrono::steady_clock::now();
  e2e::Process propscaler(
      FLAGS_propscaler.empty() ? PROPSCALER_BINARY : FLAGS_propscaler,
      PropscalerArgs(kubeconfig));
  int64_t peak_kib = 0;
  std::optional<int> exit_code;
  while (!(exit_code = propscaler.WaitForExit(std::chrono::milliseconds(5)))) {
    if (Result<ProcStats> stats = ReadProcStats(propscaler.pid()); stats.ok()) {
      peak_kib = std::max(peak_kib, stats->peak_rss_kib);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const sim::RequestCounts requests = server.Requests();
  const int64_t got = Outcome(server);
  const int64_t want = ScaleUp() ? FLAGS_nodes : FLAGS_nodes * 6 / 10;
  std::cout << "runonce: " << FLAGS_shape << ", " << FLAGS_nodes
            << " nodes, simulated server: exit " << *exit_code << ", "
            << seconds * 1000 << " ms start to exit, peak RSS "
            << peak_kib / 1024.0 << " MiB, " << requests.total << " requests; "
            << (ScaleUp() ? "nodes made " : "nodes marked ") << got << " (want "
            << want << ")\n";
  for (const auto& [kind, count] : ByKind(requests)) {
    std::cout << "  " << count << " " << kind << "\n";
  }
  if (!FLAGS_json_out.empty()) {
    std::string command;
    for (int i = 0; i < argc; ++i)
      command += (i ? " " : "") + std::string(argv[i]);
    std::ofstream out(FLAGS_json_out);
    out << "{\"command\":\"" << command << "\",\"machine\":" << Machine()
        << ",\"server\":\"simulated\",\"shape\":\"" << FLAGS_shape
        << "\",\"nodes\":" << FLAGS_nodes << ",\"exit\":" << *exit_code
        << ",\"wall_ms\":" << seconds * 1000 << ",\"peak_rss_kib\":" << peak_kib
        << ",\"outcome\":" << got << ",\"want\":" << want
        << ",\"requests\":" << requests.ToJson() << "}\n";
  }
  if (*exit_code != 0) {
    std::cerr << "runonce: FAILED: propscaler exited " << *exit_code << "\n"
              << propscaler.Output();
    return 1;
  }
  if (got != want) {
    std::cerr << "runonce: FAILED: " << got << " nodes, not " << want << "\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return propscaler::bench::Main(argc, argv);
}

// propscaler_runonce: Cluster Autoscaler's two RunOnce benchmark shapes
// (kubernetes/autoscaler, cluster-autoscaler/core/bench/
// benchmark_runonce_test.go) run as one iteration of the real propscaler
// binary (`--mode=node-scale --once`, kwok provider) against the simulated
// API server in process, or with --server=real kube-apiserver v1.20.2 and
// etcd (../shared/envtest) under deploy/node-scale/kwok's RBAC:
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
// peak resident size, and the requests it sent by kind (counted by the
// simulated server, or read from the real server's audit log); with
// --json_out it writes them with the command and the machine. It exits 1
// when the count is wrong, propscaler fails, or its time, peak RSS or
// requests are over their targets (checks/runonce_targets.h; the flags
// --wall_target_seconds, --peak_rss_target_mib and --requests_target set or
// override them).
//
//   propscaler_runonce --shape=scale-up --nodes=1000
//   propscaler_runonce --shape=scale-down --nodes=2000
#include <gflags/gflags.h>
#include <rapidjson/document.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "apiserver/fake_apiserver.h"
#include "apiserver/node_generator.h"
#include "apiserver/store_objects.h"
#include "checks/runonce_targets.h"
#include "common/files.h"
#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "envtest/real_objects.h"
#include "harness/audit_log.h"
#include "harness/node_scale_identity.h"
#include "harness/parallel.h"
#include "harness/proc_stats.h"
#include "harness/result_file.h"

DEFINE_string(shape, "scale-up", "scale-up or scale-down.");
DEFINE_int32(nodes, 1000,
             "scale-up: the nodes wanted (50 pods each); scale-down: the "
             "nodes at 40%, of which 60% must go.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(json_out, "", "Write the figures to this JSON file as well.");
DEFINE_double(wall_target_seconds, -1,
              "The time from start to exit above which the run fails; -1: "
              "the shape's (checks/runonce_targets.h), 0: none.");
DEFINE_double(peak_rss_target_mib, -1,
              "The peak RSS above which the run fails; -1: the shape's, 0: "
              "none.");
DEFINE_int64(requests_target, -1,
             "The requests above which the run fails; -1: the shape's "
             "bound, 0: none.");
DEFINE_string(server, "simulated",
              "simulated: tests/apiserver in process; real: kube-apiserver "
              "v1.20.2 and etcd (../shared/envtest).");
DEFINE_string(envtest_dir, PROPSCALER_ENVTEST_DIR,
              "With --server=real: the folder of kube-apiserver-v1.20.2.xz.");
DEFINE_int32(writer_threads, 8,
             "With --server=real: parallel writers creating nodes and pods.");

namespace propscaler::bench {
namespace {

constexpr const char* kToken = kSimulatedToken;
constexpr const char* kNamespace = kNodeScaleNamespace;
constexpr const char* kGroups = kNodeGroupsConfigMap;
constexpr char kGroup[] = "ng1";
constexpr char kDeletionTaint[] = "ToBeDeletedByClusterAutoscaler";

bool ScaleUp() { return FLAGS_shape == "scale-up"; }

// Whether a decoded Node carries the deletion taint in spec.taints (not
// its name anywhere in the text: an annotation or a label would count).
bool HasDeletionTaint(const rapidjson::Value& node) {
  if (!node.IsObject() || !node.HasMember("spec") || !node["spec"].IsObject() ||
      !node["spec"].HasMember("taints") || !node["spec"]["taints"].IsArray()) {
    return false;
  }
  for (const auto& taint : node["spec"]["taints"].GetArray()) {
    if (taint.IsObject() && taint.HasMember("key") && taint["key"].IsString() &&
        std::string_view(taint["key"].GetString()) == kDeletionTaint) {
      return true;
    }
  }
  return false;
}

// The nodes of a NodeList's JSON that carry the deletion taint.
Result<int64_t> CountDeletionTainted(const std::string& list) {
  rapidjson::Document doc;
  doc.Parse(list.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("items") ||
      !doc["items"].IsArray()) {
    return Status::Internal("the NodeList is not a JSON list of nodes");
  }
  int64_t tainted = 0;
  for (const auto& node : doc["items"].GetArray()) {
    tainted += HasDeletionTaint(node) ? 1 : 0;
  }
  return tainted;
}

std::string NodeName(int n) { return "ng1-node-" + std::to_string(n); }
std::string PodName(int i) { return "pod-" + std::to_string(i); }
// Scale-down's pods: 40 a node, round the nodes.
std::string PodNode(int i) { return NodeName(1 + i % FLAGS_nodes); }
int PodCount() { return FLAGS_nodes * (ScaleUp() ? 50 : 40); }
std::string GroupsJson() {
  return "{\"nodeGroups\":[" + sim::GroupJson(kGroup, 0, 100000, "10", "16Gi") +
         "]}";
}

// The cluster an iteration runs against: before it, the group and its pods
// (pending for a scale-up; bound, at 40% of each node, for a scale-down);
// after it, what the iteration did and what it sent.
class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual Status SetUp() = 0;
  virtual std::string Kubeconfig() const = 0;
  // Nodes the group has (scale-up), or marked for deletion or gone
  // (scale-down).
  virtual Result<int64_t> Outcome() const = 0;
  // Called right before propscaler starts.
  virtual void StartCounting() {}
  // propscaler's requests since then (`since`), "VERB path" -> count.
  virtual Result<std::map<std::string, int64_t>> Requests(
      std::chrono::steady_clock::time_point since) = 0;
  virtual std::string Name() const = 0;
};

class SimulatedCluster : public Cluster {
 public:
  Status SetUp() override {
    if (Status s = server_.Start({.bearer_token = kToken}); !s.ok()) return s;
    Status s = sim::PutConfigMap(server_.store(), kNamespace, kGroups,
                                 {{"node-groups.json", GroupsJson()}});
    for (int n = 1; s.ok() && !ScaleUp() && n <= FLAGS_nodes; ++n) {
      sim::NodeShape shape{
          .name = NodeName(n),
          .index = n,
          .cpu_cores = 10,
          .memory_gib = 16,
          .instance_type = "m5.2xlarge",
          .extra_labels = {{"propscaler.io/node-group", kGroup}}};
      s = server_.CreateNode(sim::MakeNodeJson(shape));
    }
    for (int i = 0; s.ok() && i < PodCount(); ++i) {
      s = server_.CreateObject(
          "/api/v1/namespaces/default/pods",
          ScaleUp() ? sim::PodJson(PodName(i), "200m", "")
                    : sim::PodJson(PodName(i), "99m", PodNode(i), "100Mi"));
    }
    kubeconfig_ =
        dir_.Write("kubeconfig", e2e::KubeconfigYaml(server_.url(), kToken));
    return s;
  }
  std::string Kubeconfig() const override { return kubeconfig_; }
  Result<int64_t> Outcome() const override {
    int64_t count = 0;
    const std::vector<std::string> names = server_.NodeNames();
    for (const std::string& name : names) {
      if (ScaleUp()) {
        count += name.starts_with(kGroup);
        continue;
      }
      std::optional<std::string> node =
          server_.GetObject("/api/v1/nodes/" + name);
      rapidjson::Document doc;
      if (node) doc.Parse(node->c_str());
      count += node && !doc.HasParseError() && HasDeletionTaint(doc);
    }
    if (!ScaleUp()) count += FLAGS_nodes - static_cast<int64_t>(names.size());
    return count;
  }
  void StartCounting() override { server_.ResetRequestCounts(); }
  Result<std::map<std::string, int64_t>> Requests(
      std::chrono::steady_clock::time_point) override {
    return server_.Requests().by_request;
  }
  std::string Name() const override { return "simulated server"; }

 private:
  sim::FakeApiServer server_;
  e2e::TempDir dir_;
  std::string kubeconfig_;
};

class RealServerCluster : public Cluster {
 public:
  Status SetUp() override {
    const std::string audit_path = dir_.path() + "/audit.log";
    const std::string policy = dir_.Write(
        "audit-policy.yaml",
        AuditPolicyYaml({ServiceAccountUser(kNamespace, kNodeScaleAccount)}));
    audit_ = std::make_unique<AuditLog>(audit_path);
    Result<std::unique_ptr<envtest::RealCluster>> cluster =
        envtest::RealCluster::Start(
            {.envtest_dir = FLAGS_envtest_dir,
             .unpack_dir = std::string(PROPSCALER_ENVTEST_UNPACK_DIR),
             .apiserver_args = {"--audit-policy-file=" + policy,
                                "--audit-log-path=" + audit_path,
                                "--audit-log-format=json"}});
    if (!cluster.ok()) return cluster.status();
    cluster_ = std::move(*cluster);
    Result<std::string> kubeconfig =
        NodeScaleKubeconfig(*cluster_, kNamespace, "kwok", &dir_);
    if (!kubeconfig.ok()) return kubeconfig.status();
    kubeconfig_ = *kubeconfig;
    Status s = envtest::PutConfigMap(*cluster_, kNamespace, kGroups,
                                     "node-groups.json", GroupsJson());
    // Pods need it, and no controller manager makes it here.
    if (s.ok())
      s = envtest::CreateServiceAccount(*cluster_, "default", "default");
    if (s.ok() && !ScaleUp()) {
      s = ParallelFor(1, FLAGS_nodes, FLAGS_writer_threads, [&](int n) {
        return envtest::CreateNode(
            *cluster_,
            {.name = NodeName(n),
             .cpu = "9920m",
             .label = std::string("propscaler.io/node-group=") + kGroup});
      });
    }
    if (!s.ok()) return s;
    return ParallelFor(0, PodCount() - 1, FLAGS_writer_threads, [&](int i) {
      if (ScaleUp()) {
        return envtest::CreatePendingPod(*cluster_, "default", PodName(i),
                                         "200m");
      }
      Status made = envtest::CreateUntriedPod(*cluster_, "default", PodName(i),
                                              "99m", {.memory = "100Mi"});
      return made.ok() ? envtest::BindPod(*cluster_, "default", PodName(i),
                                          PodNode(i))
                       : made;
    });
  }
  std::string Kubeconfig() const override { return kubeconfig_; }
  Result<int64_t> Outcome() const override {
    if (ScaleUp()) {
      Result<std::vector<std::string>> nodes = envtest::NodeNames(
          *cluster_, std::string("propscaler.io/node-group=") + kGroup);
      if (!nodes.ok()) return nodes.status();
      return static_cast<int64_t>(nodes->size());
    }
    Result<std::string> list =
        envtest::AdminCall(*cluster_, "GET", "/api/v1/nodes");
    if (!list.ok()) return list.status();
    Result<int64_t> marked = CountDeletionTainted(*list);
    if (!marked.ok()) return marked.status();
    Result<std::vector<std::string>> left = envtest::NodeNames(
        *cluster_, std::string("propscaler.io/node-group=") + kGroup);
    if (!left.ok()) return left.status();
    return *marked + FLAGS_nodes - static_cast<int64_t>(left->size());
  }
  Result<std::map<std::string, int64_t>> Requests(
      std::chrono::steady_clock::time_point since) override {
    // The server writes its log as it goes: what it has after a moment.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    Result<std::vector<sim::LoggedRequest>> logged = audit_->Since(since);
    if (!logged.ok()) return logged.status();
    std::map<std::string, int64_t> out;
    for (const sim::LoggedRequest& r : *logged) ++out[r.verb_and_path];
    return out;
  }
  std::string Name() const override { return "kube-apiserver v1.20.2"; }

 private:
  e2e::TempDir dir_;
  std::unique_ptr<envtest::RealCluster> cluster_;
  std::unique_ptr<AuditLog> audit_;
  std::string kubeconfig_;
};

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

// "PATCH /api/v1/nodes/ng1-node-7" -> "PATCH /api/v1/nodes/{name}": the
// requests by kind, not by object.
std::map<std::string, int64_t> ByKind(
    const std::map<std::string, int64_t>& requests) {
  std::map<std::string, int64_t> kinds;
  for (const auto& [request, count] : requests) {
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

// The shape's targets, each flag set (not -1) in place of its own.
RunOnceTargets Targets() {
  RunOnceTargets targets =
      DefaultRunOnceTargets({FLAGS_shape, FLAGS_server, FLAGS_nodes});
  if (FLAGS_wall_target_seconds >= 0)
    targets.wall_s = FLAGS_wall_target_seconds;
  if (FLAGS_peak_rss_target_mib >= 0) {
    targets.peak_rss_mib = FLAGS_peak_rss_target_mib;
  }
  if (FLAGS_requests_target >= 0) targets.requests = FLAGS_requests_target;
  return targets;
}

int Main(ResultFile* result) {
  if (FLAGS_shape != "scale-up" && FLAGS_shape != "scale-down") {
    std::cerr << "--shape=" << FLAGS_shape << ": want scale-up or scale-down\n";
    return 2;
  }
  if (FLAGS_server != "simulated" && FLAGS_server != "real") {
    std::cerr << "--server=" << FLAGS_server << ": want simulated or real\n";
    return 2;
  }
  std::unique_ptr<Cluster> cluster;
  if (FLAGS_server == "real") {
    cluster = std::make_unique<RealServerCluster>();
  } else {
    cluster = std::make_unique<SimulatedCluster>();
  }
  if (Status s = cluster->SetUp(); !s.ok()) {
    std::cerr << "runonce: set-up: " << s.message() << "\n";
    return 1;
  }
  cluster->StartCounting();
  const auto start = std::chrono::steady_clock::now();
  e2e::Process propscaler(
      FLAGS_propscaler.empty() ? PROPSCALER_BINARY : FLAGS_propscaler,
      PropscalerArgs(cluster->Kubeconfig()));
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
  Result<std::map<std::string, int64_t>> requests = cluster->Requests(start);
  Result<int64_t> got = cluster->Outcome();
  for (const Status& s : {requests.status(), got.status()}) {
    if (!s.ok()) {
      std::cerr << "runonce: reading the outcome: " << s.message() << "\n";
      return 1;
    }
  }
  const int64_t want = ScaleUp() ? FLAGS_nodes : FLAGS_nodes * 6 / 10;
  const std::map<std::string, int64_t> kinds = ByKind(*requests);
  int64_t total = 0;
  for (const auto& [kind, count] : kinds) total += count;
  std::cout << "runonce: " << FLAGS_shape << ", " << FLAGS_nodes << " nodes, "
            << cluster->Name() << ": exit " << *exit_code << ", "
            << seconds * 1000 << " ms start to exit, peak RSS "
            << peak_kib / 1024.0 << " MiB, " << total << " requests; "
            << (ScaleUp() ? "nodes made " : "nodes marked ") << *got
            << " (want " << want << ")\n";
  std::string kinds_json;
  for (const auto& [kind, count] : kinds) {
    std::cout << "  " << count << " " << kind << "\n";
    kinds_json += (kinds_json.empty() ? "" : ",") + JsonQuoted(kind) + ":" +
                  std::to_string(count);
  }
  result->Add("server", cluster->Name());
  result->Add("shape", FLAGS_shape);
  result->Add("nodes", FLAGS_nodes);
  result->Add("exit", *exit_code);
  result->Add("wall_ms", seconds * 1000);
  result->Add("peak_rss_kib", peak_kib);
  result->Add("outcome", *got);
  result->Add("want", want);
  result->Add("requests", total);
  result->AddJson("requests_by_kind", "{" + kinds_json + "}");
  const RunOnceTargets targets = Targets();
  result->Add("wall_target_s", targets.wall_s);
  result->Add("peak_rss_target_mib", targets.peak_rss_mib);
  result->Add("requests_target", targets.requests);
  std::vector<std::string> failures;
  if (*exit_code != 0) {
    failures.push_back("propscaler exited " + std::to_string(*exit_code));
  } else if (*got != want) {
    failures.push_back(std::to_string(*got) + " nodes, not " +
                       std::to_string(want));
  }
  for (const std::string& miss : RunOnceTargetFailures(
           {seconds, static_cast<double>(peak_kib) / 1024, total}, targets)) {
    failures.push_back(miss);
  }
  if (Status s = result->Write(FLAGS_json_out, failures); !s.ok()) {
    std::cerr << "runonce: " << s.message() << "\n";
    return 1;
  }
  for (const std::string& failure : failures) {
    std::cerr << "runonce: FAILED: " << failure << "\n";
  }
  if (*exit_code != 0) std::cerr << propscaler.Output();
  return failures.empty() ? 0 : 1;
}

}  // namespace
}  // namespace propscaler::bench

int main(int argc, char** argv) {
  // As typed, for the result file: the flag parser takes the flags out.
  propscaler::bench::ResultFile result(argc, argv);
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  result.SetBinary(FLAGS_propscaler.empty() ? std::string(PROPSCALER_BINARY)
                                            : FLAGS_propscaler);
  return propscaler::bench::Main(&result);
}

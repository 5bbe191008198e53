// Hours of propscaler on the real kube-apiserver and etcd of
// ../shared/envtest, under exactly deploy/'s RBAC for its mode, with the
// cluster churning and the control plane failing around it (bench/README.md,
// "Soak and chaos").
//
// In node-scale mode (kwok provider) the churn is pods: one created pending
// or one deleted every second or so; the harness plays the scheduler
// (harness/played_scheduler.h), and the model is one 4-core node for each
// 3-core pod, every pod bound.
//
// Every second or so the harness changes the cluster (a node added,
// deleted, cordoned, uncordoned, made NotReady or Ready; every few minutes
// the params edited or the target scaled by another writer), computes the
// replicas an independent model gives from the server's own objects, and
// measures how long until the target has them (a change that leaves the
// model's answer as it was is only counted). Around that: kube-apiserver
// restarted every --restart_every, etcd compacted and kube-apiserver
// restarted after it once (propscaler's watches must get 410 and list
// again), etcd stopped for 15 s once (kube-apiserver must report it
// gone), kube-apiserver paused (SIGSTOP) for 60 s
// once, the token rotated and the old one revoked every 10 minutes, the
// serving certificate replaced (same CA) once. Each restart must show as a
// watch restart in propscaler's /metrics within a minute. Every 10 s it
// samples propscaler's RSS, open fds, threads and CPU, and reports their
// trend per hour after the first 10 minutes. It exits 1 when propscaler
// exited, a change was followed late, a wrong value stood between changes,
// or a fault failed or showed no effect, and says which.
//
//   build/propscaler_soak --duration=2h
#include <dirent.h>
#include <gflags/gflags.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <tuple>

#include "checks/soak_verdict.h"
#include "checks/write_audit.h"
#include "common/clock.h"
#include "common/duration.h"
#include "common/files.h"
#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "envtest/real_objects.h"
#include "harness/audit_log.h"
#include "harness/metrics_scrape.h"
#include "harness/node_scale_identity.h"
#include "harness/percentile.h"
#include "harness/played_scheduler.h"
#include "harness/proc_stats.h"
#include "harness/resource_trend.h"
#include "harness/result_file.h"
#include "kube/model/node_scale_objects.h"
#include "nodescale/domain/node_marks.h"

DEFINE_string(mode, "replicas",
              "replicas (deploy/replicas' RBAC, params in its ConfigMap), "
              "vertical (deploy/vertical's RBAC, config in a file) or "
              "node-scale (deploy/node-scale/kwok's RBAC, node groups in a "
              "ConfigMap, pods that go pending and away).");
DEFINE_string(duration, "2h", "How long to run propscaler.");
DEFINE_string(restart_every, "15m", "Restart kube-apiserver this often.");
DEFINE_string(rotate_every, "10m", "Rotate (and revoke) the token this often.");
DEFINE_int32(nodes, 20,
             "Nodes at the start; churn keeps 5 to 2x this. Node-scale "
             "mode: at most this many pods (and nodes).");
DEFINE_uint64(seed, 1, "Seed of the churn.");
DEFINE_string(envtest_dir, PROPSCALER_ENVTEST_DIR,
              "Folder with kube-apiserver-v1.20.2.xz and its sha256.");
DEFINE_string(propscaler, "", "The propscaler binary; default: the one built.");
DEFINE_string(json_out, "",
              "Write the run's figures and verdict to this JSON file "
              "(bench/results/, read by bench/tables.py).");

namespace propscaler::bench {
namespace {

// Set by SIGINT or SIGTERM: the run ends early, still reports, and stops
// the servers and the propscaler it started.
volatile std::sig_atomic_t stop_signal = 0;
void AskToStop(int signal) { stop_signal = signal; }

using std::chrono::milliseconds;
using std::chrono::seconds;
using SteadyTime = std::chrono::steady_clock::time_point;

constexpr char kNs[] = "soak";
constexpr char kConfigMap[] = "coredns-autoscaler";
constexpr char kTarget[] = "coredns";
constexpr char kLabel[] = "soak=1";
// What a change must be followed within, outside outages and after one.
constexpr milliseconds kFollowTarget(1000);
constexpr milliseconds kAfterOutageTarget(5000);
constexpr milliseconds kGiveUp(120000);
// A fault must show in propscaler's watch restarts within this.
constexpr milliseconds kEffectWithin(60000);
constexpr char kWatchRestarts[] = "propscaler_watch_restarts_total";
// Node-scale mode's rhythm in the soak: it acts once a scan interval, and
// removes a node empty for the unneeded time.
constexpr milliseconds kScanInterval(2000);
constexpr milliseconds kUnneededTime(20000);
constexpr char kNodeGroupSelector[] = "propscaler.io/node-group=small";
constexpr char kNodeGroups[] = "propscaler-node-groups";  // deploy/'s name

enum class FollowKind { kServerUp, kAfterOutage, kScaleDown };

// What a change must be followed within. In node-scale mode a node must
// also be created (at the next scan) and its pod bound.
milliseconds FollowTarget(FollowKind kind, bool node_scale) {
  const milliseconds scan = node_scale ? kScanInterval : milliseconds(0);
  switch (kind) {
    case FollowKind::kServerUp:
      return kFollowTarget + scan;
    case FollowKind::kAfterOutage:
      return kAfterOutageTarget + scan;
    case FollowKind::kScaleDown:
      return kUnneededTime + 2 * kScanInterval + kFollowTarget;
  }
  return kGiveUp;
}

bool VerticalMode() { return FLAGS_mode == "vertical"; }
bool NodeScaleMode() { return FLAGS_mode == "node-scale"; }

// The ServiceAccount propscaler runs as: deploy/'s for the mode.
std::string Account() {
  if (NodeScaleMode()) return kNodeScaleAccount;
  return VerticalMode() ? "coredns-vertical-autoscaler" : "coredns-autoscaler";
}

double Since(SteadyTime start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// The params the harness last wrote: linear, without the single-point rule.
struct Params {
  int cores_per_replica = 16;
  int nodes_per_replica = 2;
  int min = 1;
  std::string Json() const {
    return "{\"coresPerReplica\":" + std::to_string(cores_per_replica) +
           ",\"nodesPerReplica\":" + std::to_string(nodes_per_replica) +
           ",\"min\":" + std::to_string(min) + "}";
  }
};

struct NodeCounts {
  int64_t nodes = 0, cores = 0;                          // all labelled
  int64_t schedulable_nodes = 0, schedulable_cores = 0;  // Ready, uncordoned
};

// The labelled nodes as the server has them.
Result<NodeCounts> CountNodes(const envtest::RealCluster& cluster) {
  Result<rapidjson::Document> list =
      envtest::AdminList(cluster, "/api/v1/nodes?labelSelector=soak%3D1");
  if (!list.ok()) return list.status();
  NodeCounts counts;
  for (const auto& node : (*list)["items"].GetArray()) {
    const bool cordoned = node["spec"].HasMember("unschedulable") &&
                          node["spec"]["unschedulable"].GetBool();
    bool ready = false;
    if (node.HasMember("status") && node["status"].HasMember("conditions")) {
      for (const auto& c : node["status"]["conditions"].GetArray()) {
        ready |= std::string(c["type"].GetString()) == "Ready" &&
                 std::string(c["status"].GetString()) == "True";
      }
    }
    const int64_t cores =
        std::stoll(node["status"]["allocatable"]["cpu"].GetString());
    ++counts.nodes;
    counts.cores += cores;
    if (cordoned || !ready) continue;
    ++counts.schedulable_nodes;
    counts.schedulable_cores += cores;
  }
  return counts;
}

// The independent models. Replica mode: CPA's linear rule on the
// schedulable nodes.
int64_t ExpectedReplicas(const NodeCounts& counts, const Params& params) {
  const int64_t cores = counts.schedulable_cores;
  const int64_t nodes = counts.schedulable_nodes;
  const int64_t by_cores =
      (cores + params.cores_per_replica - 1) / params.cores_per_replica;
  const int64_t by_nodes =
      (nodes + params.nodes_per_replica - 1) / params.nodes_per_replica;
  return std::max<int64_t>({by_cores, by_nodes, params.min});
}

// Vertical mode: CPVA's rule for one container's CPU request, in
// millicores: base plus a step for every nodesPerStep nodes begun, every
// labelled node counted (CPVA counts all nodes).
struct VerticalParams {
  int base_millis = 100;
  int step_millis = 10;
  int nodes_per_step = 1;
  std::string Json() const {
    return "{\"dns\":{\"requests\":{\"cpu\":{\"base\":\"" +
           std::to_string(base_millis) + "m\",\"step\":\"" +
           std::to_string(step_millis) +
           "m\",\"nodesPerStep\":" + std::to_string(nodes_per_step) + "}}}}";
  }
};

int64_t ExpectedCpuMillis(const NodeCounts& counts,
                          const VerticalParams& params) {
  const int64_t steps =
      (counts.nodes + params.nodes_per_step - 1) / params.nodes_per_step;
  return params.base_millis + params.step_millis * steps;
}

// "130m" or "2" (cores) as millicores; -1 for anything else.
int64_t Millis(const std::string& quantity) {
  if (quantity.empty()) return -1;
  char* end = nullptr;
  const double value = std::strtod(quantity.c_str(), &end);
  if (std::string(end) == "m") return static_cast<int64_t>(value);
  if (*end == '\0') return static_cast<int64_t>(value * 1000);
  return -1;
}

struct FollowSample {
  double at = 0;  // seconds into the run
  std::string change;
  int64_t expected = 0;
  double delay = 0;  // seconds; kGiveUp when never
  FollowKind kind = FollowKind::kServerUp;
};

struct ResourceSamples {
  // RSS, and its anonymous (heap, stacks) and file-backed (code) parts.
  std::vector<TrendSample> rss_kib, anon_kib, file_kib, fds, threads,
      cpu_seconds;
  // malloc's heap, from propscaler's own metrics: what is in use, and what
  // is free inside it.
  std::vector<TrendSample> heap_in_use_kib, heap_free_kib;
};

int CountFds(pid_t pid) {
  int count = 0;
  if (DIR* dir = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str())) {
    while (readdir(dir) != nullptr) ++count;
    closedir(dir);
  }
  return count - 2;  // . and ..
}

int CountThreads(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return 0;
}

class Soak {
 public:
  Soak(envtest::RealCluster* cluster, SteadyTime start)
      : cluster_(cluster),
        start_(start),
        random_(FLAGS_seed),
        scheduler_(cluster, kNs, kNodeGroupSelector) {}
  ~Soak();

  Status SetUp();
  // Churns and checks until `end`; returns false when propscaler exited.
  bool Run(SteadyTime end, Duration restart_every, Duration rotate_every);
  void Sample();
  // The faults' effects seen since, or past their minute (all judged
  // `at_end`).
  void CheckEffects(bool at_end);
  // Prints the report; returns why the run fails (empty: it passes).
  Failures Report(double duration_seconds, bool alive,
                  const std::string& audit_log, ResultFile* result) const;
  void AuditTargetWrites(const std::string& audit_log, SoakOutcome* outcome,
                         ResultFile* result) const;
  pid_t pid() const { return propscaler_->pid(); }
  bool running() const { return propscaler_->Running(); }

 private:
  std::string NodeName(int i) const { return "soak-node-" + std::to_string(i); }
  Status AddNode();
  Status Churn(std::string* change);
  // Node-scale mode's churn: a pod created pending, or one deleted (its
  // node must go: `scale_down`).
  Status ChurnPods(std::string* change, bool* scale_down);
  void PlayScheduler();
  Status RotateToken();
  bool vertical() const { return VerticalMode(); }
  bool node_scale() const { return NodeScaleMode(); }
  std::vector<std::string> RbacManifests() const;
  // The model's value (replicas, the CPU request in millicores, or the
  // pods, one a node) from the server's objects, and the target's as the
  // server has it (node-scale: the group's nodes once every pod is bound,
  // -1 while one is pending).
  Result<int64_t> Expected() const;
  Result<int64_t> Observed() const;
  // Expected(), each new answer kept with the harness's last attempt to
  // change the cluster (a call that failed may still have changed it).
  Result<int64_t> Model();
  // propscaler's writes of its target in the audit log, the server's
  // refusals counted apart.
  Result<std::vector<TargetWrite>> Writes(const std::string& audit_log,
                                          int* refused) const;
  Status WriteConfig();
  Status EditConfig(std::string* change);
  Status OtherWriter(int64_t observed, std::string* change);
  std::vector<std::string> ModeArgs() const;
  // Waits for the target to reach the model's count after `change`; a
  // change that leaves the model's answer at `before` is only counted.
  bool Follow(const std::string& change, FollowKind kind, int64_t before);
  bool Missed(const FollowSample& sample) const;
  // One line every 10 minutes: how the run goes so far.
  void Progress() const;
  // `effect_label`: the fault must show as a watch restart with that label
  // ("" for any) in propscaler's metrics within a minute; null: not checked.
  void Outage(const std::string& what, const std::function<Status()>& act,
              const char* effect_label);
  // Notes a chaos event (or a change that failed) with its time, and
  // prints it: the run's progress.
  void Record(const std::string& what, const Status& status);
  // The same for a fault the harness causes: one that failed fails the run.
  void RecordFault(const std::string& what, const Status& status);

  envtest::RealCluster* cluster_;
  const SteadyTime start_;
  std::mt19937_64 random_;
  e2e::TempDir dir_;
  std::string token_file_;
  int token_generation_ = 0;
  std::unique_ptr<e2e::Process> propscaler_;
  const int metrics_port_ = e2e::FreePort();
  Params params_;
  VerticalParams vertical_params_;
  std::string config_file_;
  std::vector<int> nodes_;  // indices of the nodes that exist
  int next_node_ = 0;
  int next_pod_ = 0;
  int max_group_size_ = 0;  // node-scale: the node group's maxSize
  PlayedScheduler scheduler_;
  std::thread scheduler_thread_;
  std::atomic<bool> stop_scheduler_{false};
  std::atomic<int> pods_bound_{0}, orphans_deleted_{0};
  bool outage_pending_ = false;
  std::vector<FollowSample> follows_;
  int unchanged_answers_ = 0;  // changes that left the model's answer as it was
  std::vector<std::string> wrong_values_;
  struct Effect {
    std::string what, label;
    double before = 0;
    SteadyTime deadline;
  };
  std::vector<Effect> pending_effects_;
  std::vector<std::string> effects_seen_, faults_not_effective_;
  std::vector<std::string> chaos_log_;
  std::vector<ModelStep> model_;
  double last_attempt_ = 0;
  std::string last_change_ = "start";
  std::vector<OutageWindow> outages_;
  mutable std::mutex samples_mutex_;
  ResourceSamples samples_;
  int64_t peak_rss_kib_ = 0;  // VmHWM at the last sample
};

Status Soak::AddNode() {
  const int index = next_node_++;
  nodes_.push_back(index);
  return envtest::CreateNode(
      *cluster_, {.name = NodeName(index), .cpu = "4", .label = kLabel});
}

Status Soak::RotateToken() {
  const std::string secret =
      "soak-token-" + std::to_string(++token_generation_);
  Result<std::string> made = envtest::AdminCall(
      *cluster_, "POST", std::string("/api/v1/namespaces/") + kNs + "/secrets",
      "{\"metadata\":{\"name\":\"" + secret + "\"}}");
  if (!made.ok()) return made.status();
  Result<std::string> token =
      envtest::ServiceAccountToken(*cluster_, kNs, Account(), secret);
  if (!token.ok()) return token.status();
  // Written aside and renamed, as the kubelet updates projected tokens.
  dir_.Write("token.new", *token);
  std::rename((dir_.path() + "/token.new").c_str(), token_file_.c_str());
  if (token_generation_ > 1) {
    // Deleting the Secret revokes the token bound to it.
    const std::string old =
        "soak-token-" + std::to_string(token_generation_ - 1);
    return envtest::AdminCall(
               *cluster_, "DELETE",
               std::string("/api/v1/namespaces/") + kNs + "/secrets/" + old)
        .status();
  }
  return Status::Ok();
}

Status Soak::SetUp() {
  if (Status s = envtest::CreateNamespace(*cluster_, kNs); !s.ok()) return s;
  if (Status s = envtest::CreateServiceAccount(*cluster_, kNs, Account());
      !s.ok()) {
    return s;
  }
  for (const std::string& manifest : RbacManifests()) {
    Result<std::string> rbac =
        ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/deploy/" + manifest);
    if (!rbac.ok()) return rbac.status();
    if (Status s = envtest::ApplyRbacManifest(*cluster_, *rbac, kNs); !s.ok()) {
      return s.WithContext(manifest);
    }
  }
  token_file_ = dir_.path() + "/token";
  if (Status s = RotateToken(); !s.ok()) return s;
  config_file_ = dir_.path() + "/vertical-config";
  max_group_size_ = 2 * FLAGS_nodes;
  if (Status s = WriteConfig(); !s.ok()) return s;
  if (node_scale()) {
    // Pods need it, and no controller manager makes it here.
    if (Status s = envtest::CreateServiceAccount(*cluster_, kNs, "default");
        !s.ok()) {
      return s;
    }
    std::string change;
    bool scale_down = false;
    for (int i = 0; i < 3; ++i) {
      if (Status s = ChurnPods(&change, &scale_down); !s.ok()) return s;
    }
    scheduler_thread_ = std::thread([this] { PlayScheduler(); });
  } else {
    if (Status s = envtest::CreateDeployment(*cluster_, kNs, kTarget, 1);
        !s.ok()) {
      return s;
    }
    for (int i = 0; i < FLAGS_nodes; ++i) {
      if (Status s = AddNode(); !s.ok()) return s;
    }
  }
  const std::string kubeconfig = dir_.Write(
      "kubeconfig",
      e2e::KubeconfigYaml(cluster_->url(), "", cluster_->ca_file(), "",
                          "    tokenFile: " + token_file_ + "\n"));
  const std::string binary =
      FLAGS_propscaler.empty() ? PROPSCALER_BINARY : FLAGS_propscaler;
  std::vector<std::string> args = {
      "--kubeconfig=" + kubeconfig, std::string("--namespace=") + kNs,
      "--healthz-port=" + std::to_string(metrics_port_), "--logtostderr",
      "--v=0"};
  for (const std::string& arg : ModeArgs()) args.push_back(arg);
  propscaler_ = std::make_unique<e2e::Process>(binary, args);
  Follow("start", FollowKind::kAfterOutage, -1);
  return Status::Ok();
}

Soak::~Soak() {
  stop_scheduler_ = true;
  if (scheduler_thread_.joinable()) scheduler_thread_.join();
}

void Soak::PlayScheduler() {
  while (!stop_scheduler_) {
    // The server may be away: the next pass tries again.
    if (Result<SchedulerPass> pass = scheduler_.Pass(); pass.ok()) {
      pods_bound_ += pass->bound;
      orphans_deleted_ += pass->orphans_deleted;
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
}

std::vector<std::string> Soak::RbacManifests() const {
  if (node_scale()) return NodeScaleRbacManifests("kwok");
  return {vertical() ? "vertical/rbac.yaml" : "replicas/rbac.yaml"};
}

std::vector<std::string> Soak::ModeArgs() const {
  if (node_scale()) {
    // deploy/node-scale/kwok's, with a quicker rhythm than the defaults.
    return {"--mode=node-scale",
            "--cloud-provider=kwok",
            std::string("--node-group-config=") + kNodeGroups,
            "--scan-interval=" + std::to_string(kScanInterval.count()) + "ms",
            "--scale-down-unneeded-time=" +
                std::to_string(kUnneededTime.count()) + "ms",
            "--scale-down-delay-after-add=0s"};
  }
  std::vector<std::string> args = {
      std::string("--target=deployment/") + kTarget,
      std::string("--nodelabels=") + kLabel};
  if (vertical()) {
    args.insert(args.end(), {"--mode=vertical", "--config-file=" + config_file_,
                             "--resize-threshold-percent=0"});
  } else {
    args.push_back(std::string("--configmap=") + kConfigMap);
  }
  return args;
}

// One group of 4-core nodes: a soak pod (3 cores) takes a node.
std::string NodeGroupsJson(int max_size) {
  return R"({"nodeGroups":[{"name":"small","minSize":0,"maxSize":)" +
         std::to_string(max_size) +
         R"(,"template":{"allocatable":{"cpu":"4","memory":"16Gi",)"
         R"("pods":"110"},"labels":{"pool":"small"},"taints":[]}}]})";
}

Status Soak::WriteConfig() {
  if (node_scale()) {
    return envtest::PutConfigMap(*cluster_, kNs, kNodeGroups,
                                 "node-groups.json",
                                 NodeGroupsJson(max_group_size_));
  }
  if (!vertical()) {
    return envtest::PutConfigMap(*cluster_, kNs, kConfigMap, "linear",
                                 params_.Json());
  }
  // Written aside and renamed, as the kubelet updates a ConfigMap volume.
  dir_.Write("vertical-config.new", vertical_params_.Json());
  if (std::rename((dir_.path() + "/vertical-config.new").c_str(),
                  config_file_.c_str()) != 0) {
    return Status::Internal("renaming into " + config_file_);
  }
  return Status::Ok();
}

Status Soak::EditConfig(std::string* change) {
  if (node_scale()) {
    // Never below the pods the churn keeps: the model stays one a node.
    max_group_size_ = std::uniform_int_distribution<int>(
        FLAGS_nodes, 2 * FLAGS_nodes)(random_);
    *change = "node groups: maxSize " + std::to_string(max_group_size_);
  } else if (vertical()) {
    vertical_params_.base_millis =
        std::uniform_int_distribution<int>(5, 20)(random_) * 10;
    vertical_params_.nodes_per_step =
        std::uniform_int_distribution<int>(1, 4)(random_);
    *change = "config " + vertical_params_.Json();
  } else {
    params_.nodes_per_replica =
        std::uniform_int_distribution<int>(1, 4)(random_);
    params_.cores_per_replica =
        std::uniform_int_distribution<int>(8, 32)(random_);
    *change = "params " + params_.Json();
  }
  return WriteConfig();
}

Status Soak::OtherWriter(int64_t observed, std::string* change) {
  if (!vertical()) {
    const int64_t other = observed + 3;
    *change = "another writer scaled to " + std::to_string(other);
    return envtest::ScaleDeployment(*cluster_, kNs, kTarget, other);
  }
  *change = "another writer set the CPU request to 999m";
  return envtest::AdminCall(
             *cluster_, "PATCH",
             std::string("/apis/apps/v1/namespaces/") + kNs + "/deployments/" +
                 kTarget,
             R"({"spec":{"template":{"spec":{"containers":[{"name":"dns",)"
             R"("resources":{"requests":{"cpu":"999m"}}}]}}}})",
             "application/strategic-merge-patch+json")
      .status();
}

struct PodCounts {
  int64_t pods = 0, bound = 0;
  std::vector<std::string> names;
};

Result<PodCounts> CountPods(const envtest::RealCluster& cluster) {
  Result<rapidjson::Document> list = envtest::AdminList(
      cluster, std::string("/api/v1/namespaces/") + kNs + "/pods");
  if (!list.ok()) return list.status();
  PodCounts counts;
  for (const auto& pod : (*list)["items"].GetArray()) {
    ++counts.pods;
    counts.bound += pod["spec"].HasMember("nodeName") ? 1 : 0;
    counts.names.emplace_back(pod["metadata"]["name"].GetString());
  }
  return counts;
}

Result<int64_t> Soak::Expected() const {
  if (node_scale()) {
    Result<PodCounts> pods = CountPods(*cluster_);
    if (!pods.ok()) return pods.status();
    return pods->pods;
  }
  Result<NodeCounts> counts = CountNodes(*cluster_);
  if (!counts.ok()) return counts.status();
  return vertical() ? ExpectedCpuMillis(*counts, vertical_params_)
                    : ExpectedReplicas(*counts, params_);
}

// The `dns` container's CPU request in millicores, from a Deployment (or
// any object with its spec); -1 when it has none.
int64_t DnsCpuMillis(const rapidjson::Value& deployment) {
  if (!deployment.IsObject() || !deployment.HasMember("spec")) return -1;
  for (const auto& c :
       deployment["spec"]["template"]["spec"]["containers"].GetArray()) {
    if (std::string(c["name"].GetString()) == "dns" &&
        c.HasMember("resources") && c["resources"].HasMember("requests") &&
        c["resources"]["requests"].HasMember("cpu")) {
      return Millis(c["resources"]["requests"]["cpu"].GetString());
    }
  }
  return -1;
}

Result<int64_t> Soak::Observed() const {
  if (node_scale()) {
    Result<PodCounts> pods = CountPods(*cluster_);
    if (!pods.ok()) return pods.status();
    if (pods->bound < pods->pods) return -1;
    Result<std::vector<std::string>> nodes =
        envtest::NodeNames(*cluster_, kNodeGroupSelector);
    if (!nodes.ok()) return nodes.status();
    return static_cast<int64_t>(nodes->size());
  }
  if (!vertical()) return envtest::DeploymentReplicas(*cluster_, kNs, kTarget);
  Result<std::string> body =
      envtest::AdminCall(*cluster_, "GET",
                         std::string("/apis/apps/v1/namespaces/") + kNs +
                             "/deployments/" + kTarget);
  if (!body.ok()) return body.status();
  rapidjson::Document doc;
  doc.Parse(body->c_str());
  return DnsCpuMillis(doc);
}

Result<int64_t> Soak::Model() {
  Result<int64_t> value = Expected();
  if (value.ok() && (model_.empty() || model_.back().value != *value)) {
    model_.push_back({last_attempt_, *value, last_change_});
  }
  return value;
}

namespace {

// A Scale's or Deployment's replicas (omitted when 0); -1 without a spec.
int64_t ReplicasOf(const rapidjson::Value& object) {
  if (!object.IsObject() || !object.HasMember("spec")) return -1;
  const rapidjson::Value& spec = object["spec"];
  return spec.HasMember("replicas") ? spec["replicas"].GetInt64() : 0;
}

bool BeingRemoved(const rapidjson::Value& node) {
  if (!node.IsObject() || !node.HasMember("spec") ||
      !node["spec"].HasMember("taints")) {
    return false;
  }
  for (const auto& taint : node["spec"]["taints"].GetArray()) {
    if (taint["key"].GetString() == nodescale::kToBeDeletedTaint) return true;
  }
  return false;
}

// The group's nodes after each write of a node: created (kGrow), marked for
// removal or deleted unmarked (kShrink), or unmarked again (kGrow).
std::vector<TargetWrite> NodeWrites(const std::vector<AuditedWrite>& writes,
                                    SteadyTime start, int* refused) {
  std::map<std::string, bool> going;  // the live nodes
  std::vector<TargetWrite> judged;
  for (const AuditedWrite& write : writes) {
    if (write.resource != "nodes" || !write.subresource.empty()) continue;
    if (write.code >= 300) {
      ++*refused;
      continue;
    }
    std::string name = write.name;
    if (name.empty() && write.object.IsObject() &&
        write.object.HasMember("metadata")) {
      name = write.object["metadata"]["name"].GetString();
    }
    const bool was_going = going.contains(name) && going[name];
    WriteKind kind;
    if (write.verb == "delete") {
      going.erase(name);
      if (was_going) continue;  // judged when it was marked
      kind = WriteKind::kShrink;
    } else {
      const bool now_going = BeingRemoved(write.object);
      const bool created = write.verb == "create";
      going[name] = now_going;
      if (!created && now_going == was_going) continue;
      kind = now_going ? WriteKind::kShrink : WriteKind::kGrow;
    }
    const int64_t staying = std::count_if(
        going.begin(), going.end(), [](const auto& n) { return !n.second; });
    judged.push_back({std::chrono::duration<double>(write.at - start).count(),
                      staying, kind,
                      write.verb + " " + write.path +
                          (write.verb == "create" ? " (" + name + ")" : "")});
  }
  return judged;
}

}  // namespace

Result<std::vector<TargetWrite>> Soak::Writes(const std::string& audit_log,
                                              int* refused) const {
  Result<std::vector<AuditedWrite>> writes = ReadAuditedWrites(audit_log);
  if (!writes.ok()) return writes.status();
  if (node_scale()) return NodeWrites(*writes, start_, refused);
  std::vector<TargetWrite> judged;
  for (const AuditedWrite& write : *writes) {
    if (write.resource != "deployments" || write.name != kTarget) continue;
    if (write.code >= 300) {
      ++*refused;
      continue;
    }
    // -1 (no object) fails the audit, named.
    const int64_t value =
        vertical() ? DnsCpuMillis(write.object) : ReplicasOf(write.object);
    judged.push_back({std::chrono::duration<double>(write.at - start_).count(),
                      value, WriteKind::kSet, write.verb + " " + write.path});
  }
  return judged;
}

bool Soak::Missed(const FollowSample& sample) const {
  return sample.delay >
         std::chrono::duration<double>(FollowTarget(sample.kind, node_scale()))
             .count();
}

std::string Describe(const FollowSample& sample) {
  return std::to_string(static_cast<int>(sample.at)) + " s: " + sample.change +
         ": " + std::to_string(sample.expected) + " after " +
         std::to_string(sample.delay) + " s";
}

void Soak::Progress() const {
  const int misses = static_cast<int>(
      std::count_if(follows_.begin(), follows_.end(),
                    [&](const FollowSample& s) { return Missed(s); }));
  std::lock_guard<std::mutex> lock(samples_mutex_);
  std::cout << "soak: " << static_cast<int>(Since(start_))
            << " s: " << follows_.size() << " changes followed, " << misses
            << " missed, " << wrong_values_.size() << " wrong values; RSS "
            << (samples_.rss_kib.empty() ? 0 : samples_.rss_kib.back().value)
            << " KiB, fds "
            << (samples_.fds.empty() ? 0 : samples_.fds.back().value)
            << std::endl;
}

bool Soak::Follow(const std::string& change, FollowKind kind, int64_t before) {
  const SteadyTime changed = std::chrono::steady_clock::now();
  FollowSample sample{Since(start_), change, -1, 0, kind};
  // The model reads the server as it is now; a change the harness makes
  // is in it, so is another writer's (none besides these two).
  bool first = true;
  while (std::chrono::steady_clock::now() - changed < kGiveUp) {
    Result<int64_t> expected = Model();
    Result<int64_t> replicas = Observed();
    if (first && expected.ok() && *expected == before) {
      // Nothing for propscaler to follow (a node cordoned twice, a token
      // rotated): a wrong value it caused would show between changes.
      ++unchanged_answers_;
      return false;
    }
    first = false;
    if (expected.ok() && replicas.ok() && *replicas == *expected) {
      sample.expected = *expected;
      sample.delay = Since(changed);
      follows_.push_back(sample);
      if (Missed(sample)) {
        std::cout << "soak: miss: " << Describe(sample) << std::endl;
      }
      return true;
    }
    if (expected.ok()) sample.expected = *expected;
    std::this_thread::sleep_for(milliseconds(10));
  }
  sample.delay = std::chrono::duration<double>(kGiveUp).count();
  follows_.push_back(sample);
  std::cout << "soak: gave up: " << Describe(sample) << std::endl;
  return true;
}

Status Soak::Churn(std::string* change) {
  std::uniform_int_distribution<int> pick(0, 99);
  const int roll = pick(random_);
  auto any_node = [&] {
    return NodeName(nodes_[std::uniform_int_distribution<size_t>(
        0, nodes_.size() - 1)(random_)]);
  };
  const int max_nodes = 2 * FLAGS_nodes;
  if ((roll < 20 && static_cast<int>(nodes_.size()) < max_nodes) ||
      nodes_.size() <= 5) {
    *change = "node added";
    return AddNode();
  }
  if (roll < 40) {
    const size_t at =
        std::uniform_int_distribution<size_t>(0, nodes_.size() - 1)(random_);
    const std::string name = NodeName(nodes_[at]);
    nodes_.erase(nodes_.begin() + at);
    *change = "node " + name + " deleted";
    return envtest::DeleteNode(*cluster_, name);
  }
  const std::string name = any_node();
  if (roll < 55) {
    *change = "node " + name + " cordoned";
    return envtest::CordonNode(*cluster_, name);
  }
  if (roll < 70) {
    *change = "node " + name + " uncordoned";
    return envtest::AdminCall(*cluster_, "PATCH", "/api/v1/nodes/" + name,
                              R"({"spec":{"unschedulable":false}})",
                              "application/merge-patch+json")
        .status();
  }
  if (roll < 85) {
    *change = "node " + name + " NotReady";
    return envtest::SetNodeReady(*cluster_, name, false);
  }
  *change = "node " + name + " Ready";
  return envtest::SetNodeReady(*cluster_, name, true);
}

Status Soak::ChurnPods(std::string* change, bool* scale_down) {
  Result<PodCounts> pods = CountPods(*cluster_);
  if (!pods.ok()) return pods.status();
  const bool add = pods->pods == 0 ||
                   (pods->pods < FLAGS_nodes &&
                    std::uniform_int_distribution<int>(0, 1)(random_) == 0);
  *scale_down = !add;
  if (add) {
    const std::string name = "soak-pod-" + std::to_string(next_pod_++);
    *change = "pod " + name + " pending";
    return envtest::CreatePendingPod(*cluster_, kNs, name, "3");
  }
  const std::string& name = pods->names[std::uniform_int_distribution<size_t>(
      0, pods->names.size() - 1)(random_)];
  *change = "pod " + name + " deleted";
  return envtest::DeletePod(*cluster_, kNs, name);
}

void Soak::Record(const std::string& what, const Status& status) {
  chaos_log_.push_back(std::to_string(static_cast<int>(Since(start_))) +
                       " s: " + what +
                       (status.ok() ? "" : " FAILED: " + status.message()));
  std::cout << "soak: " << chaos_log_.back() << std::endl;
}

void Soak::RecordFault(const std::string& what, const Status& status) {
  Record(what, status);
  if (!status.ok()) faults_not_effective_.push_back(chaos_log_.back());
}

void Soak::Outage(const std::string& what, const std::function<Status()>& act,
                  const char* effect_label) {
  Result<double> before =
      effect_label == nullptr
          ? Result<double>(0.0)
          : SumSeries(metrics_port_, kWatchRestarts, effect_label);
  const double from = Since(start_);
  const Status status = act();
  outages_.push_back({from, Since(start_)});
  RecordFault(what, status);
  outage_pending_ = true;
  if (effect_label == nullptr || !status.ok()) return;
  if (!before.ok()) {
    faults_not_effective_.push_back(
        what + ": /metrics unreadable before it: " + before.status().message());
    return;
  }
  pending_effects_.push_back(
      {what, effect_label, *before,
       std::chrono::steady_clock::now() + kEffectWithin});
}

void Soak::CheckEffects(bool at_end) {
  const SteadyTime now = std::chrono::steady_clock::now();
  std::erase_if(pending_effects_, [&](const Effect& effect) {
    Result<double> value =
        SumSeries(metrics_port_, kWatchRestarts, effect.label);
    const std::string series =
        std::string(kWatchRestarts) + "{" + effect.label + "}";
    if (value.ok() && *value > effect.before) {
      effects_seen_.push_back(
          effect.what + ": " + series + " " +
          std::to_string(static_cast<int64_t>(effect.before)) + " -> " +
          std::to_string(static_cast<int64_t>(*value)));
      return true;
    }
    if (now < effect.deadline && !at_end) return false;
    faults_not_effective_.push_back(
        effect.what + ": " + series + " did not rise from " +
        std::to_string(static_cast<int64_t>(effect.before)) +
        (at_end ? " by the end of the run" : " within a minute"));
    return true;
  });
}

bool Soak::Run(SteadyTime end, Duration restart_every, Duration rotate_every) {
  const auto total = end - start_;
  SteadyTime next_restart = start_ + restart_every;
  SteadyTime next_rotation = start_ + rotate_every;
  SteadyTime next_params = start_ + std::chrono::minutes(3);
  SteadyTime next_writer = start_ + std::chrono::minutes(2);
  SteadyTime next_progress = start_ + std::chrono::minutes(10);
  bool compacted = false, paused = false, etcd_restarted = false;
  bool cert_replaced = false;
  while (std::chrono::steady_clock::now() < end && stop_signal == 0) {
    if (!propscaler_->Running()) return false;
    const SteadyTime now = std::chrono::steady_clock::now();
    if (now >= next_progress) {
      next_progress += std::chrono::minutes(10);
      Progress();
    }
    CheckEffects(/*at_end=*/false);
    // Nothing may be left wrong between changes.
    Result<int64_t> expected = Model();
    Result<int64_t> replicas = Observed();
    if (expected.ok() && replicas.ok() && *replicas != *expected) {
      wrong_values_.push_back(std::to_string(static_cast<int>(Since(start_))) +
                              " s: " + std::to_string(*replicas) +
                              " where the model says " +
                              std::to_string(*expected));
    }
    std::string change;
    Status status;
    bool chaos = false;  // recorded whether it failed or not
    bool scale_down = false;
    last_attempt_ = Since(start_);
    if (now >= next_restart) {
      next_restart += restart_every;
      Outage(
          "kube-apiserver restarted",
          [&] { return cluster_->RestartApiServer(); }, "");
      continue;
    }
    if (!paused && now >= start_ + total / 2) {
      paused = true;
      Outage(
          "kube-apiserver paused for 60 s (SIGSTOP)",
          [&] {
            cluster_->SignalApiServer(SIGSTOP);
            std::this_thread::sleep_for(seconds(60));
            cluster_->SignalApiServer(SIGCONT);
            return Status::Ok();
          },
          nullptr);  // open watches may outlive a pause: nothing to see
      continue;
    }
    if (!etcd_restarted && now >= start_ + total * 2 / 3) {
      etcd_restarted = true;
      Outage(
          "etcd stopped for 15 s, then started",
          [&] { return cluster_->RestartEtcd(std::chrono::seconds(15)); },
          // kube-apiserver keeps its watch cache and propscaler's watches
          // through it: the effect is the server's own /healthz/etcd
          // failing (RestartEtcd checks it), and the next change followed.
          nullptr);
      continue;
    }
    if (!compacted && now >= start_ + total / 3) {
      // A compaction alone breaks no watch that is up to date; a
      // kube-apiserver started after it can serve no watch from before
      // it: propscaler's watches must get 410 and list again.
      compacted = true;
      Outage(
          "etcd compacted, then kube-apiserver restarted",
          [&] {
            Status compaction = cluster_->CompactEtcd();
            return compaction.ok() ? cluster_->RestartApiServer() : compaction;
          },
          "reason=\"expired\"");
      continue;
    }
    if (!cert_replaced && now >= start_ + total * 5 / 6) {
      // Not an outage: the server goes on, and loads the new certificate
      // for new connections within a minute.
      cert_replaced = true;
      const SteadyTime replacing = std::chrono::steady_clock::now();
      status = cluster_->ReplaceServingCert(/*wait_until_served=*/true);
      change = "serving certificate replaced (same CA), served after " +
               std::to_string(static_cast<int>(Since(replacing))) + " s";
      chaos = true;
    } else if (now >= next_rotation) {
      next_rotation += rotate_every;
      status = RotateToken();
      change = "token rotated, the old one revoked";
      chaos = true;
    } else if (now >= next_params) {
      next_params += std::chrono::minutes(3);
      status = EditConfig(&change);
    } else if (now >= next_writer && !node_scale()) {
      next_writer += std::chrono::minutes(2);
      status = OtherWriter(replicas.ok() ? *replicas : 6, &change);
    } else if (node_scale()) {
      status = ChurnPods(&change, &scale_down);
    } else {
      status = Churn(&change);
    }
    last_change_ = change;
    if (chaos) {
      RecordFault(change, status);
    } else if (!status.ok()) {
      Record(change, status);
    }
    if (!status.ok()) {
      // The server may be away (a restart's tail): counted, not fatal.
      std::this_thread::sleep_for(seconds(1));
      continue;
    }
    const bool followed = Follow(change,
                                 scale_down        ? FollowKind::kScaleDown
                                 : outage_pending_ ? FollowKind::kAfterOutage
                                                   : FollowKind::kServerUp,
                                 expected.ok() ? *expected : -1);
    if (followed) outage_pending_ = false;
    std::this_thread::sleep_for(
        milliseconds(std::uniform_int_distribution<int>(500, 1500)(random_)));
  }
  return propscaler_->Running();
}

void Soak::Sample() {
  Result<ProcStats> stats = ReadProcStats(propscaler_->pid());
  if (!stats.ok()) return;
  const double at = Since(start_);
  Result<std::map<std::string, double>> heap = ScrapeMetrics(
      metrics_port_,
      {"propscaler_heap_in_use_bytes", "propscaler_heap_free_bytes"});
  std::lock_guard<std::mutex> lock(samples_mutex_);
  samples_.rss_kib.push_back({at, static_cast<double>(stats->rss_kib)});
  peak_rss_kib_ = stats->peak_rss_kib;
  samples_.anon_kib.push_back({at, static_cast<double>(stats->rss_anon_kib)});
  samples_.file_kib.push_back({at, static_cast<double>(stats->rss_file_kib)});
  samples_.cpu_seconds.push_back({at, stats->cpu_seconds});
  samples_.fds.push_back(
      {at, static_cast<double>(CountFds(propscaler_->pid()))});
  if (heap.ok()) {
    samples_.heap_in_use_kib.push_back(
        {at, heap->at("propscaler_heap_in_use_bytes") / 1024});
    samples_.heap_free_kib.push_back(
        {at, heap->at("propscaler_heap_free_bytes") / 1024});
  }
  samples_.threads.push_back(
      {at, static_cast<double>(CountThreads(propscaler_->pid()))});
}

// Every write of the target the server accepted, against the model at its
// time.
void Soak::AuditTargetWrites(const std::string& audit_log, SoakOutcome* outcome,
                             ResultFile* result) const {
  int refused = 0;
  Result<std::vector<TargetWrite>> writes = Writes(audit_log, &refused);
  if (!writes.ok()) {
    outcome->unexplained_writes.push_back("the audit log: " +
                                          writes.status().message());
    return;
  }
  const auto seconds = [&](FollowKind kind) {
    return std::chrono::duration<double>(FollowTarget(kind, node_scale()))
        .count();
  };
  outcome->unexplained_writes =
      AuditWrites(model_, *writes,
                  {.grace = seconds(FollowKind::kServerUp),
                   .after_outage_grace = seconds(FollowKind::kAfterOutage),
                   .outages = outages_});
  std::cout << "writes of the target in the audit log: " << writes->size()
            << " accepted, " << refused << " refused by the server; "
            << outcome->unexplained_writes.size()
            << " not explained by the model's answers (" << model_.size()
            << " answers)\n";
  for (const std::string& write : outcome->unexplained_writes) {
    std::cout << "  unexplained: " << write << "\n";
  }
  result->Add("writes_accepted", static_cast<int64_t>(writes->size()));
  result->Add("writes_refused", refused);
  result->Add("writes_unexplained",
              static_cast<int64_t>(outcome->unexplained_writes.size()));
  result->Add("model_answers", static_cast<int64_t>(model_.size()));
}

Failures Soak::Report(double duration_seconds, bool alive,
                      const std::string& audit_log, ResultFile* result) const {
  std::map<FollowKind, std::vector<double>> delays;
  SoakOutcome outcome{.propscaler_alive = alive,
                      .wrong_values = wrong_values_,
                      .faults_not_effective = faults_not_effective_};
  AuditTargetWrites(audit_log, &outcome, result);
  result->Add("mode", FLAGS_mode);
  result->Add("duration_s", duration_seconds);
  result->Add("propscaler_alive", alive ? "yes" : "no");
  for (const FollowSample& s : follows_) {
    delays[s.kind].push_back(s.delay);
    if (Missed(s)) {
      outcome.late.push_back(Describe(s));
      std::cout << "miss: " << Describe(s) << "\n";
    }
  }
  auto line = [&](const char* what, FollowKind kind) {
    const std::vector<double>& d = delays[kind];
    const std::string key = kind == FollowKind::kServerUp      ? "followed"
                            : kind == FollowKind::kAfterOutage ? "after_outage"
                                                               : "scale_down";
    result->Add(key + "_changes", static_cast<int64_t>(d.size()));
    result->Add(key + "_target_ms",
                static_cast<int64_t>(std::chrono::duration_cast<milliseconds>(
                                         FollowTarget(kind, node_scale()))
                                         .count()));
    for (const auto& [name, at] : {std::pair<const char*, double>{"p50", 0.5},
                                   {"p99", 0.99},
                                   {"max", 1.0}}) {
      result->Add(key + "_" + name + "_ms", Percentile(d, at) * 1000);
    }
    std::cout << what << " (target "
              << std::chrono::duration_cast<milliseconds>(
                     FollowTarget(kind, node_scale()))
                     .count()
              << " ms): " << d.size() << " changes, p50 "
              << Percentile(d, 0.5) * 1000 << " ms, p99 "
              << Percentile(d, 0.99) * 1000 << " ms, max "
              << Percentile(d, 1.0) * 1000 << " ms\n";
  };
  line("followed (server up)", FollowKind::kServerUp);
  line("followed (first change after an outage)", FollowKind::kAfterOutage);
  if (node_scale()) {
    line("empty node removed (after the unneeded time)",
         FollowKind::kScaleDown);
    std::cout << "pods bound by the harness: " << pods_bound_
              << "; pods left on a deleted node (garbage-collected): "
              << orphans_deleted_ << "\n";
  }
  result->Add("unchanged_answers", unchanged_answers_);
  result->Add("late", outcome.late);
  result->Add("wrong_values", wrong_values_);
  result->Add("chaos", chaos_log_);
  result->Add("fault_effects", effects_seen_);
  result->Add("faults_not_effective", faults_not_effective_);
  if (node_scale()) {
    result->Add("pods_bound", pods_bound_.load());
    result->Add("orphans_deleted", orphans_deleted_.load());
  }
  std::cout << "changes that left the model's answer as it was (not counted "
               "above): "
            << unchanged_answers_ << "\n";
  std::cout << "misses: " << outcome.late.size()
            << "; wrong values seen between changes: " << wrong_values_.size()
            << "\n";
  for (const std::string& wrong : wrong_values_) {
    std::cout << "  wrong: " << wrong << "\n";
  }
  for (const std::string& event : chaos_log_) {
    std::cout << "  chaos: " << event << "\n";
  }
  for (const std::string& seen : effects_seen_) {
    std::cout << "  fault took effect: " << seen << "\n";
  }
  for (const std::string& missing : faults_not_effective_) {
    std::cout << "  FAULT WITHOUT EFFECT: " << missing << "\n";
  }
  // The first 10 minutes (or sixth of a shorter run) are warm-up.
  const double from = std::min(600.0, duration_seconds / 6);
  std::lock_guard<std::mutex> lock(samples_mutex_);
  result->Add("peak_rss_kib", peak_rss_kib_);
  for (const auto& [name, key, samples] :
       {std::tuple<const char*, const char*, const std::vector<TrendSample>*>{
            "RSS KiB", "rss_kib", &samples_.rss_kib},
        {"  anonymous KiB", "anon_kib", &samples_.anon_kib},
        {"  file-backed KiB", "file_kib", &samples_.file_kib},
        {"heap in use KiB", "heap_in_use_kib", &samples_.heap_in_use_kib},
        {"heap free KiB", "heap_free_kib", &samples_.heap_free_kib},
        {"open fds", "fds", &samples_.fds},
        {"threads", "threads", &samples_.threads},
        {"CPU seconds", "cpu_seconds", &samples_.cpu_seconds}}) {
    const Trend trend = FitTrend(*samples, from);
    result->AddJson(std::string(key) + "_trend",
                    "{\"samples\":" + std::to_string(trend.samples) +
                        ",\"start\":" + std::to_string(trend.start_value) +
                        ",\"per_hour\":" + std::to_string(trend.per_hour) +
                        ",\"percent_per_hour\":" +
                        std::to_string(trend.percent_per_hour) + "}");
    std::cout << name << ": " << trend.samples << " samples from "
              << static_cast<int>(from) << " s, start " << trend.start_value
              << ", slope " << trend.per_hour << "/h";
    // CPU time only grows: its slope is the CPU used an hour.
    if (samples != &samples_.cpu_seconds) {
      std::cout << " (" << trend.percent_per_hour << " %/h)";
    }
    std::cout << "\n";
  }
  return SoakVerdict(outcome);
}

int Main(ResultFile* result) {
  Result<std::chrono::milliseconds> duration =
      ParseDuration("duration", FLAGS_duration);
  Result<std::chrono::milliseconds> restart_every =
      ParseDuration("restart_every", FLAGS_restart_every);
  Result<std::chrono::milliseconds> rotate_every =
      ParseDuration("rotate_every", FLAGS_rotate_every);
  for (const Status& s :
       {duration.status(), restart_every.status(), rotate_every.status()}) {
    if (!s.ok()) {
      std::cerr << s.message() << "\n";
      return 2;
    }
  }
  std::signal(SIGINT, AskToStop);
  std::signal(SIGTERM, AskToStop);
  // propscaler's writes, each in full, for the write audit.
  e2e::TempDir audit_dir;
  const std::string audit_log = audit_dir.path() + "/audit.log";
  const std::string policy = audit_dir.Write(
      "audit-policy.yaml",
      WriteAuditPolicyYaml({ServiceAccountUser(kNs, Account())}));
  Result<std::unique_ptr<envtest::RealCluster>> cluster =
      envtest::RealCluster::Start(
          {.envtest_dir = FLAGS_envtest_dir,
           .unpack_dir = std::string(PROPSCALER_ENVTEST_UNPACK_DIR),
           .apiserver_args = {"--audit-policy-file=" + policy,
                              "--audit-log-path=" + audit_log,
                              "--audit-log-format=json"}});
  if (!cluster.ok()) {
    std::cerr << "soak: " << cluster.status().message() << "\n";
    return 1;
  }
  const SteadyTime start = std::chrono::steady_clock::now();
  Soak soak(cluster->get(), start);
  if (Status s = soak.SetUp(); !s.ok()) {
    std::cerr << "soak: set-up: " << s.message() << "\n";
    return 1;
  }
  std::atomic<bool> done{false};
  std::thread sampler([&] {
    while (!done) {
      soak.Sample();
      for (int i = 0; i < 100 && !done; ++i) {
        std::this_thread::sleep_for(milliseconds(100));
      }
    }
  });
  const SteadyTime end = start + *duration;
  const bool alive = soak.Run(end, *restart_every, *rotate_every);
  done = true;
  sampler.join();
  if (stop_signal != 0) {
    std::cout << "soak: stopped by signal " << stop_signal << " after "
              << static_cast<int>(Since(start)) << " s\n";
  }
  // A terminal's Ctrl-C reaches propscaler as well.
  std::cout << "soak: " << FLAGS_mode << " mode, " << FLAGS_duration << " on "
            << "kube-apiserver v1.20.2; propscaler "
            << (alive              ? "ran throughout"
                : stop_signal != 0 ? "stopped with the soak"
                                   : "EXITED")
            << "\n";
  soak.CheckEffects(/*at_end=*/true);
  Failures failures = soak.Report(Since(start), alive, audit_log, result);
  if (stop_signal != 0) return 128 + stop_signal;
  if (Status s = result->Write(FLAGS_json_out, failures); !s.ok()) {
    failures.push_back(s.message());
  }
  for (const std::string& failure : failures) {
    std::cout << "soak: FAILED: " << failure << "\n";
  }
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

// Node-scale mode's whole loop (reflectors, kwok provider, taints, drains,
// status) against the in-memory cluster and its stand-in scheduler, in
// virtual time.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "apiserver/list_response.h"
#include "apiserver/resources.h"
#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/health_state.h"
#include "common/metrics.h"
#include "common/stop_signal.h"
#include "kube/controllers/event_recorder.h"
#include "kube/controllers/leader_election.h"
#include "kube/controllers/reflector.h"
#include "kube/model/node_taint_edit.h"
#include "kube/wire/pod_decode.h"
#include "memcluster/memory_cluster.h"
#include "memcluster/memory_scheduler.h"
#include "memcluster/scenario_test.h"
#include "nodescale/domain/kwok_catalogue.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/provider/clusterapi.h"
#include "nodescale/provider/clusterapi_objects.h"
#include "nodescale/provider/kwok.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_runner.h"
#include "nodescale/run/pending_pod_trigger.h"
#include "nodescale/report/status_report.h"
#include "runtime/cycle_driver.h"

namespace propscaler {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "propscaler";
constexpr char kGroupsConfigMap[] = "node-groups";
constexpr char kCapi[] = "/apis/cluster.x-k8s.io/v1beta1/namespaces/default/";

// Pod name -> the node it is bound to ("" while pending), in every
// namespace.
std::map<std::string, std::string> PodNodes(const sim::ObjectStore& store) {
  sim::ApiResult<std::string> body =
      sim::ServeList(store, {sim::FindResourceType("pods"), "", "", ""}, {});
  std::map<std::string, std::string> out;
  if (!body.ok()) return out;
  Result<kube::ListPage<kube::LivePod>> page =
      kube::DecodeLivePodList(body.value());
  if (!page.ok()) return out;
  for (const kube::LivePod& pod : page->items) {
    out[pod.state.Key()] = pod.state.node_name;
  }
  return out;
}

// One propscaler process: its own reflectors, store, provider, loop and
// (optionally) leader elector, sharing the cluster and the clock. Stop() is
// a crash: the lease is not given up.
struct NodeScaleInstance {
  NodeScaleInstance(memcluster::MemoryCluster* cluster, VirtualClock* clock,
                    nodescale::LoopOptions options,
                    std::unique_ptr<nodescale::Provider> provider,
                    std::optional<kube::LeaderElectionConfig> election)
      : clock(clock),
        stop(clock),
        health(clock, minutes(2)),
        events(&cluster->client(), clock, "propscaler"),
        reporter(&events, &board, &cluster->client(), options.namespace_),
        pending(clock, options.batch, options.expendable_pods_priority_cutoff),
        pods(cluster->client().Pods(), pending.Wrap(state.PodSink()), "pods"),
        nodes(cluster->client().LiveNodes(), state.NodeSink(), "nodes"),
        pdbs(cluster->client().PodDisruptionBudgets(), state.PdbSink(),
             "poddisruptionbudgets"),
        buffers(cluster->client().CapacityBuffers(),
                pending.WrapBuffers(state.BufferSink()), "capacitybuffers"),
        csi_nodes(cluster->client().CsiNodes(), state.CsiNodeSink(),
                  "csinodes"),
        requests(cluster->client().ProvisioningRequests(),
                 state.ProvisioningRequestSink(), "provisioningrequests"),
        templates(cluster->client().PodTemplates(), state.PodTemplateSink(),
                  "podtemplates"),
        provider(std::move(provider)) {
    if (election.has_value()) {
      elector.emplace(&cluster->client(), *election, clock);
    }
    may_act = [this] { return !elector.has_value() || elector->IsLeader(); };
    loop.emplace(nodescale::LoopClients::Of(&cluster->client()),
                 this->provider.get(), &state, &reporter, clock, options,
                 may_act);
    threads.push_back(clock->StartThread([this] { pods.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { nodes.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { pdbs.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { buffers.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { csi_nodes.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { requests.Run(&stop); }));
    threads.push_back(clock->StartThread([this] { templates.Run(&stop); }));
    if (elector.has_value()) {
      threads.push_back(clock->StartThread([this] { elector->Run(&stop); }));
    }
    threads.push_back(clock->StartThread([this, options] {
      nodescale::RunEveryScanInterval(
          &*loop, &pending, may_act,
          [this] {
            return runtime::CycleDriver::JoinErrors(
                {pods.LastError(), nodes.LastError(), pdbs.LastError(),
                 buffers.LastError()});
          },
          options.scan_interval, &health, &stop);
    }));
  }
  ~NodeScaleInstance() { Stop(); }
  void Stop() {
    stop.Stop();
    for (std::thread& thread : threads) thread.join();
    threads.clear();
  }

  VirtualClock* clock;
  StopSignal stop;
  HealthState health;
  kube::EventRecorder events;
  nodescale::NodeScaleStatusBoard board;
  nodescale::NodeScaleReporter reporter;
  LiveObjectStore state;
  nodescale::PendingPodTrigger pending;
  kube::Reflector<kube::LivePod> pods;
  kube::Reflector<kube::LiveNode> nodes;
  kube::Reflector<kube::PdbState> pdbs;
  kube::Reflector<kube::CapacityBuffer> buffers;
  kube::Reflector<kube::CsiNode> csi_nodes;
  kube::Reflector<kube::ProvisioningRequest> requests;
  kube::Reflector<kube::PodTemplate> templates;
  std::unique_ptr<nodescale::Provider> provider;
  std::optional<kube::LeaderElector> elector;
  std::function<bool()> may_act;
  std::optional<nodescale::NodeScaleLoop> loop;
  std::vector<std::thread> threads;
};

class NodeScaleScenarioTest : public memcluster::ScenarioTest {
 protected:
  void TearDown() override {
    instances_.clear();
    stop_.Stop();
    for (std::thread& thread : capi_threads_) thread.join();
  }

  // The kwok provider's ConfigMap with `yaml` as its NodePools.
  Status PutNodePools(const std::string& yaml) {
    return sim::PutConfigMap(cluster_.store(), kNamespace, kGroupsConfigMap,
                             {{"nodepools.yaml", yaml}});
  }

  // With the kwok provider over its generated catalogue, for NodePools.
  NodeScaleInstance* StartOverKwokCatalogue(nodescale::LoopOptions options) {
    options.namespace_ = kNamespace;
    return StartWith(options, std::make_unique<nodescale::KwokProvider>(
                                  &cluster_.client(), &clock_,
                                  nodescale::KwokOptions{
                                      kNamespace,
                                      kGroupsConfigMap,
                                      {},
                                      [this] {
                                        return cluster_.client().GetConfigMap(
                                            kNamespace, kGroupsConfigMap);
                                      },
                                      {},
                                      nodescale::KwokDefaultInstanceTypes()}));
  }

  // With the kwok provider.
  NodeScaleInstance* Start(
      nodescale::LoopOptions options,
      std::set<std::string, std::less<>> not_ready_groups = {},
      std::optional<kube::LeaderElectionConfig> election = std::nullopt) {
    return StartWith(
        options,
        std::make_unique<nodescale::KwokProvider>(
            &cluster_.client(), &clock_,
            nodescale::KwokOptions{kNamespace, kGroupsConfigMap,
                                   std::move(not_ready_groups),
                                   [this] {
                                     return cluster_.client().GetConfigMap(
                                         kNamespace, kGroupsConfigMap);
                                   }}),
        std::move(election));
  }

  NodeScaleInstance* StartWith(
      nodescale::LoopOptions options,
      std::unique_ptr<nodescale::Provider> provider,
      std::optional<kube::LeaderElectionConfig> election = std::nullopt) {
    options.namespace_ = kNamespace;
    instances_.push_back(std::make_unique<NodeScaleInstance>(
        &cluster_, &clock_, options, std::move(provider), std::move(election)));
    return instances_.back().get();
  }

  // With the Cluster API provider, its objects watched as app/ watches them.
  NodeScaleInstance* StartClusterApi(nodescale::LoopOptions options) {
    for (int kind = 0; kind < nodescale::ClusterApiObjects::kKinds; ++kind) {
      const std::string resource =
          nodescale::ClusterApiObjects::kResources[kind];
      auto* reflector =
          capi_reflectors_
              .emplace_back(
                  std::make_unique<kube::Reflector<kube::ClusterApiObject>>(
                      cluster_.client().ClusterApiObjects({}, resource),
                      capi_objects_.Sink(
                          static_cast<nodescale::ClusterApiObjects::Kind>(
                              kind)),
                      resource))
              .get();
      capi_threads_.push_back(
          clock_.StartThread([this, reflector] { reflector->Run(&stop_); }));
    }
    return StartWith(options, std::make_unique<nodescale::ClusterApiProvider>(
                                  &cluster_.client(), &cluster_.client(),
                                  &clock_, &capi_objects_));
  }

  // Events of `reason` posted in default.
  size_t CountEvents(const std::string& reason) {
    size_t count = 0;
    for (const std::string& event : sim::Events(cluster_.store(), "default")) {
      if (event.find("\"reason\":\"" + reason + "\"") != std::string::npos) {
        ++count;
      }
    }
    return count;
  }

  // A MachineDeployment of 4-core nodes with CA's size annotations (max 5)
  // and `more` annotations ("\"key\":\"value\"," each).
  void CreateMachineDeployment(const std::string& name, int min, int replicas,
                               const std::string& more = "") {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), std::string(kCapi) + "machinedeployments",
            R"({"apiVersion":"cluster.x-k8s.io/v1beta1",)"
            R"("kind":"MachineDeployment","metadata":{"name":")" +
                name + R"(","annotations":{)" + more +
                R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":")" +
                std::to_string(min) +
                R"(","cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5",)"
                R"("capacity.cluster-autoscaler.kubernetes.io/cpu":"4",)"
                R"("capacity.cluster-autoscaler.kubernetes.io/memory":"16Gi"}},)"
                R"("spec":{"replicas":)" +
                std::to_string(replicas) + "}}")
            .ok());
  }

  // A Machine of MachineDeployment `deployment` and its Ready Node, which
  // names it by Cluster API's annotations.
  void CreateMachineWithNode(const std::string& machine,
                             const std::string& deployment,
                             const std::string& node) {
    ASSERT_TRUE(
        sim::CreateObject(
            cluster_.store(), std::string(kCapi) + "machines",
            R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
            R"("metadata":{"name":")" +
                machine +
                R"(","labels":{"cluster.x-k8s.io/deployment-name":")" +
                deployment + R"("}},"spec":{"providerID":"aws:///z/i-)" + node +
                R"("}})")
            .ok());
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(node, Shape("", 4000), true)
                    .ok());
    ASSERT_TRUE(
        sim::PatchNode(
            cluster_.store(), node,
            R"({"metadata":{"annotations":{"cluster.x-k8s.io/machine":")" +
                machine +
                R"(","cluster.x-k8s.io/cluster-namespace":"default"}}})")
            .ok());
  }

  void ThreeBigNodesAndACheaperGroup(
      const std::string& budgets = R"([{"nodes":"100%"}])");

  // At the first eviction, pod "late" is bound to big-0 by name, as a pod
  // that tolerates the drain's taint (or is given its node) would be; with
  // `never_leaves` a finalizer nobody removes keeps it there once evicted.
  void BindLatePodAtFirstEviction(bool never_leaves) {
    cluster_.SetAnswerHook([this, never_leaves](std::string_view call) {
      if (call != "create pods/eviction" || late_bound_.exchange(true)) return;
      ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                    "/api/v1/namespaces/default/pods",
                                    sim::PodJson("late", "1", "big-0"))
                      .ok());
      if (!never_leaves) return;
      rapidjson::Document linger;
      linger.Parse(R"({"metadata":{"finalizers":["propscaler.io/test"]}})");
      ASSERT_TRUE(
          cluster_.store()
              .Patch(*sim::FindResourceType("pods"), "default", "late", linger)
              .ok());
    });
  }

  // Virtual time in 5 s steps until `done`, or `limit` has passed.
  void SleepUntil(const std::function<bool()>& done, Duration limit) {
    const TimePoint start = clock_.Now();
    while (!done() && clock_.Now() - start < limit) {
      clock_.SleepFor(seconds(5));
    }
  }

  kube::NodeTemplate Shape(const std::string& group, int64_t cpu_millis) {
    kube::NodeTemplate shape;
    shape.allocatable.cpu_millis = cpu_millis;
    shape.allocatable.memory_bytes = int64_t{16} << 30;
    shape.allocatable.pods = 110;
    if (!group.empty()) {
      shape.labels[std::string(nodescale::kNodeGroupLabel)] = group;
    }
    return shape;
  }

  void PutGroups(const std::vector<std::string>& groups) {
    ASSERT_TRUE(sim::PutNodeGroups(cluster_.store(), kNamespace,
                                   kGroupsConfigMap, groups)
                    .ok());
  }

  // Node names starting with `prefix`.
  std::vector<std::string> NodesWithPrefix(const std::string& prefix) {
    std::vector<std::string> out;
    for (const std::string& name : sim::NodeNames(cluster_.store())) {
      if (name.starts_with(prefix)) out.push_back(name);
    }
    return out;
  }

  void CreatePendingPod(const std::string& name, const std::string& cpu) {
    ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                  "/api/v1/namespaces/default/pods",
                                  sim::PodJson(name, cpu, ""))
                    .ok());
  }

  std::string NodeJson(const std::string& name) {
    return sim::GetObject(cluster_.store(), "/api/v1/nodes/" + name)
        .value_or("(gone)");
  }

  // The node pod default/`name` is bound to; empty while pending.
  std::string NodeOf(const std::string& name) {
    std::optional<std::string> pod = sim::GetObject(
        cluster_.store(), "/api/v1/namespaces/default/pods/" + name);
    if (!pod.has_value()) return "(gone)";
    const size_t at = pod->find(R"("nodeName":")");
    if (at == std::string::npos) return "";
    const size_t start = at + 12;
    return pod->substr(start, pod->find('"', start) - start);
  }

  // Group "small" (up to 10 nodes of 4 cpu) with two empty nodes, and
  // PodTemplate default/job of 1-cpu pods.
  void TwoEmptySmallNodesAndAJobTemplate();
  // The status as /status shows it, from the last instance's board.
  std::string StatusText() {
    return instances_.empty()
               ? ""
               : nodescale::RenderStatus(instances_.back()->board.Snapshot());
  }
  // The propscaler-status ConfigMap's Cluster Autoscaler YAML (a null node
  // while none is written).
  YAML::Node CaStatus() {
    std::optional<std::map<std::string, std::string>> status =
        sim::ConfigMapData(cluster_.store(), kNamespace, "propscaler-status");
    return status.has_value() ? YAML::Load((*status)["status"]) : YAML::Node();
  }
  // Its node group `name` (a null node when there is none).
  YAML::Node CaGroup(const std::string& name) {
    const YAML::Node status = CaStatus();
    if (status["nodeGroups"]) {
      for (const YAML::Node& group : status["nodeGroups"]) {
        if (group["name"].as<std::string>() == name) return YAML::Clone(group);
      }
    }
    return YAML::Node();
  }
  std::string GroupScaleUp(const std::string& name) {
    const YAML::Node group = CaGroup(name);
    return group.IsMap() ? group["scaleUp"]["status"].as<std::string>() : "";
  }

  // Whether request default/`name` has a condition of `type`.
  std::function<bool()> ConditionWritten(const std::string& name,
                                         const std::string& type);

  // An empty kwok group "big" of 4-cpu nodes (at most `max`) and
  // PodTemplate "job" of 2-cpu pods: 8 of them need 4 new nodes.
  void EmptyBigGroupAndAJobTemplate(int max);

  std::vector<std::unique_ptr<NodeScaleInstance>> instances_;
  std::atomic<bool> late_bound_{false};
  nodescale::ClusterApiObjects capi_objects_;
  std::vector<std::unique_ptr<kube::Reflector<kube::ClusterApiObject>>>
      capi_reflectors_;
  std::vector<std::thread> capi_threads_;
};

// The flapping of the node-scale semantics issue: two 3-cpu pods pending,
// a scheduler that binds only 30 s after a pod first fits, and a 2 s
// unneeded time. Cluster Autoscaler places pending pods on the nodes made
// for them before looking for unneeded nodes; so does propscaler: two nodes
// are made, none is removed while the pods wait, both pods land. Deleted,
// the pods leave empty nodes that go after the unneeded time.
TEST_F(NodeScaleScenarioTest, NoFlappingWhilePodsWaitForASlowScheduler) {
  ASSERT_TRUE(sim::PutNodeGroups(cluster_.store(), kNamespace, kGroupsConfigMap,
                                 {sim::GroupJson("pool", 0, 10, "4", "16Gi")})
                  .ok());
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(30));
  CreatePendingPod("a", "3");
  CreatePendingPod("b", "3");
  nodescale::LoopOptions options;
  options.scan_interval = seconds(10);
  options.delays.unneeded_time = seconds(2);
  options.delays.delay_after_add = seconds(0);
  Start(options);

  clock_.SleepFor(seconds(25));  // created, Ready, not yet bound
  EXPECT_EQ(Calls("create nodes"), 2);
  EXPECT_EQ(NodeOf("a"), "");
  clock_.SleepFor(minutes(20));
  EXPECT_EQ(Calls("create nodes"), 2);
  EXPECT_EQ(Calls("delete nodes"), 0);
  EXPECT_EQ(sim::NodeNames(cluster_.store()).size(), 2u);
  EXPECT_NE(NodeOf("a"), "");
  EXPECT_NE(NodeOf("b"), "");
  EXPECT_NE(NodeOf("a"), NodeOf("b"));

  for (const char* pod : {"a", "b"}) {
    ASSERT_TRUE(cluster_.store()
                    .Delete(*sim::FindResourceType("pods"), "default", pod)
                    .ok());
  }
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Calls("delete nodes"), 2);
  EXPECT_TRUE(sim::NodeNames(cluster_.store()).empty());
  EXPECT_EQ(Calls("create nodes"), 2);
  // Every Event was posted: two scale-downs in one instant have two names.
  EXPECT_EQ(sim::Events(cluster_.store(), "default").size(),
            static_cast<size_t>(Calls("create events")));
}

// The lost update of the node-scale semantics issue: propscaler's watch of
// nodes lags while a person cordons a node and another controller taints
// it; propscaler then takes its own DeletionCandidate taint off that node
// (a pending pod needs it, as far as its stale copy shows). The edit is a
// fresh read-modify-write under the resourceVersion: the cordon and the
// other taint survive, and propscaler never uncordons a node it did not
// cordon.
TEST_F(NodeScaleScenarioTest, OthersTaintsAndCordonSurviveALaggingWatch) {
  ASSERT_TRUE(sim::PutNodeGroups(cluster_.store(), kNamespace, kGroupsConfigMap,
                                 {sim::GroupJson("pool", 0, 10, "4", "16Gi")})
                  .ok());
  kube::NodeTemplate shape;
  shape.allocatable.cpu_millis = 4000;
  shape.allocatable.memory_bytes = int64_t{16} << 30;
  shape.allocatable.pods = 110;
  shape.labels[std::string(nodescale::kNodeGroupLabel)] = "pool";
  ASSERT_TRUE(
      cluster_.client().CreateSimulatedNode("pool-1", shape, true).ok());
  nodescale::LoopOptions options;
  options.scan_interval = seconds(10);
  options.delays.unneeded_time = minutes(30);
  options.delays.delay_after_add = seconds(0);
  Start(options);
  clock_.SleepFor(seconds(30));
  ASSERT_NE(NodeJson("pool-1").find("DeletionCandidateOfClusterAutoscaler"),
            std::string::npos);

  // The watch stops delivering; meanwhile others write the node.
  cluster_.SetFault([](std::string_view call) {
    return call == "watch nodes" ? Status::Unavailable("watch: injected")
                                 : Status::Ok();
  });
  cluster_.store().DropWatches();
  kube::NodeTaintEdit maintenance;
  maintenance.add =
      kube::TaintToAdd{"example.com/maintenance", "", "NoSchedule"};
  ASSERT_TRUE(cluster_.client().EditNodeTaints("pool-1", maintenance).ok());
  ASSERT_TRUE(sim::PatchNode(cluster_.store(), "pool-1",
                             R"({"spec":{"unschedulable":true}})")
                  .ok());
  CreatePendingPod("p", "1");
  clock_.SleepFor(seconds(30));
  const std::string node = NodeJson("pool-1");
  EXPECT_EQ(node.find("DeletionCandidateOfClusterAutoscaler"),
            std::string::npos)
      << node;
  EXPECT_NE(node.find("example.com/maintenance"), std::string::npos) << node;
  EXPECT_NE(node.find(R"("unschedulable":true)"), std::string::npos) << node;

  // With the watch back, the cordon and the taint are seen: the pod gets a
  // new node made from the group's template as it was before the cordon
  // (a cordoned, maintenance-tainted node is no model of a new one), and the
  // cordon is kept for as long as the node lives.
  cluster_.SetFault(nullptr);
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Calls("create nodes"), 2);
  const std::string later = NodeJson("pool-1");
  EXPECT_NE(later.find("example.com/maintenance"), std::string::npos) << later;
  EXPECT_NE(later.find(R"("unschedulable":true)"), std::string::npos) << later;
}

// Cluster Autoscaler's --max-bulk-soft-taint-count (10): of 15 unneeded
// nodes, one pass gives 10 the DeletionCandidate taint, the next the other
// 5; with 0, none gets it.
TEST_F(NodeScaleScenarioTest, SoftTaintsGoOnTenNodesAPass) {
  PutGroups({sim::GroupJson("pool", 0, 20, "4", "16Gi")});
  for (int i = 1; i <= 15; ++i) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode("pool-" + std::to_string(i),
                                         Shape("pool", 4000), true)
                    .ok());
  }
  auto soft_tainted = [&] {
    int count = 0;
    for (const std::string& node : NodesWithPrefix("pool-")) {
      count += NodeJson(node).find("DeletionCandidateOfClusterAutoscaler") !=
               std::string::npos;
    }
    return count;
  };
  nodescale::LoopOptions options;
  options.scan_interval = seconds(10);
  options.delays.unneeded_time = minutes(30);
  options.delays.delay_after_add = seconds(0);
  Start(options);
  clock_.SleepFor(seconds(5));  // the first pass
  EXPECT_EQ(soft_tainted(), 10);
  clock_.SleepFor(seconds(10));  // the second
  EXPECT_EQ(soft_tainted(), 15);
  EXPECT_EQ(NodesWithPrefix("pool-").size(), 15u);  // none due yet
}

TEST_F(NodeScaleScenarioTest, NoSoftTaintsWithACountOfZero) {
  PutGroups({sim::GroupJson("pool", 0, 20, "4", "16Gi")});
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("pool-1", Shape("pool", 4000), true)
                  .ok());
  nodescale::LoopOptions options;
  options.scan_interval = seconds(10);
  options.delays.unneeded_time = minutes(30);
  options.delays.delay_after_add = seconds(0);
  options.soft_taints.max_count = 0;
  Start(options);
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(NodeJson("pool-1").find("DeletionCandidateOfClusterAutoscaler"),
            std::string::npos);
  EXPECT_EQ(Calls("patch nodes"), 0);
}

// A busy server answers propscaler's taint edit 0.6 s after committing it;
// meanwhile another writer taints and cordons the node. Nothing of theirs
// or its own is lost, then or in the scans after: taint edits are
// fresh read-modify-writes under the resourceVersion and propscaler caches
// none of its own (kube/model/node_taint_edit.h).
TEST_F(NodeScaleScenarioTest, ATaintEditAnsweredLateLosesNoOtherWrite) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("pool-1", Shape("pool", 4000), true)
                  .ok());
  std::atomic<bool> held{false};
  cluster_.SetAnswerHook([&](std::string_view call) {
    if (call != "patch nodes" || held.exchange(true)) return;
    clock_.SleepFor(std::chrono::milliseconds(300));
    kube::NodeTaintEdit maintenance;
    maintenance.add =
        kube::TaintToAdd{"example.com/maintenance", "", "NoSchedule"};
    ASSERT_TRUE(cluster_.client().EditNodeTaints("pool-1", maintenance).ok());
    ASSERT_TRUE(sim::PatchNode(cluster_.store(), "pool-1",
                               R"({"spec":{"unschedulable":true}})")
                    .ok());
    clock_.SleepFor(std::chrono::milliseconds(300));
  });
  nodescale::LoopOptions options;
  options.scan_interval = seconds(10);
  options.delays.unneeded_time = minutes(30);
  options.delays.delay_after_add = seconds(0);
  Start(options);
  clock_.SleepFor(seconds(30));
  ASSERT_TRUE(held);
  std::string node = NodeJson("pool-1");
  EXPECT_NE(node.find("DeletionCandidateOfClusterAutoscaler"),
            std::string::npos)
      << node;
  EXPECT_NE(node.find("example.com/maintenance"), std::string::npos) << node;
  EXPECT_NE(node.find(R"("unschedulable":true)"), std::string::npos) << node;

  // Ten minutes of scans later (the node still unneeded), the same.
  clock_.SleepFor(minutes(10));
  node = NodeJson("pool-1");
  EXPECT_NE(node.find("DeletionCandidateOfClusterAutoscaler"),
            std::string::npos)
      << node;
  EXPECT_NE(node.find("example.com/maintenance"), std::string::npos) << node;
  EXPECT_NE(node.find(R"("unschedulable":true)"), std::string::npos) << node;
}

kube::LeaderElectionConfig Election(const std::string& identity) {
  kube::LeaderElectionConfig config;  // client-go's and CA's 15s/10s/2s
  config.namespace_ = kNamespace;
  config.identity = identity;
  return config;
}

// Two replicas under leader election with the default timers: one acts,
// the other never does while the leader renews; when the leader crashes
// (its lease not given up), the other takes over once the lease has gone
// unrenewed for its duration, and only then acts.
TEST_F(NodeScaleScenarioTest, TwoInstancesUnderLeaderElectionNeverBothAct) {
  PutGroups({sim::GroupJson("small", 0, 20, "4", "8Gi")});
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  for (int i = 0; i < 4; ++i) CreatePendingPod("web-" + std::to_string(i), "3");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  NodeScaleInstance* first = Start(options, {}, Election("first"));
  NodeScaleInstance* second = Start(options, {}, Election("second"));

  clock_.SleepFor(minutes(30));
  EXPECT_EQ(Calls("create nodes"), 4);
  EXPECT_EQ(NodesWithPrefix("small-").size(), 4u);
  Result<kube::Lease> lease =
      cluster_.client().GetLease(kNamespace, "propscaler");
  ASSERT_TRUE(lease.ok()) << lease.status().message();
  EXPECT_EQ(lease->transitions, 0);
  NodeScaleInstance* leader = lease->holder == "first" ? first : second;
  NodeScaleInstance* follower = leader == first ? second : first;
  EXPECT_TRUE(leader->elector->IsLeader());
  EXPECT_FALSE(follower->elector->IsLeader());

  leader->Stop();
  CreatePendingPod("web-late", "3");
  // The last renewal was at most one retry period (2 s) before the crash,
  // so for 13 s the lease is not the follower's to take.
  clock_.SleepFor(seconds(12));
  EXPECT_FALSE(follower->elector->IsLeader());
  EXPECT_EQ(Calls("create nodes"), 4);
  clock_.SleepFor(minutes(1));
  EXPECT_TRUE(follower->elector->IsLeader());
  EXPECT_EQ(Calls("create nodes"), 5);
  EXPECT_NE(NodeOf("web-late"), "");
  lease = cluster_.client().GetLease(kNamespace, "propscaler");
  ASSERT_TRUE(lease.ok());
  EXPECT_EQ(lease->holder, follower->elector->identity());
  EXPECT_EQ(lease->transitions, 1);
}

// --max-node-provision-time at Cluster Autoscaler's default, 15 minutes:
// least-waste picks the 2-core group, whose node never becomes Ready. For
// 15 minutes propscaler waits for it (it counts as upcoming); then it gives
// the node up, backs the group off and uses the next one.
TEST_F(NodeScaleScenarioTest, GroupThatNeverGetsReadyIsGivenUpAfter15Minutes) {
  PutGroups({sim::GroupJson("bad", 0, 10, "2", "4Gi"),
             sim::GroupJson("good", 0, 10, "8", "32Gi")});
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "1");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  Start(options, {"bad"});

  clock_.SleepFor(minutes(14));
  EXPECT_EQ(NodesWithPrefix("bad-").size(), 1u);
  EXPECT_TRUE(NodesWithPrefix("good-").empty());
  EXPECT_EQ(Calls("create nodes"), 1);
  EXPECT_EQ(NodeOf("web-0"), "");

  clock_.SleepFor(minutes(2));
  EXPECT_TRUE(NodesWithPrefix("bad-").empty());
  ASSERT_EQ(NodesWithPrefix("good-").size(), 1u);
  EXPECT_EQ(NodeOf("web-0"), NodesWithPrefix("good-")[0]);
  EXPECT_NE(StatusText().find("Backoff: until"), std::string::npos)
      << StatusText();
  // Cluster Autoscaler's status says so too, with CA's timeout code.
  EXPECT_EQ(GroupScaleUp("bad"), "Backoff");
  EXPECT_EQ(
      CaGroup("bad")["scaleUp"]["backoffInfo"]["errorCode"].as<std::string>(),
      "timeout");
  // Its 5 minutes over, the status and /status say no backoff any more.
  clock_.SleepFor(minutes(6));
  EXPECT_EQ(StatusText().find("Backoff: until"), std::string::npos)
      << StatusText();
  EXPECT_EQ(GroupScaleUp("bad"), "NoActivity");
  for (const nodescale::GroupStatus& group :
       instances_.back()->board.Snapshot().groups) {
    EXPECT_EQ(group.backoff_until, TimePoint()) << group.name;
  }
}

// A group whose scale-ups fail is backed off as Cluster Autoscaler does:
// 5 minutes, doubling with each failure in a row, at most 30; the first
// success clears it.
TEST_F(NodeScaleScenarioTest, FailingScaleUpsBackOffDoublingToTheMaximum) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "1");
  cluster_.SetFault([](std::string_view call) {
    return call == "create nodes" ? Status::Unavailable("create: injected")
                                  : Status::Ok();
  });
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  Start(options);

  // Attempts near 0, 5, 15, 35, 65 and 95 minutes: each a minute before
  // and after.
  const struct {
    int minute;
    int64_t attempts;
  } checkpoints[] = {{4, 1},  {6, 2},  {14, 2}, {16, 3}, {34, 3},
                     {36, 4}, {64, 4}, {66, 5}, {94, 5}, {96, 6}};
  const TimePoint start = clock_.Now();
  for (const auto& checkpoint : checkpoints) {
    clock_.SleepFor(start + minutes(checkpoint.minute) - clock_.Now());
    EXPECT_EQ(Calls("create nodes"), checkpoint.attempts)
        << "at minute " << checkpoint.minute;
  }
  cluster_.SetFault(nullptr);
  clock_.SleepFor(minutes(30));  // the backoff from minute 95 ends
  EXPECT_EQ(Calls("create nodes"), 7);
  ASSERT_EQ(NodesWithPrefix("pool-").size(), 1u);
  EXPECT_EQ(NodeOf("web-0"), NodesWithPrefix("pool-")[0]);
}

// Several iterations see the same pending pods while the scheduler takes
// its time: the nodes made for them count as upcoming, so there is one
// scale-up, never a second, and the nodes, 75% used, are not unneeded.
TEST_F(NodeScaleScenarioTest, PendingPodsCreateExactlyTheNeededNodesOnce) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(30));
  for (int i = 0; i < 6; ++i) {
    CreatePendingPod("web-" + std::to_string(i), "1500m");
  }
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(std::chrono::hours(2));
  EXPECT_EQ(Calls("create nodes"), 3);
  EXPECT_EQ(Calls("delete nodes"), 0);
  EXPECT_EQ(NodesWithPrefix("small-").size(), 3u);
  EXPECT_EQ(CountEvents("TriggeredScaleUp"), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NE(NodeOf("web-" + std::to_string(i)), "");
  }
}

// A burst of pods the scheduler gives up on, then quiet: one scale-up for
// all of them one idle second (--batch-idle-duration) after the last,
// long before the next scan.
TEST_F(NodeScaleScenarioTest, QuietBurstIsScaledUpForOneIdleSecondAfterIt) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  nodescale::LoopOptions options;
  options.scan_interval = minutes(1);
  Start(options);
  clock_.SleepFor(seconds(5));  // the first iteration found nothing to do
  ASSERT_EQ(Calls("create nodes"), 0);
  // Three 3-cpu pods 400 ms apart: each needs a node of its own.
  for (int i = 0; i < 3; ++i) {
    CreatePendingPod("burst-" + std::to_string(i), "3");
    clock_.SleepFor(std::chrono::milliseconds(400));
  }
  // The last came at +800 ms: the batch closes at +1800 ms.
  clock_.SleepFor(std::chrono::milliseconds(500));  // +1700 ms
  EXPECT_EQ(Calls("create nodes"), 0);
  clock_.SleepFor(std::chrono::milliseconds(300));  // +2000 ms
  EXPECT_EQ(Calls("create nodes"), 3);
  EXPECT_EQ(CountEvents("TriggeredScaleUp"), 3u);
}

// Pods that keep coming every 500 ms never leave the batch idle: it closes
// --batch-max-duration (10 s) after its first pod; the rest make a second
// batch. Every pod gets room, no node more than needed.
TEST_F(NodeScaleScenarioTest, BurstThatKeepsComingIsScaledUpForAtTheMaxWindow) {
  PutGroups({sim::GroupJson("small", 0, 20, "4", "8Gi")});
  nodescale::LoopOptions options;
  options.scan_interval = minutes(1);
  Start(options);
  clock_.SleepFor(seconds(5));
  for (int i = 0; i < 30; ++i) {
    CreatePendingPod("stream-" + std::to_string(i), "1");
    if (i == 19) {
      EXPECT_EQ(Calls("create nodes"), 0) << "at +9.5 s";
    }
    if (i == 21) {
      EXPECT_GT(Calls("create nodes"), 0) << "at +10.5 s";
    }
    clock_.SleepFor(std::chrono::milliseconds(500));
  }
  clock_.SleepFor(seconds(2));          // the second batch closes, idle
  EXPECT_EQ(Calls("create nodes"), 8);  // 30 one-cpu pods, 4 to a node
  EXPECT_EQ(CountEvents("TriggeredScaleUp"), 30u);
}

// Pods below --expendable-pods-priority-cutoff (-10) neither trigger a
// scale-up nor keep a node, as in Cluster Autoscaler; a "pause" pod at -1
// (the classic overprovisioning) does trigger one.
TEST_F(NodeScaleScenarioTest, ExpendablePodsNeitherScaleUpNorKeepANode) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  auto with_priority = [](std::string pod, int priority) {
    const std::string spec = R"("spec":{)";
    pod.replace(pod.find(spec), spec.size(),
                spec + R"("priority":)" + std::to_string(priority) + ",");
    return pod;
  };
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("small-old", Shape("small", 4000), true)
                  .ok());
  const std::string pods = "/api/v1/namespaces/default/pods";
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), pods,
          with_priority(sim::PodJson("best-effort-running", "1", "small-old"),
                        -20))
          .ok());
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), pods,
          with_priority(sim::PodJson("best-effort-pending", "3", ""), -20))
          .ok());
  const int64_t created = Calls("create nodes");  // small-old
  nodescale::LoopOptions options;
  options.delays.unneeded_time = minutes(1);
  Start(options);
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(Calls("create nodes"), created);
  EXPECT_EQ(NodesWithPrefix("small-"), std::vector<std::string>{})
      << "the node running only an expendable pod is removed";

  ASSERT_TRUE(
      sim::CreateObject(cluster_.store(), pods,
                        with_priority(sim::PodJson("pause", "3", ""), -1))
          .ok());
  clock_.SleepFor(seconds(5));
  EXPECT_EQ(Calls("create nodes"), created + 1);
  EXPECT_EQ(CountEvents("TriggeredScaleUp"), 1u);
}

constexpr char kBuffers[] =
    "/apis/autoscaling.x-k8s.io/v1beta1/namespaces/default/capacitybuffers";

std::string PodSpecJson(const std::string& cpu) {
  return R"({"containers":[{"name":"c","image":"pause","resources":)"
         R"({"requests":{"cpu":")" +
         cpu + R"(","memory":"256Mi"}}}]})";
}

std::string BufferJson(const std::string& name, const std::string& spec) {
  return R"({"apiVersion":"autoscaling.x-k8s.io/v1beta1",)"
         R"("kind":"CapacityBuffer","metadata":{"name":")" +
         name + R"(","namespace":"default"},"spec":)" + spec + "}";
}

// Buffer default/`name` over PodTemplate default/`template_name` (chunks of
// `cpu`; no template when empty), asking for `replicas` chunks.
::testing::AssertionResult CreateTemplateBuffer(
    sim::ObjectStore& store, const std::string& name,
    const std::string& template_name, const std::string& cpu, int replicas) {
  if (!cpu.empty() &&
      !sim::CreateObject(store, "/api/v1/namespaces/default/podtemplates",
                         R"({"apiVersion":"v1","kind":"PodTemplate",)"
                         R"("metadata":{"name":")" +
                             template_name +
                             R"(","namespace":"default"},"template":)"
                             R"({"metadata":{"labels":{"app":"burst"}},)"
                             R"("spec":)" +
                             PodSpecJson(cpu) + "}}")
           .ok()) {
    return ::testing::AssertionFailure() << "PodTemplate " << template_name;
  }
  if (!sim::CreateObject(
           store, kBuffers,
           BufferJson(name, R"({"podTemplateRef":{"name":")" + template_name +
                                R"("},"replicas":)" + std::to_string(replicas) +
                                "}"))
           .ok()) {
    return ::testing::AssertionFailure() << "CapacityBuffer " << name;
  }
  return ::testing::AssertionSuccess();
}

std::string BufferObject(const sim::ObjectStore& store,
                         const std::string& name) {
  return sim::GetObject(store, std::string(kBuffers) + "/" + name)
      .value_or("(gone)");
}

// A buffer of two chunks of a PodTemplate (3 cpu each) makes room for
// them, two 4-cpu nodes, before any pod asks; the nodes stay while the
// buffer wants them, and go once it is set to 0. Its status says so.
TEST_F(NodeScaleScenarioTest, BufferByReplicasKeepsRoomForItsChunks) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(
      CreateTemplateBuffer(cluster_.store(), "headroom", "chunk", "3", 2));
  nodescale::LoopOptions options;
  options.delays.unneeded_time = minutes(1);
  options.delays.delay_after_add = seconds(0);
  Start(options);
  clock_.SleepFor(seconds(5));
  EXPECT_EQ(Calls("create nodes"), 2);
  clock_.SleepFor(minutes(30));
  EXPECT_EQ(Calls("delete nodes"), 0) << "the buffer's room is kept";
  const std::string status = BufferObject(cluster_.store(), "headroom");
  EXPECT_NE(status.find(R"("replicas":2)"), std::string::npos) << status;
  EXPECT_NE(status.find(R"("reason":"FakePodsInjected")"), std::string::npos)
      << status;
  EXPECT_NE(status.find(R"("reason":"AttributesSetSuccessfully")"),
            std::string::npos)
      << status;

  rapidjson::Document empty;
  empty.Parse(R"({"metadata":{"generation":2},"spec":{"replicas":0}})");
  ASSERT_TRUE(cluster_.store()
                  .Patch(*sim::FindResourceType("capacitybuffers"), "default",
                         "headroom", empty)
                  .ok());
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(Calls("delete nodes"), 2);
  EXPECT_NE(
      sim::GetObject(cluster_.store(), std::string(kBuffers) + "/headroom")
          .value_or("")
          .find(R"("reason":"BufferIsEmpty")"),
      std::string::npos);
}

// 25% of a 10-replica Deployment, rounded up: 3 chunks of its 1-cpu pods,
// one 4-cpu node.
TEST_F(NodeScaleScenarioTest, BufferByPercentageOfADeployment) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), "/apis/apps/v1/namespaces/default/deployments",
          R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":)"
          R"({"name":"web","namespace":"default"},"spec":{"replicas":10,)"
          R"("selector":{"matchLabels":{"app":"web"}},"template":)"
          R"({"metadata":{"labels":{"app":"web"}},"spec":)" +
              PodSpecJson("1") + "}}}")
          .ok());
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), kBuffers,
          BufferJson("web-headroom", R"({"scalableRef":{"apiGroup":"apps",)"
                                     R"("kind":"Deployment","name":"web"},)"
                                     R"("percentage":25})"))
          .ok());
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(seconds(15));
  EXPECT_EQ(Calls("create nodes"), 1);
  const std::string status = BufferObject(cluster_.store(), "web-headroom");
  EXPECT_NE(status.find(R"("replicas":3)"), std::string::npos) << status;
}

// Chunks of 16 cpu fit no group of 4-cpu nodes: no node is made, and the
// buffer's status says which group refused them and why.
TEST_F(NodeScaleScenarioTest, BufferThatFitsNoGroupSaysWhyInItsStatus) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(
      CreateTemplateBuffer(cluster_.store(), "too-big", "huge", "16", 1));
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(seconds(15));
  EXPECT_EQ(Calls("create nodes"), 0);
  const std::string status = BufferObject(cluster_.store(), "too-big");
  EXPECT_NE(status.find(R"("reason":"NoNodeGroupFits")"), std::string::npos)
      << status;
  EXPECT_NE(status.find("small: "), std::string::npos) << status;
}

// A buffer asking for 2^31-1 chunks (a typo, say) gets virtual pods for
// what the group can ever hold (10 nodes of 110 pods), not 2^31 of them in
// memory: the group grows to its max and the status says the count was
// capped, and why.
TEST_F(NodeScaleScenarioTest, BufferAskingForMoreThanTheClusterHoldsIsCapped) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(
      CreateTemplateBuffer(cluster_.store(), "typo", "chunk", "1", 2147483647));
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(seconds(15));
  EXPECT_EQ(NodesWithPrefix("small-").size(), 10u);
  const std::string status = BufferObject(cluster_.store(), "typo");
  EXPECT_NE(status.find(R"("replicas":1100)"), std::string::npos) << status;
  EXPECT_NE(status.find(R"("reason":"ChunksCapped")"), std::string::npos)
      << status;
  EXPECT_NE(status.find("asks for 2147483647 chunks, more than 1100 pods"),
            std::string::npos)
      << status;
}

// A buffer naming a PodTemplate that does not exist is not ready, and says
// so; nothing is provisioned for it.
TEST_F(NodeScaleScenarioTest, BufferWithAMissingTemplateIsNotReady) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(CreateTemplateBuffer(cluster_.store(), "orphan", "gone", "", 3));
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(seconds(15));
  EXPECT_EQ(Calls("create nodes"), 0);
  const std::string status = BufferObject(cluster_.store(), "orphan");
  EXPECT_NE(status.find(R"("reason":"PodTemplateNotFound")"), std::string::npos)
      << status;
  EXPECT_NE(status.find(R"("reason":"NotReadyForProvisioning")"),
            std::string::npos)
      << status;
}

// Three 16-cpu nodes of group "big" ($1/h, pool "general": consolidateAfter
// 30s, budgets as `budgets`) with one 1-cpu pod each, labelled app=web;
// group "small" (4 cpu, $0.3/h, pool "kept" that never consolidates: no
// controller here recreates evicted pods, so a new node would otherwise go
// as empty) takes all three pods on one node.
void NodeScaleScenarioTest::ThreeBigNodesAndACheaperGroup(
    const std::string& budgets) {
  ASSERT_TRUE(
      sim::PutConfigMap(
          cluster_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","disruption":{)"
            R"("consolidateAfter":"30s","budgets":)" +
                budgets +
                R"(}},)"
                R"({"name":"kept","disruption":{"consolidateAfter":"Never"}}],)"
                R"("nodeGroups":[)" +
                std::string(R"({"name":"big","pool":"general","price":1.0,)"
                            R"("minSize":0,"maxSize":5,"template":{)"
                            R"("allocatable":{"cpu":"16","memory":"16Gi",)"
                            R"("pods":"110"}}},)"
                            R"({"name":"small","pool":"kept","price":0.3,)"
                            R"("minSize":0,"maxSize":5,"template":{)"
                            R"("allocatable":{"cpu":"4","memory":"16Gi",)"
                            R"("pods":"110"}}}]})")}})
          .ok());
  for (int i = 0; i < 3; ++i) {
    const std::string node = "big-" + std::to_string(i);
    const std::string pod = "web-" + std::to_string(i);
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(node, Shape("big", 16000), true)
                    .ok());
    ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                  "/api/v1/namespaces/default/pods",
                                  sim::PodJson(pod, "1", node))
                    .ok());
    rapidjson::Document labels;
    labels.Parse(R"({"metadata":{"labels":{"app":"web"}}})");
    ASSERT_TRUE(
        cluster_.store()
            .Patch(*sim::FindResourceType("pods"), "default", pod, labels)
            .ok());
  }
}

// Consolidation replaces three 16-cpu nodes by one 4-cpu node of another
// group at a third of the price, consolidateAfter 30s. Nothing happens
// inside the window or the 15 s validation; then one small node is made,
// and only once it is Ready are the three old nodes drained and deleted.
TEST_F(NodeScaleScenarioTest, ConsolidationReplacesThreeNodesByOneCheaperNode) {
  ThreeBigNodesAndACheaperGroup();
  const int64_t created_before = Calls("create nodes");
  nodescale::LoopOptions options;
  Start(options);
  clock_.SleepFor(seconds(35));
  EXPECT_EQ(Calls("create nodes"), created_before)
      << "inside consolidateAfter and the validation delay";
  EXPECT_EQ(NodesWithPrefix("big-").size(), 3u);
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(Calls("create nodes"), created_before + 1);
  EXPECT_EQ(NodesWithPrefix("small-").size(), 1u);
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
}

// A PodDisruptionBudget with no disruption left over the pods holds the
// consolidation back (an Event on each node says which budget); once its
// status allows three, the replacement goes ahead and the drain's three
// evictions take the allowance back to 0, as kube-apiserver counts them.
TEST_F(NodeScaleScenarioTest, PodDisruptionBudgetHoldsConsolidationBack) {
  ThreeBigNodesAndACheaperGroup();
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(),
          "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
          R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",)"
          R"("metadata":{"name":"web","namespace":"default"},)"
          R"("spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"web"}}},)"
          R"("status":{"observedGeneration":1,"disruptionsAllowed":0}})")
          .ok());
  const int64_t created_before = Calls("create nodes");
  Start(nodescale::LoopOptions{});
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Calls("create nodes"), created_before);
  EXPECT_EQ(NodesWithPrefix("big-").size(), 3u);
  EXPECT_GE(CountEvents("DisruptionBlocked"), 3u);
  bool names_budget = false;
  bool on_pod = false;
  for (const std::string& event : sim::Events(cluster_.store(), "default")) {
    names_budget =
        names_budget || event.find(
                            "PodDisruptionBudget default/web allows no "
                            "disruption now") != std::string::npos;
    on_pod = on_pod || (event.find(R"("kind":"Pod")") != std::string::npos &&
                        event.find("DisruptionBlocked") != std::string::npos &&
                        event.find("is not disrupted") != std::string::npos);
  }
  EXPECT_TRUE(names_budget);
  EXPECT_TRUE(on_pod) << "the pod holding its node back is told so too";

  rapidjson::Document allow;
  allow.Parse(R"({"status":{"disruptionsAllowed":3}})");
  ASSERT_TRUE(cluster_.store()
                  .Patch(*sim::FindResourceType("poddisruptionbudgets"),
                         "default", "web", allow)
                  .ok());
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(Calls("create nodes"), created_before + 1);
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
  EXPECT_NE(sim::GetObject(cluster_.store(),
                           "/apis/policy/v1/namespaces/default/"
                           "poddisruptionbudgets/web")
                .value_or("")
                .find(R"("disruptionsAllowed":0)"),
            std::string::npos);
}

// The replacement never becomes Ready: after --max-node-provision-time the
// command is given up (DisruptionFailed on each old node) with no old node
// tainted and no pod evicted. (What the next plan does is another command:
// with the small group backed off, it deletes two nodes whose pods fit on
// the third.)
TEST_F(NodeScaleScenarioTest, ReplacementThatNeverGetsReadyLeavesOldNodes) {
  ThreeBigNodesAndACheaperGroup();
  const int64_t created_before = Calls("create nodes");
  Start(nodescale::LoopOptions{}, {"small"});
  const TimePoint start = clock_.Now();
  while (CountEvents("DisruptionFailed") < 3 &&
         clock_.Now() - start < minutes(20)) {
    clock_.SleepFor(seconds(5));
  }
  ASSERT_GE(CountEvents("DisruptionFailed"), 3u);
  EXPECT_GE(clock_.Now() - start, minutes(15));
  EXPECT_EQ(Calls("create nodes"), created_before + 1);
  EXPECT_EQ(NodesWithPrefix("big-").size(), 3u);
  EXPECT_EQ(Calls("create pods/eviction"), 0);
  for (const std::string& node : NodesWithPrefix("big-")) {
    EXPECT_EQ(NodeJson(node).find("ToBeDeletedByClusterAutoscaler"),
              std::string::npos)
        << node;
  }
}

// Drift under a budget of one node: three nodes stamped with a template
// hash their group no longer has (as after an edit of the group's
// template), each with a 3-cpu pod. While a fourth node of the pool is
// NotReady it counts as disrupting and the budget allows nothing; once it
// is Ready again the three roll one at a time (at no sample are two being
// removed; each pod goes to the empty fourth node, and as no controller
// here recreates it, the next one too) until none is left.
TEST_F(NodeScaleScenarioTest, DriftRollsOutOneNodeAtATimeUnderABudgetOfOne) {
  ASSERT_TRUE(
      sim::PutConfigMap(
          cluster_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","disruption":{)"
            R"("consolidateAfter":"Never","budgets":[{"nodes":"1"}]}}],)"
            R"("nodeGroups":[{"name":"web","pool":"general","price":1.0,)"
            R"("minSize":0,"maxSize":10,"template":{"allocatable":)"
            R"({"cpu":"4","memory":"16Gi","pods":"110"}}}]})"}})
          .ok());
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("web-sick", Shape("web", 4000), true)
                  .ok());
  for (int i = 0; i < 3; ++i) {
    const std::string node = "web-old-" + std::to_string(i);
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(node, Shape("web", 4000), true)
                    .ok());
    ASSERT_TRUE(
        sim::PatchNode(cluster_.store(), node,
                       R"({"metadata":{"annotations":{)"
                       R"("propscaler.io/template-hash":"0123456789abcdef",)"
                       R"("karpenter.sh/do-not-disrupt":"true"}}})")
            .ok());
    ASSERT_TRUE(
        sim::CreateObject(cluster_.store(), "/api/v1/namespaces/default/pods",
                          sim::PodJson("app-" + std::to_string(i), "3", node))
            .ok());
  }
  // The loop sees web-sick Ready (so that it counts for the budget) while
  // do-not-disrupt holds the drifted nodes; then web-sick goes NotReady and
  // the annotations go.
  Start(nodescale::LoopOptions{});
  clock_.SleepFor(seconds(30));
  ASSERT_TRUE(cluster_.SetNodeReady("web-sick", false).ok());
  clock_.SleepFor(seconds(30));
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(sim::PatchNode(cluster_.store(), "web-old-" + std::to_string(i),
                               R"({"metadata":{"annotations":{)"
                               R"("karpenter.sh/do-not-disrupt":null}}})")
                    .ok());
  }
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(NodesWithPrefix("web-old-").size(), 3u);
  EXPECT_EQ(Calls("create pods/eviction"), 0);

  ASSERT_TRUE(cluster_.SetNodeReady("web-sick", true).ok());
  size_t most_at_once = 0;
  const TimePoint start = clock_.Now();
  while (!NodesWithPrefix("web-old-").empty() &&
         clock_.Now() - start < minutes(30)) {
    clock_.SleepFor(seconds(5));
    size_t removing = 0;
    for (const std::string& node : NodesWithPrefix("web-old-")) {
      if (NodeJson(node).find("ToBeDeletedByClusterAutoscaler") !=
          std::string::npos) {
        ++removing;
      }
    }
    most_at_once = std::max(most_at_once, removing);
  }
  EXPECT_TRUE(NodesWithPrefix("web-old-").empty());
  EXPECT_EQ(most_at_once, 1u);
  EXPECT_EQ(Calls("create pods/eviction"), 3);
}

// A day of cron budgets (UTC; the virtual clock starts at 16:00): no
// disruption from 00:00 for 20 h, any number from 20:00 to midnight. Empty
// nodes made at 16:00 stay until 20:00; one made at 23:00 goes at once; one
// made at 00:30 the next day stays until 20:00 again.
TEST_F(NodeScaleScenarioTest, CronBudgetHoldsEmptyNodesThroughTheDay) {
  ASSERT_TRUE(
      sim::PutConfigMap(
          cluster_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","disruption":{"budgets":[)"
            R"({"nodes":"0","schedule":"0 0 * * *","duration":"20h"},)"
            R"({"nodes":"100%"}]}}],)"
            R"("nodeGroups":[{"name":"web","pool":"general","price":1.0,)"
            R"("minSize":0,"maxSize":10,"template":{"allocatable":)"
            R"({"cpu":"4","memory":"16Gi","pods":"110"}}}]})"}})
          .ok());
  auto empty_node = [&](const std::string& name) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(name, Shape("web", 4000), true)
                    .ok());
  };
  ASSERT_EQ(std::chrono::duration_cast<std::chrono::hours>(
                clock_.Now().time_since_epoch())
                    .count() %
                24,
            16);
  empty_node("web-a");
  empty_node("web-b");
  nodescale::LoopOptions options;
  options.scan_interval = minutes(1);
  Start(options);
  clock_.SleepFor(std::chrono::hours(3) + minutes(55));  // 19:55
  EXPECT_EQ(NodesWithPrefix("web-").size(), 2u);
  clock_.SleepFor(minutes(10));  // 20:05
  EXPECT_TRUE(NodesWithPrefix("web-").empty());
  clock_.SleepFor(std::chrono::hours(2) + minutes(55));  // 23:00
  empty_node("web-late");
  clock_.SleepFor(minutes(5));
  EXPECT_TRUE(NodesWithPrefix("web-").empty());
  clock_.SleepFor(minutes(85));  // 00:30
  empty_node("web-night");
  clock_.SleepFor(std::chrono::hours(19) + minutes(20));  // 19:50
  EXPECT_EQ(NodesWithPrefix("web-").size(), 1u);
  clock_.SleepFor(minutes(15));  // 20:05
  EXPECT_TRUE(NodesWithPrefix("web-").empty());
}

// Back to the preferred group (GKE's active migration), opt-in per pool:
// with spot preferred by the priority expander but out of capacity (max
// size 0 here), a pod's node is on-demand. Nothing moves while spot cannot
// grow; once it can, the on-demand node is replaced by a spot node, which
// is Ready before the old node is drained and deleted.
TEST_F(NodeScaleScenarioTest,
       NodesMoveBackToThePreferredGroupWhenItCanTakeThem) {
  auto groups = [&](int spot_max) {
    return sim::PutConfigMap(
        cluster_.store(), kNamespace, kGroupsConfigMap,
        {{"node-groups.json",
          R"({"pools":[{"name":"general","migrateToPreferred":true,)"
          R"("disruption":{"consolidateAfter":"Never",)"
          R"("budgets":[{"nodes":"100%"}]}}],)"
          R"("priorities":{"10":["^spot$"],"1":["^ondemand$"]},)"
          R"("nodeGroups":[{"name":"spot","pool":"general","price":0.3,)"
          R"("capacityType":"spot","minSize":0,"maxSize":)" +
              std::to_string(spot_max) +
              R"(,"template":{"allocatable":{"cpu":"4","memory":"16Gi",)"
              R"("pods":"110"}}},)"
              R"({"name":"ondemand","pool":"general","price":1.0,)"
              R"("minSize":0,"maxSize":5,"template":{"allocatable":)"
              R"({"cpu":"4","memory":"16Gi","pods":"110"}}}]})"}});
  };
  ASSERT_TRUE(groups(0).ok());
  ASSERT_TRUE(
      cluster_.client()
          .CreateSimulatedNode("ondemand-0", Shape("ondemand", 4000), true)
          .ok());
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("web-0", "3", "ondemand-0"))
                  .ok());
  nodescale::LoopOptions options;
  options.expander = "priority,least-waste";
  Start(options);
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(NodesWithPrefix("ondemand-").size(), 1u);
  EXPECT_TRUE(NodesWithPrefix("spot-").empty());

  ASSERT_TRUE(groups(5).ok());
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(NodesWithPrefix("spot-").size(), 1u);
  EXPECT_TRUE(NodesWithPrefix("ondemand-").empty());
}

// Expiry: a pool's expireAfter of 1h. The node and its 3-cpu pod are left
// alone for the hour (consolidation is off for the pool, and budgets of 0
// would not hold expiry back either); after it, a replacement is made, and
// once it is Ready the expired node is drained and deleted.
TEST_F(NodeScaleScenarioTest, ExpiredNodeIsReplacedAfterExpireAfter) {
  ASSERT_TRUE(
      sim::PutConfigMap(
          cluster_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","expireAfter":"1h",)"
            R"("disruption":{"consolidateAfter":"Never",)"
            R"("budgets":[{"nodes":"0"}]}}],)"
            R"("nodeGroups":[{"name":"web","pool":"general","price":1.0,)"
            R"("minSize":0,"maxSize":10,"template":{"allocatable":)"
            R"({"cpu":"4","memory":"16Gi","pods":"110"}}}]})"}})
          .ok());
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("web-old", Shape("web", 4000), true)
                  .ok());
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("app-0", "3", "web-old"))
                  .ok());
  const int64_t created_before = Calls("create nodes");
  Start(nodescale::LoopOptions{});
  clock_.SleepFor(minutes(59));
  EXPECT_EQ(Calls("create nodes"), created_before);
  EXPECT_EQ(NodesWithPrefix("web-old").size(), 1u);
  clock_.SleepFor(minutes(3));
  EXPECT_EQ(Calls("create nodes"), created_before + 1);
  EXPECT_TRUE(NodesWithPrefix("web-old").empty());
  EXPECT_EQ(NodesWithPrefix("web-").size(), 1u);
}

// A drained node waits for its evicted pod to be gone (here a finalizer
// keeps it), up to --max-graceful-termination-sec (600 s by default, also
// the cap on the pod's own 3600 s grace), and is deleted once it is.
TEST_F(NodeScaleScenarioTest,
       DrainedNodeIsDeletedOnlyAfterItsEvictedPodIsGone) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("static-1", Shape("", 4000), true)
                  .ok());
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("small-a", Shape("small", 4000), true)
                  .ok());
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("web-0", "500m", "small-a"))
                  .ok());
  rapidjson::Document linger;
  linger.Parse(R"({"metadata":{"finalizers":["propscaler.io/test"]},)"
               R"("spec":{"terminationGracePeriodSeconds":3600}})");
  ASSERT_TRUE(
      cluster_.store()
          .Patch(*sim::FindResourceType("pods"), "default", "web-0", linger)
          .ok());
  nodescale::LoopOptions options;  // unneeded for 10 minutes
  options.delays.delay_after_add = seconds(0);
  Start(options);

  auto pod = [&] {
    return sim::GetObject(cluster_.store(),
                          "/api/v1/namespaces/default/pods/web-0")
        .value_or("");
  };
  clock_.SleepFor(minutes(9));
  EXPECT_EQ(pod().find("deletionTimestamp"), std::string::npos);
  clock_.SleepFor(minutes(2));
  ASSERT_NE(pod().find("deletionTimestamp"), std::string::npos) << pod();
  EXPECT_NE(pod().find(R"("deletionGracePeriodSeconds":600)"),
            std::string::npos)
      << pod();
  clock_.SleepFor(minutes(8));  // evicted, still there: the node waits
  EXPECT_EQ(NodesWithPrefix("small-a").size(), 1u);
  EXPECT_EQ(Calls("delete nodes"), 0);
  EXPECT_EQ(CountEvents("ScaleDownFailed"), 0u);
  ASSERT_TRUE(cluster_.store()
                  .Delete(*sim::FindResourceType("pods"), "default", "web-0")
                  .ok());
  clock_.SleepFor(seconds(30));
  EXPECT_TRUE(NodesWithPrefix("small-a").empty());
  EXPECT_EQ(NodesWithPrefix("static-1").size(), 1u);
}

// Pods bound to nodes that no longer exist (the in-memory cluster has no
// garbage collector: a pod left on a deleted node stays, as the pod of a
// machine that went away would be lost).
std::vector<std::string> PodsOnDeletedNodes(const sim::ObjectStore& store) {
  std::set<std::string> nodes;
  for (const std::string& name : sim::NodeNames(store)) nodes.insert(name);
  std::vector<std::string> orphans;
  for (const auto& [pod, node] : PodNodes(store)) {
    if (!node.empty() && !nodes.contains(node)) {
      orphans.push_back(pod + " on " + node);
    }
  }
  return orphans;
}

// The issue's three 16-cpu nodes of one 1-cpu pod each, replaced by one
// 4-cpu node, beside a ReplicaSet and a scheduler that spreads as
// kube-scheduler's default scoring does: each evicted pod is recreated at
// once and bound to the node with the most room left in proportion, an
// untainted big node before the small one. Every node of the command is
// tainted before the first eviction, so every pod lands on the
// replacement; no node is deleted with a pod on it.
TEST_F(NodeScaleScenarioTest,
       MultiNodeCommandTaintsEveryNodeBeforeAnyEviction) {
  ThreeBigNodesAndACheaperGroup();
  memcluster::MemoryScheduler scheduler(
      &cluster_, seconds(0),
      memcluster::MemoryScheduler::Placement::kLeastAllocated);
  std::atomic<int> evictions{0};
  std::atomic<size_t> fewest_tainted{99};
  std::mutex mutex;
  std::vector<std::string> lost;  // pods on a node as it was deleted
  cluster_.SetAnswerHook([&](std::string_view call) {
    if (call == "delete nodes") {
      std::lock_guard<std::mutex> lock(mutex);
      for (const std::string& pod : PodsOnDeletedNodes(cluster_.store())) {
        lost.push_back(pod);
      }
      return;
    }
    if (call != "create pods/eviction") return;
    size_t tainted = 0;
    for (const std::string& node : NodesWithPrefix("big-")) {
      tainted += NodeJson(node).find("ToBeDeletedByClusterAutoscaler") !=
                 std::string::npos;
    }
    fewest_tainted = std::min(fewest_tainted.load(), tainted);
    const std::string name = "web-r" + std::to_string(evictions++);
    ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                  "/api/v1/namespaces/default/pods",
                                  sim::PodJson(name, "1", ""))
                    .ok());
    scheduler.Schedule();
  });
  Start(nodescale::LoopOptions{});
  SleepUntil([&] { return NodesWithPrefix("big-").empty(); }, minutes(10));
  cluster_.SetAnswerHook(nullptr);
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
  EXPECT_EQ(fewest_tainted.load(), 3u);
  EXPECT_EQ(evictions.load(), 3);
  EXPECT_TRUE(lost.empty()) << lost.front();
  EXPECT_TRUE(PodsOnDeletedNodes(cluster_.store()).empty());
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(NodeOf("web-r" + std::to_string(i)).starts_with("small-"))
        << NodeOf("web-r" + std::to_string(i));
  }
}

// A pod bound to a node after its drain started (a pod that tolerates the
// taint, or one given its node by name) is evicted too, and the node is
// deleted only once it is gone.
TEST_F(NodeScaleScenarioTest, PodBoundToADrainingNodeIsEvictedBeforeItGoes) {
  ThreeBigNodesAndACheaperGroup();
  BindLatePodAtFirstEviction(/*never_leaves=*/false);
  Start(nodescale::LoopOptions{});
  SleepUntil([&] { return NodesWithPrefix("big-").empty(); }, minutes(10));
  cluster_.SetAnswerHook(nullptr);
  ASSERT_TRUE(late_bound_.load());
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
  EXPECT_EQ(NodeOf("late"), "(gone)") << "evicted";
  EXPECT_EQ(Calls("create pods/eviction"), 4);
  EXPECT_TRUE(PodsOnDeletedNodes(cluster_.store()).empty());
  EXPECT_EQ(CountEvents("ScaleDownFailed"), 0u);
}

// A pod that arrives on a draining node and never leaves (a finalizer
// nobody removes) holds the node past --max-graceful-termination-sec: the
// removal fails, the node is untainted and stays, the pod with it.
TEST_F(NodeScaleScenarioTest, PodThatNeverLeavesADrainingNodeKeepsIt) {
  ThreeBigNodesAndACheaperGroup();
  BindLatePodAtFirstEviction(/*never_leaves=*/true);
  nodescale::LoopOptions options;
  options.max_graceful_termination = minutes(2);
  Start(options);
  SleepUntil([&] { return CountEvents("ScaleDownFailed") > 0; }, minutes(10));
  cluster_.SetAnswerHook(nullptr);
  ASSERT_EQ(CountEvents("ScaleDownFailed"), 1u);
  EXPECT_NE(NodeJson("big-0"), "(gone)");
  EXPECT_EQ(NodeJson("big-0").find("ToBeDeletedByClusterAutoscaler"),
            std::string::npos)
      << NodeJson("big-0");
  EXPECT_EQ(NodeOf("late"), "big-0");
  EXPECT_TRUE(PodsOnDeletedNodes(cluster_.store()).empty());
}

// Cluster API: two pending 3-core pods grow a 4-core MachineDeployment to
// 2 replicas through its scale subresource, once. No controller makes the
// machines here, so the nodes stay upcoming: no second increase for as long
// as --max-node-provision-time (15 minutes) lets them come.
TEST_F(NodeScaleScenarioTest, MachineDeploymentGrowsOnceThroughScale) {
  CreateMachineDeployment("workers", 0, 0);
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "3");
  CreatePendingPod("web-1", "3");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  StartClusterApi(options);
  clock_.SleepFor(minutes(14));
  Result<int64_t> replicas = sim::GetReplicas(
      cluster_.store(), "machinedeployment", "default", "workers");
  ASSERT_TRUE(replicas.ok()) << replicas.status().message();
  EXPECT_EQ(*replicas, 2);
  EXPECT_EQ(Calls("update machinedeployments/scale"), 1);
  EXPECT_EQ(CountEvents("TriggeredScaleUp"), 2u);
}

// Someone else resizes the MachineDeployment (0 -> 2) just as propscaler
// writes the scale-up it planned from 0: the write, under the old
// resourceVersion, is refused (409) and a fresh read shows another size, so
// nothing is written on top of it, and the group is not backed off: once
// the watch brings 2, the pod that fits on those upcoming nodes asks for
// nothing, and a third pod's node is asked for within seconds, not after a
// 5-minute backoff.
TEST_F(NodeScaleScenarioTest, ScaleUpPlannedFromAStaleSizeIsNotWritten) {
  CreateMachineDeployment("workers", 0, 0);
  std::atomic<bool> raced = false;
  cluster_.SetFault([this, &raced](std::string_view call) {
    if (call == "update machinedeployments/scale" && !raced.exchange(true)) {
      EXPECT_TRUE(sim::SetReplicas(cluster_.store(), "machinedeployment",
                                   "default", "workers", 2)
                      .ok());
    }
    return Status::Ok();
  });
  CreatePendingPod("web-0", "3");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  StartClusterApi(options);
  clock_.SleepFor(seconds(30));
  auto replicas = [this] {
    Result<int64_t> read = sim::GetReplicas(
        cluster_.store(), "machinedeployment", "default", "workers");
    return read.ok() ? *read : -1;
  };
  ASSERT_TRUE(raced);
  EXPECT_EQ(replicas(), 2);
  EXPECT_EQ(Calls("update machinedeployments/scale"), 1);
  CreatePendingPod("web-1", "3");
  CreatePendingPod("web-2", "3");
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(replicas(), 3);
  EXPECT_EQ(Calls("update machinedeployments/scale"), 2);
}

// Cluster API's objects are watched, not listed every loop: an hour at rest
// lists each kind once. Someone else's edit of the MachineDeployment (two
// more replicas) is followed at once: a pending pod that fits on those
// upcoming nodes asks for none (with the old size it would have asked for
// one more).
TEST_F(NodeScaleScenarioTest, ClusterApiObjectsAreWatchedAndEditsFollowed) {
  CreateMachineDeployment("workers", 0, 0);
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  StartClusterApi(options);
  clock_.SleepFor(minutes(60));
  for (const char* resource :
       {"machinedeployments", "machinesets", "machines"}) {
    EXPECT_EQ(Calls(std::string("list ") + resource), 1) << resource;
  }
  ASSERT_TRUE(sim::SetReplicas(cluster_.store(), "machinedeployment", "default",
                               "workers", 2)
                  .ok());
  clock_.SleepFor(std::chrono::milliseconds(100));
  CreatePendingPod("web-0", "3");
  clock_.SleepFor(seconds(15));
  Result<int64_t> replicas = sim::GetReplicas(
      cluster_.store(), "machinedeployment", "default", "workers");
  ASSERT_TRUE(replicas.ok()) << replicas.status().message();
  EXPECT_EQ(*replicas, 2);
  EXPECT_EQ(Calls("update machinedeployments/scale"), 0);
  EXPECT_EQ(Calls("get machinedeployments/scale"), 0);
}

// Node-scale mode reports its watches to health: once the pod watch has
// failed for the limit (2 minutes here), /healthz fails, naming it; before
// that, and again once the watch recovers, it is healthy.
TEST_F(NodeScaleScenarioTest, PodWatchFailingPastTheLimitFailsHealthz) {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  nodescale::LoopOptions options;
  NodeScaleInstance* instance = Start(options);
  instance->health.FailWhenStaleFor(minutes(2));
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(instance->health.Unhealthy(), std::nullopt);

  std::atomic<bool> failing = true;
  cluster_.SetFault([&failing](std::string_view call) {
    return failing && (call == "list pods" || call == "watch pods")
               ? Status::Unavailable("pods: injected")
               : Status::Ok();
  });
  // The open watch runs to its timeout (at most 10 minutes), then fails.
  SleepUntil([instance] { return !instance->pods.LastError().ok(); },
             minutes(11));
  ASSERT_FALSE(instance->pods.LastError().ok());
  clock_.SleepFor(seconds(90));
  EXPECT_EQ(instance->health.Unhealthy(), std::nullopt);
  clock_.SleepFor(seconds(50));
  std::optional<std::string> unhealthy = instance->health.Unhealthy();
  ASSERT_TRUE(unhealthy.has_value());
  EXPECT_NE(unhealthy->find("pods: injected"), std::string::npos) << *unhealthy;
  EXPECT_NE(unhealthy->find("stale for "), std::string::npos) << *unhealthy;

  failing = false;
  clock_.SleepFor(seconds(30));
  EXPECT_EQ(instance->health.Unhealthy(), std::nullopt);
}

// Cluster API scale-down: the empty node's Machine is marked for deletion,
// then replicas lowered once. The node stays registered until Cluster API
// removes the machine (here it never does): for the hour that follows it is
// not removed again, no other machine is marked and replicas stay lowered.
TEST_F(NodeScaleScenarioTest,
       MachineOfAnUnneededNodeIsMarkedThenReplicasLoweredOnce) {
  CreateMachineDeployment("workers", 1, 2);
  CreateMachineWithNode("m-1", "workers", "n-1");
  CreateMachineWithNode("m-2", "workers", "n-2");
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("web-0", "3", "n-1"))
                  .ok());
  nodescale::LoopOptions options;  // unneeded for 10 minutes
  options.delays.delay_after_add = seconds(0);
  StartClusterApi(options);
  auto machine = [&](const std::string& name) {
    return sim::GetObject(cluster_.store(),
                          std::string(kCapi) + "machines/" + name)
        .value_or("");
  };
  auto replicas = [&]() -> int64_t {
    Result<int64_t> read = sim::GetReplicas(
        cluster_.store(), "machinedeployment", "default", "workers");
    return read.ok() ? *read : -1;
  };
  clock_.SleepFor(minutes(9));
  EXPECT_EQ(replicas(), 2);
  EXPECT_EQ(Calls("patch machines"), 0);

  clock_.SleepFor(minutes(2));
  EXPECT_EQ(replicas(), 1);
  EXPECT_NE(machine("m-2").find("cluster.x-k8s.io/delete-machine"),
            std::string::npos);
  EXPECT_EQ(machine("m-1").find("cluster.x-k8s.io/delete-machine"),
            std::string::npos);
  clock_.SleepFor(std::chrono::hours(1));
  EXPECT_EQ(replicas(), 1);
  EXPECT_EQ(Calls("update machinedeployments/scale"), 1);
  EXPECT_EQ(Calls("patch machines"), 1);
  EXPECT_NE(NodeJson("n-2").find("ToBeDeletedByClusterAutoscaler"),
            std::string::npos);
  EXPECT_EQ(NodeJson("n-1").find("ToBeDeletedByClusterAutoscaler"),
            std::string::npos);
}

// Cluster Autoscaler's per-NodeGroup options: a MachineDeployment's
// cluster.x-k8s.io/autoscaling-options-scaledownunneededtime of 2 minutes
// beats the flag's 10 for its own empty node only; a bad value of another
// group's leaves the flag's.
TEST_F(NodeScaleScenarioTest, AGroupsOwnUnneededTimeBeatsTheFlag) {
  CreateMachineDeployment(
      "quick", 0, 1,
      R"("cluster.x-k8s.io/autoscaling-options-scaledownunneededtime":"2m0s",)");
  CreateMachineDeployment(
      "slow", 0, 1,
      R"("cluster.x-k8s.io/autoscaling-options-scaledownunneededtime":"soon",)");
  CreateMachineWithNode("q-1", "quick", "n-q");
  CreateMachineWithNode("s-1", "slow", "n-s");
  nodescale::LoopOptions options;  // --scale-down-unneeded-time=10m
  options.delays.delay_after_add = seconds(0);
  StartClusterApi(options);
  auto replicas = [&](const std::string& name) -> int64_t {
    Result<int64_t> read = sim::GetReplicas(
        cluster_.store(), "machinedeployment", "default", name);
    return read.ok() ? *read : -1;
  };
  clock_.SleepFor(minutes(3));
  EXPECT_EQ(replicas("quick"), 0);
  EXPECT_EQ(replicas("slow"), 1);
  clock_.SleepFor(minutes(8));
  EXPECT_EQ(replicas("slow"), 0);
}

// A node that stops being Ready long after it started is Unready (Cluster
// Autoscaler's --max-node-startup-time: 15 minutes after its creation), not
// capacity still coming: a pending pod that would fit on it gets a new node
// at once, where it used to wait --max-node-provision-time for the node.
TEST_F(NodeScaleScenarioTest, ANodeThatStopsBeingReadyIsNotCountedAsComing) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("pool-old", Shape("pool", 4000), true)
                  .ok());
  clock_.SleepFor(minutes(20));
  ASSERT_TRUE(cluster_.SetNodeReady("pool-old", false).ok());
  const int64_t created = Calls("create nodes");
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "1");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  Start(options);
  SleepUntil([&] { return !NodeOf("web-0").empty(); }, minutes(2));
  EXPECT_EQ(Calls("create nodes"), created + 1);
  EXPECT_NE(NodeOf("web-0"), "");
  EXPECT_NE(NodeOf("web-0"), "pool-old");
  EXPECT_EQ(NodesWithPrefix("pool-").size(), 2u);
}

// Cluster Autoscaler's updateReadinessStats: a node that registered but
// stays NotReady is Unready --max-node-startup-time after its creation,
// whatever --max-node-provision-time says, and no longer counts as coming:
// with 6 s and 45 s the still-pending pod gets a second node well before
// 45 s. Nodes keep being added as each one turns Unready until the gate
// (more than 3 Unready and more than 45%) stops it at 4.
TEST_F(NodeScaleScenarioTest, ANodeNotReadyPastItsStartupTimeIsNotComing) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  CreatePendingPod("web-0", "1");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  options.node_health.max_node_startup_time = seconds(6);
  options.max_node_provision_time = seconds(45);
  Start(options, {"pool"});
  const TimePoint start = clock_.Now();
  SleepUntil([&] { return NodesWithPrefix("pool-").size() == 1; }, seconds(5));
  ASSERT_EQ(NodesWithPrefix("pool-").size(), 1u);
  SleepUntil([&] { return NodesWithPrefix("pool-").size() == 2; }, seconds(40));
  EXPECT_EQ(NodesWithPrefix("pool-").size(), 2u);
  EXPECT_LT(clock_.Now() - start, seconds(25));
  clock_.SleepFor(minutes(3));
  EXPECT_EQ(NodesWithPrefix("pool-").size(), 4u);
  EXPECT_NE(StatusText().find("Unhealthy"), std::string::npos) << StatusText();
  clock_.SleepFor(minutes(10));
  EXPECT_EQ(Calls("create nodes"), 4);
}

// kwok instances that never register (--kwok-unregistered-node-groups):
// group "ghost" has one registered node and is asked for a second that
// never comes. After --max-node-provision-time the capacity is given up
// with CA's Events, ScaleUpTimedOut and DeleteUnregistered, and the target
// stays lowered (it went 2 -> 1 -> 2 -> 1 while kwok ignored the
// decrease): the pod gets a node of "good" and ghost is never asked again.
TEST_F(NodeScaleScenarioTest, AKwokInstanceThatNeverRegistersIsGivenUpForGood) {
  PutGroups({sim::GroupJson("ghost", 0, 10, "2", "4Gi"),
             sim::GroupJson("good", 0, 10, "8", "32Gi")});
  ASSERT_TRUE(cluster_.client()
                  .CreateSimulatedNode("ghost-old", Shape("ghost", 2000), true)
                  .ok());
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("busy", "2", "ghost-old"))
                  .ok());
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "1");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  NodeScaleInstance* instance = StartWith(
      options,
      std::make_unique<nodescale::KwokProvider>(
          &cluster_.client(), &clock_,
          nodescale::KwokOptions{.namespace_ = kNamespace,
                                 .config_map = kGroupsConfigMap,
                                 .read_config =
                                     [this] {
                                       return cluster_.client().GetConfigMap(
                                           kNamespace, kGroupsConfigMap);
                                     },
                                 .unregistered_groups = {"ghost"}}));
  auto target_of = [&](const std::string& name) -> int64_t {
    for (const nodescale::GroupStatus& group :
         instance->board.Snapshot().groups) {
      if (group.name == name) return group.target;
    }
    return -1;
  };
  auto events = [&](const std::string& reason) {
    size_t count = 0;
    for (const std::string& event : sim::Events(cluster_.store(), kNamespace)) {
      if (event.find("\"reason\":\"" + reason + "\"") != std::string::npos) {
        ++count;
      }
    }
    return count;
  };
  clock_.SleepFor(minutes(1));
  EXPECT_EQ(target_of("ghost"), 2);
  clock_.SleepFor(minutes(13));
  EXPECT_EQ(target_of("ghost"), 2);
  EXPECT_TRUE(NodesWithPrefix("good-").empty());
  EXPECT_EQ(events("ScaleUpTimedOut"), 0u);
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(events("ScaleUpTimedOut"), 1u);
  EXPECT_EQ(events("DeleteUnregistered"), 1u);
  for (int minute = 0; minute < 30; ++minute) {
    clock_.SleepFor(minutes(1));
    EXPECT_EQ(target_of("ghost"), 1) << "a minute " << minute << " after";
  }
  ASSERT_EQ(NodesWithPrefix("good-").size(), 1u);
  EXPECT_EQ(NodeOf("web-0"), NodesWithPrefix("good-")[0]);
  EXPECT_EQ(NodesWithPrefix("ghost-"), std::vector<std::string>{"ghost-old"});
  EXPECT_EQ(events("ScaleUpTimedOut"), 1u);
  EXPECT_EQ(Calls("create nodes"), 2) << "ghost-old and good's";
}

// A declared template's startup taint is left out of the plan, as Cluster
// Autoscaler sanitizes provider templates: a pod that does not tolerate
// the CNI's startup taint gets a node, which is created with the taint and
// counts as coming (NotStarted) until the agent removes it; then the pod
// lands. One node, never a second.
TEST_F(NodeScaleScenarioTest, AStartupTaintOnADeclaredTemplateIsNoObstacle) {
  std::string group = sim::GroupJson("pool", 0, 10, "4", "16Gi");
  const std::string no_taints = R"("taints":[])";
  group.replace(group.find(no_taints), no_taints.size(),
                R"("taints":[{"key":"startup-taint.cluster-autoscaler.)"
                R"(kubernetes.io/cni","effect":"NoSchedule"}])");
  PutGroups({group});
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "1");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  Start(options);
  SleepUntil([&] { return NodesWithPrefix("pool-").size() == 1; }, minutes(1));
  ASSERT_EQ(NodesWithPrefix("pool-").size(), 1u) << StatusText();
  const std::string node = NodesWithPrefix("pool-")[0];
  EXPECT_NE(NodeJson(node).find("startup-taint.cluster-autoscaler"),
            std::string::npos);
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(NodeOf("web-0"), "");
  EXPECT_EQ(Calls("create nodes"), 1);
  ASSERT_TRUE(
      sim::PatchNode(cluster_.store(), node, R"({"spec":{"taints":null}})")
          .ok());
  SleepUntil([&] { return NodeOf("web-0") == node; }, minutes(1));
  EXPECT_EQ(NodeOf("web-0"), node);
  clock_.SleepFor(minutes(5));
  EXPECT_EQ(Calls("create nodes"), 1);
}

// Cluster Autoscaler's health gate: with 4 of 8 nodes Unready (more than
// --ok-total-unready-count 3 and more than 45%) nothing is scaled up or
// down for as long as it lasts (a pod waits, empty nodes stay), with a
// ClusterUnhealthy Event and the reason in the status; once three are Ready
// again the pod gets its node.
TEST_F(NodeScaleScenarioTest, TooManyUnreadyNodesStopAutoscalingUntilRecovery) {
  PutGroups({sim::GroupJson("old", 0, 10, "4", "16Gi"),
             sim::GroupJson("large", 0, 10, "8", "32Gi")});
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode("old-" + std::to_string(i),
                                         Shape("old", 4000), true)
                    .ok());
  }
  clock_.SleepFor(minutes(20));
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(cluster_.SetNodeReady("old-" + std::to_string(i), false).ok());
  }
  const int64_t created = Calls("create nodes");
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("big", "6");  // only a new node of "large" takes it
  nodescale::LoopOptions options;
  options.delays.unneeded_time = minutes(1);
  options.delays.delay_after_add = Duration(0);
  Start(options);
  clock_.SleepFor(minutes(30));
  EXPECT_EQ(Calls("create nodes"), created);
  EXPECT_EQ(Calls("delete nodes"), 0);
  EXPECT_EQ(NodesWithPrefix("old-").size(), 8u);
  EXPECT_EQ(NodeOf("big"), "");
  size_t unhealthy = 0;
  for (const std::string& event : sim::Events(cluster_.store(), kNamespace)) {
    if (event.find(R"("reason":"ClusterUnhealthy")") != std::string::npos &&
        event.find("4 of 8 nodes Unready") != std::string::npos) {
      ++unhealthy;
    }
  }
  EXPECT_GE(unhealthy, 1u);
  EXPECT_NE(StatusText().find(
                "cluster is not ready for autoscaling: 4 of 8 nodes Unready"),
            std::string::npos)
      << StatusText();
  const YAML::Node health = CaStatus()["clusterWide"]["health"];
  ASSERT_TRUE(health.IsMap());
  EXPECT_EQ(health["status"].as<std::string>(), "Unhealthy");
  EXPECT_EQ(health["nodeCounts"]["registered"]["unready"]["total"].as<int>(),
            4);

  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(cluster_.SetNodeReady("old-" + std::to_string(i), true).ok());
  }
  SleepUntil([&] { return !NodeOf("big").empty(); }, minutes(2));
  EXPECT_EQ(Calls("create nodes"), created + 1);
  EXPECT_NE(NodeOf("big"), "");
}

// An unneeded Unready node goes after --scale-down-unready-time (20
// minutes), an unneeded Ready one after --scale-down-unneeded-time (10).
TEST_F(NodeScaleScenarioTest, AnUnneededUnreadyNodeGoesAfterTheUnreadyTime) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  for (const char* name : {"pool-ready", "pool-unready"}) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(name, Shape("pool", 4000), true)
                    .ok());
  }
  clock_.SleepFor(minutes(20));
  ASSERT_TRUE(cluster_.SetNodeReady("pool-unready", false).ok());
  nodescale::LoopOptions options;
  options.delays.delay_after_add = Duration(0);
  Start(options);
  clock_.SleepFor(minutes(12));
  EXPECT_EQ(NodesWithPrefix("pool-"), std::vector<std::string>{"pool-unready"});
  clock_.SleepFor(minutes(6));
  EXPECT_EQ(NodesWithPrefix("pool-"), std::vector<std::string>{"pool-unready"});
  clock_.SleepFor(minutes(4));
  EXPECT_TRUE(NodesWithPrefix("pool-").empty());
}

// --enable-csi-node-aware-scheduling: a Ready node whose CSINode lacks a
// driver its group's template has (its CSI node plugin not registered yet)
// is still starting, as Cluster Autoscaler counts it: not an empty node to
// remove. Once the driver registers the node is Ready, and unneeded it goes
// after --scale-down-unneeded-time.
TEST_F(NodeScaleScenarioTest, ANodeWithoutItsGroupsCsiDriverIsStillStarting) {
  PutGroups({sim::GroupJson("pool", 0, 10, "4", "16Gi")});
  auto register_driver = [&](const std::string& node) {
    ASSERT_TRUE(sim::CreateObject(
                    cluster_.store(), "/apis/storage.k8s.io/v1/csinodes",
                    R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode",)"
                    R"("metadata":{"name":")" +
                        node +
                        R"("},"spec":{"drivers":[{"name":"ebs.csi.aws.com",)"
                        R"("nodeID":")" +
                        node + R"(","allocatable":{"count":25}}]}})")
                    .ok());
  };
  for (const char* name : {"pool-1", "pool-2"}) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(name, Shape("pool", 4000), true)
                    .ok());
  }
  register_driver("pool-1");
  ASSERT_TRUE(sim::CreateObject(cluster_.store(),
                                "/api/v1/namespaces/default/pods",
                                sim::PodJson("busy", "3", "pool-1"))
                  .ok());
  nodescale::LoopOptions options;
  options.delays.delay_after_add = Duration(0);
  options.scale_up.csi_node_aware_scheduling = true;
  Start(options);
  clock_.SleepFor(minutes(12));
  EXPECT_EQ(NodesWithPrefix("pool-"),
            (std::vector<std::string>{"pool-1", "pool-2"}));
  register_driver("pool-2");
  clock_.SleepFor(minutes(11));
  EXPECT_EQ(NodesWithPrefix("pool-"), std::vector<std::string>{"pool-1"});
}

// Cluster API: a scale-up of two whose second machine never gets a node.
// After --max-node-provision-time the capacity is given up as Cluster
// Autoscaler gives up unregistered instances: the machine without a node is
// marked for deletion and replicas lowered by one, so the MachineSet
// deletes that machine and never the one with a node.
TEST_F(NodeScaleScenarioTest, AMachineThatNeverGetsANodeIsGivenUp) {
  CreateMachineDeployment("workers", 0, 0);
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  CreatePendingPod("web-0", "3");
  CreatePendingPod("web-1", "3");
  nodescale::LoopOptions options;
  options.scale_down_enabled = false;
  StartClusterApi(options);
  auto replicas = [&]() -> int64_t {
    Result<int64_t> read = sim::GetReplicas(
        cluster_.store(), "machinedeployment", "default", "workers");
    return read.ok() ? *read : -1;
  };
  SleepUntil([&] { return replicas() == 2; }, minutes(1));
  ASSERT_EQ(replicas(), 2);
  // Cluster API makes both machines; only one gets its node.
  CreateMachineWithNode("m-0", "workers", "n-0");
  ASSERT_TRUE(
      sim::CreateObject(
          cluster_.store(), std::string(kCapi) + "machines",
          R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
          R"("metadata":{"name":"m-1","labels":)"
          R"({"cluster.x-k8s.io/deployment-name":"workers"}},"spec":{}})")
          .ok());
  auto machine = [&](const std::string& name) {
    return sim::GetObject(cluster_.store(),
                          std::string(kCapi) + "machines/" + name)
        .value_or("");
  };
  SleepUntil([&] { return replicas() == 1; }, minutes(17));
  EXPECT_EQ(replicas(), 1);
  EXPECT_NE(machine("m-1").find("cluster.x-k8s.io/delete-machine"),
            std::string::npos);
  EXPECT_EQ(machine("m-0").find("cluster.x-k8s.io/delete-machine"),
            std::string::npos);
  EXPECT_NE(NodeOf("web-0") + NodeOf("web-1"), "");
}

namespace provreq {

constexpr char kRequests[] =
    "/apis/autoscaling.x-k8s.io/v1/namespaces/default/provisioningrequests";

// PodTemplate default/`name` of pods asking `cpu`.
::testing::AssertionResult CreatePodTemplate(sim::ObjectStore& store,
                                             const std::string& name,
                                             const std::string& cpu) {
  if (sim::CreateObject(store, "/api/v1/namespaces/default/podtemplates",
                        R"({"apiVersion":"v1","kind":"PodTemplate",)"
                        R"("metadata":{"name":")" +
                            name +
                            R"(","namespace":"default"},"template":)"
                            R"({"spec":)" +
                            PodSpecJson(cpu) + "}}")
          .ok()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "PodTemplate " << name;
}

// A check-capacity ProvisioningRequest default/`name` for `count` pods of
// PodTemplate `pod_template`.
::testing::AssertionResult CreateRequest(
    sim::ObjectStore& store, const std::string& name,
    const std::string& pod_template, int count,
    const std::string& parameters = "",
    const std::string& class_name = kube::kCheckCapacityClass) {
  if (sim::CreateObject(
          store, kRequests,
          R"({"apiVersion":"autoscaling.x-k8s.io/v1","kind":"ProvisioningRequest",)"
          R"("metadata":{"name":")" +
              name +
              R"(","namespace":"default"},"spec":{"provisioningClassName":")" +
              class_name +
              R"(","podSets":[)"
              R"({"podTemplateRef":{"name":")" +
              pod_template + R"("},"count":)" + std::to_string(count) + "}]" +
              (parameters.empty() ? "" : ",\"parameters\":" + parameters) +
              "}}")
          .ok()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "ProvisioningRequest " << name;
}

std::string RequestObject(const sim::ObjectStore& store,
                          const std::string& name) {
  return sim::GetObject(store, std::string(kRequests) + "/" + name)
      .value_or("(gone)");
}

// The condition of `type` as `status/reason` (with `message`: its
// message), or "" when absent.
std::string Condition(const sim::ObjectStore& store, const std::string& name,
                      const std::string& type, bool message = false) {
  rapidjson::Document doc;
  doc.Parse(RequestObject(store, name).c_str());
  if (!doc.IsObject() || !doc.HasMember("status")) return "";
  for (const auto& c : doc["status"]["conditions"].GetArray()) {
    if (c["type"].GetString() == type) {
      return message ? c["message"].GetString()
                     : std::string(c["status"].GetString()) + "/" +
                           c["reason"].GetString();
    }
  }
  return "";
}

// A pod of `cpu` bound to `node` ("": pending) that consumes request
// default/`request`, as Kueue admits a job's pods.
std::string ConsumingPodJson(const std::string& name, const std::string& cpu,
                             const std::string& node,
                             const std::string& request) {
  std::string pod = sim::PodJson(name, cpu, node);
  pod.insert(
      pod.find(R"("ownerReferences")"),
      R"("annotations":{"autoscaling.x-k8s.io/consume-provisioning-request":")" +
          request + R"("},)");
  return pod;
}

// `count` pending pods `prefix`0.. of `cpu` consuming request `request`.
::testing::AssertionResult CreateConsumingPods(sim::ObjectStore& store,
                                               const std::string& prefix,
                                               int count,
                                               const std::string& cpu,
                                               const std::string& request) {
  for (int i = 0; i < count; ++i) {
    const std::string name = prefix + std::to_string(i);
    if (!sim::CreateObject(store, "/api/v1/namespaces/default/pods",
                           ConsumingPodJson(name, cpu, "", request))
             .ok()) {
      return ::testing::AssertionFailure() << "pod " << name;
    }
  }
  return ::testing::AssertionSuccess();
}

// Binds default/`name` to `node`, running, as the scheduler and kubelet
// would.
::testing::AssertionResult BindPod(sim::ObjectStore& store,
                                   const std::string& name,
                                   const std::string& node) {
  rapidjson::Document bind;
  bind.Parse((R"({"spec":{"nodeName":")" + node +
              R"("},"status":{"phase":"Running"}})")
                 .c_str());
  if (store.Patch(*sim::FindResourceType("pods"), "default", name, bind).ok()) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "binding pod " << name;
}

}  // namespace provreq

void NodeScaleScenarioTest::TwoEmptySmallNodesAndAJobTemplate() {
  PutGroups({sim::GroupJson("small", 0, 10, "4", "8Gi")});
  for (const char* node : {"small-a", "small-b"}) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(node, Shape("small", 4000), true)
                    .ok());
  }
  ASSERT_TRUE(provreq::CreatePodTemplate(cluster_.store(), "job", "1"));
}

// A request and its PodTemplate come by two watches: a request made
// before its template waits for it (kTemplateArrivalGrace) and is then
// answered; one whose template never comes fails naming it, as Cluster
// Autoscaler fails it.
TEST_F(NodeScaleScenarioTest, ARequestWaitsForItsTemplateThenFailsWithout) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "early", "later", 2));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "orphan", "never", 1));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  clock_.SleepFor(seconds(11));
  EXPECT_EQ(Condition(cluster_.store(), "early", "Failed"), "");
  EXPECT_EQ(Condition(cluster_.store(), "orphan", "Failed"), "");
  ASSERT_TRUE(CreatePodTemplate(cluster_.store(), "later", "1"));
  clock_.SleepFor(seconds(10));
  EXPECT_EQ(Condition(cluster_.store(), "early", "Provisioned"),
            "True/CapacityIsFound")
      << RequestObject(cluster_.store(), "early");
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Condition(cluster_.store(), "orphan", "Failed"),
            "True/FailedToCreatePods")
      << RequestObject(cluster_.store(), "orphan");
  EXPECT_EQ(Condition(cluster_.store(), "orphan", "Failed", /*message=*/true),
            "PodTemplate default/never is not in the cluster");
}

// Kueue's check-capacity flow on two empty 4-cpu nodes: 6 pods of 1 cpu
// fit, so the request is Provisioned without a new node, and its room is
// booked for 10 minutes: the empty nodes are not removed, and a burst of
// unrelated pods gets a node of its own for what does not fit beside the
// booking. Then the booking expires and the nodes go.
TEST_F(NodeScaleScenarioTest, CheckCapacityProvisionsAndBooksTheRoom) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "job", "job", 6));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.delays.unneeded_time = minutes(1);
  options.delays.delay_after_add = seconds(0);
  Start(options);
  clock_.SleepFor(seconds(11));
  EXPECT_EQ(Condition(cluster_.store(), "job", "Provisioned"),
            "True/CapacityIsFound")
      << RequestObject(cluster_.store(), "job");
  EXPECT_EQ(Condition(cluster_.store(), "job", "Accepted"), "True/Accepted");
  clock_.SleepFor(seconds(10));  // the next loop counts it booked
  EXPECT_EQ(GlobalMetrics().Value("propscaler_provisioning_requests",
                                  {{"class", kube::kCheckCapacityClass},
                                   {"state", "provisioned"}}),
            1);
  EXPECT_EQ(Calls("create nodes"), 2) << "the test's own two";
  // Three unrelated pods of 1 cpu: two fit beside the booking, one needs a
  // node (without the booking all three would fit).
  for (int i = 0; i < 3; ++i)
    CreatePendingPod("burst-" + std::to_string(i), "1");
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Calls("create nodes"), 3);
  // The booked nodes are kept while the booking lasts.
  clock_.SleepFor(minutes(8));
  EXPECT_EQ(Calls("delete nodes"), 0);
  EXPECT_EQ(Condition(cluster_.store(), "job", "BookingExpired"), "");
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Condition(cluster_.store(), "job", "BookingExpired"),
            "True/CapacityReservationTimeExpired");
  clock_.SleepFor(seconds(10));
  EXPECT_EQ(GlobalMetrics().Value("propscaler_provisioning_requests",
                                  {{"class", kube::kCheckCapacityClass},
                                   {"state", "provisioned"}}),
            0);
  EXPECT_EQ(GlobalMetrics().Value(
                "propscaler_provisioning_requests",
                {{"class", kube::kCheckCapacityClass}, {"state", "done"}}),
            1);
}

// 20 pods of 1 cpu on 8 cpus: not provisioned, never a scale-up, and
// checked again after 1, then 2 minutes (the backoff doubling); with
// noRetry it fails at once.
TEST_F(NodeScaleScenarioTest, CheckCapacityThatDoesNotFitIsRetriedNotScaled) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "big", "job", 20));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "once", "job", 20,
                            R"({"noRetry":"true"})"));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.check_capacity.size = 10;
  Start(options);
  // The first check, to the second (scans come every 10 s).
  const std::string patches = "patch provisioningrequests/status";
  for (int i = 0; i < 30 && Calls(patches) < 2; ++i) {
    clock_.SleepFor(seconds(1));
  }
  EXPECT_EQ(Condition(cluster_.store(), "big", "Provisioned"),
            "False/CapacityIsNotFound");
  EXPECT_EQ(Condition(cluster_.store(), "once", "Failed"),
            "True/CapacityIsNotFound");
  const int64_t first = Calls(patches);
  EXPECT_EQ(first, 2);
  // Checked again at the first scan a minute after, then at the first scan
  // two minutes after that.
  clock_.SleepFor(seconds(50));
  EXPECT_EQ(Calls(patches), first) << "within the minute's backoff";
  clock_.SleepFor(seconds(21));
  EXPECT_EQ(Calls(patches), first + 1);
  clock_.SleepFor(seconds(100));
  EXPECT_EQ(Calls(patches), first + 1) << "the second wait is two minutes";
  clock_.SleepFor(seconds(40));
  EXPECT_EQ(Calls(patches), first + 2);
  EXPECT_EQ(Calls("create nodes"), 2) << "the test's own two";
}

// Kueue admitted the job: its pods carry the consume annotation. Pending,
// they trigger no scale-up (8 of them, beside 6 booked, would need more
// than the two nodes), and each is told so once; once the 6 the request
// was for run, its booking is over.
TEST_F(NodeScaleScenarioTest, ConsumingPodsLandInTheBookedRoom) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "job", "job", 6));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  clock_.SleepFor(seconds(11));
  ASSERT_EQ(Condition(cluster_.store(), "job", "Provisioned"),
            "True/CapacityIsFound");
  ASSERT_TRUE(CreateConsumingPods(cluster_.store(), "job-pod-", 8, "1", "job"));
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Calls("create nodes"), 2) << "the test's own two";
  EXPECT_EQ(CountEvents("NotTriggerScaleUp"), 8u);
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(BindPod(cluster_.store(), "job-pod-" + std::to_string(i),
                        i < 3 ? "small-a" : "small-b"));
  }
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Condition(cluster_.store(), "job", "BookingExpired"),
            "True/CapacityBookingConsumed");
  EXPECT_EQ(CountEvents("NotTriggerScaleUp"), 8u) << "once a pod";
}

// Under leader election the standby checks nothing it writes: the request
// created while it waits is answered by the leader alone, and one created
// after the leader crashed is answered by the standby once it leads.
TEST_F(NodeScaleScenarioTest, OnlyTheLeaderAnswersProvisioningRequests) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.scale_down_enabled = false;
  NodeScaleInstance* first = Start(options, {}, Election("first"));
  NodeScaleInstance* second = Start(options, {}, Election("second"));
  clock_.SleepFor(seconds(5));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "early", "job", 2));
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Condition(cluster_.store(), "early", "Provisioned"),
            "True/CapacityIsFound");
  EXPECT_EQ(Calls("patch provisioningrequests/status"), 1);
  Result<kube::Lease> lease =
      cluster_.client().GetLease(kNamespace, "propscaler");
  ASSERT_TRUE(lease.ok());
  NodeScaleInstance* leader = lease->holder == "first" ? first : second;
  NodeScaleInstance* follower = leader == first ? second : first;
  leader->Stop();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "late", "job", 2));
  clock_.SleepFor(minutes(1));
  EXPECT_TRUE(follower->elector->IsLeader());
  EXPECT_EQ(Condition(cluster_.store(), "late", "Provisioned"),
            "True/CapacityIsFound");
  EXPECT_EQ(Calls("patch provisioningrequests/status"), 2);
}

std::function<bool()> NodeScaleScenarioTest::ConditionWritten(
    const std::string& name, const std::string& type) {
  return [this, name, type] {
    return !provreq::Condition(cluster_.store(), name, type).empty();
  };
}

void NodeScaleScenarioTest::EmptyBigGroupAndAJobTemplate(int max) {
  PutGroups({sim::GroupJson("big", 0, max, "4", "16Gi")});
  ASSERT_TRUE(provreq::CreatePodTemplate(cluster_.store(), "job", "2"));
}

// Kueue's atomic flow: 8 pods of 2 cpu need 4 new 4-cpu nodes of one
// group; all 4 are asked for in one scale-up and the request is
// Provisioned as the provider accepts. Its room on the new nodes is
// booked: no second scale-up, nothing removed, and the consuming pods
// trigger none of their own. Past --max-node-provision-time nothing is
// given back: every node came.
TEST_F(NodeScaleScenarioTest, AtomicRequestGetsAllItsNodesAtOnce) {
  using namespace provreq;  // NOLINT
  EmptyBigGroupAndAJobTemplate(10);
  ASSERT_TRUE(CreateRequest(cluster_.store(), "gang", "job", 8, "",
                            kube::kBestEffortAtomicClass));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.delays.unneeded_time = minutes(1);
  Start(options);
  SleepUntil(ConditionWritten("gang", "Provisioned"), seconds(30));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "True/CapacityIsProvisioned");
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned", true),
            "Capacity is provisioned: node group big grows by 4");
  EXPECT_EQ(NodesWithPrefix("big-").size(), 4u) << "all four at once";
  ASSERT_TRUE(CreateConsumingPods(cluster_.store(), "gang-", 8, "2", "gang"));
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Calls("create nodes"), 4);
  EXPECT_EQ(Calls("delete nodes"), 0) << "the booking keeps the new nodes";
  EXPECT_EQ(CountEvents("NotTriggerScaleUp"), 8u);
  const std::vector<std::string> nodes = NodesWithPrefix("big-");
  ASSERT_EQ(nodes.size(), 4u);
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(
        BindPod(cluster_.store(), "gang-" + std::to_string(i), nodes[i / 2]));
  }
  clock_.SleepFor(minutes(16));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "BookingExpired"),
            "True/CapacityBookingConsumed");
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Failed"), "");
  EXPECT_EQ(Calls("create nodes"), 4);
  EXPECT_EQ(Calls("delete nodes"), 0);
}

// A group whose maximum leaves room for 3 of the 4 nodes: no node at all,
// Provisioned False naming why, retried after the backoff; ordinary
// pending pods still get their node from the same group.
TEST_F(NodeScaleScenarioTest, AtomicRequestLargerThanTheGroupGetsNoNode) {
  using namespace provreq;  // NOLINT
  EmptyBigGroupAndAJobTemplate(3);
  ASSERT_TRUE(CreateRequest(cluster_.store(), "gang", "job", 8, "",
                            kube::kBestEffortAtomicClass));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  const std::string patches = "patch provisioningrequests/status";
  SleepUntil([&] { return Calls(patches) > 0; }, seconds(30));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "False/CapacityIsNotFound");
  EXPECT_NE(Condition(cluster_.store(), "gang", "Provisioned", true)
                .find("big: not all pods would fit and scale-up is using "
                      "all-or-nothing strategy: 6 of 8 pods on the 3 new "
                      "nodes allowed"),
            std::string::npos)
      << Condition(cluster_.store(), "gang", "Provisioned", true);
  CreatePendingPod("web", "1");
  clock_.SleepFor(seconds(20));
  EXPECT_EQ(Calls("create nodes"), 1) << "web's node, none for the request";
  clock_.SleepFor(seconds(30));
  EXPECT_EQ(Calls(patches), 1) << "within the minute's backoff";
  SleepUntil([&] { return Calls(patches) > 1; }, seconds(30));
  EXPECT_EQ(Calls(patches), 2);
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "False/CapacityIsNotFound");
  EXPECT_EQ(Calls("create nodes"), 1);
}

// The provider makes 2 of the 4 nodes and then refuses (a quota): the
// half-filled scale-up is given back (the 2 nodes removed), the request
// told and retried; once the provider can, it gets all 4.
TEST_F(NodeScaleScenarioTest, AtomicScaleUpTheProviderRefusesIsGivenBack) {
  using namespace provreq;  // NOLINT
  EmptyBigGroupAndAJobTemplate(10);
  std::atomic<int> creates{0};
  std::atomic<bool> quota{true};
  cluster_.SetFault([&](std::string_view call) {
    if (call == "create nodes" && quota && ++creates > 2) {
      return Status(StatusCode::kPermissionDenied, "exceeded quota: nodes");
    }
    return Status::Ok();
  });
  ASSERT_TRUE(CreateRequest(cluster_.store(), "gang", "job", 8, "",
                            kube::kBestEffortAtomicClass));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  SleepUntil(ConditionWritten("gang", "Provisioned"), seconds(60));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "False/CapacityIsNotFound");
  const std::string message =
      Condition(cluster_.store(), "gang", "Provisioned", true);
  EXPECT_NE(message.find("the provider refused the scale-up"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("the 2 nodes that came are given back"),
            std::string::npos)
      << message;
  SleepUntil([&] { return NodesWithPrefix("big-").empty(); }, seconds(60));
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
  EXPECT_EQ(CountEvents("NodesGivenBack"), 1u);
  quota = false;
  // The group's backoff (5 minutes) and the request's (1 minute) pass.
  SleepUntil(
      [&] {
        return Condition(cluster_.store(), "gang", "Provisioned") ==
               "True/CapacityIsProvisioned";
      },
      minutes(8));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "True/CapacityIsProvisioned");
  EXPECT_EQ(NodesWithPrefix("big-").size(), 4u);
  cluster_.SetFault(nullptr);
}

// All 4 nodes are made but 2 never become Ready: once
// --max-node-provision-time has passed, the 2 that did are given back
// with the 2 that did not, and the request fails saying so (Kueue then
// evicts the job and asks again with a new request).
TEST_F(NodeScaleScenarioTest, AtomicNodesNotAllReadyInTimeAreGivenBack) {
  using namespace provreq;  // NOLINT
  EmptyBigGroupAndAJobTemplate(10);
  ASSERT_TRUE(CreateRequest(cluster_.store(), "gang", "job", 8, "",
                            kube::kBestEffortAtomicClass));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  SleepUntil([&] { return NodesWithPrefix("big-").size() == 4; }, seconds(30));
  const std::vector<std::string> nodes = NodesWithPrefix("big-");
  ASSERT_EQ(nodes.size(), 4u);
  ASSERT_TRUE(cluster_.SetNodeReady(nodes[0], false).ok());
  ASSERT_TRUE(cluster_.SetNodeReady(nodes[1], false).ok());
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "True/CapacityIsProvisioned");
  clock_.SleepFor(minutes(14));
  EXPECT_NE(StatusText().find("default/gang: all-or-nothing scale-up in "
                              "flight, 2 of 4 new nodes Ready"),
            std::string::npos)
      << StatusText();
  EXPECT_EQ(NodesWithPrefix("big-").size(), 4u);
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Failed"), "");
  EXPECT_EQ(Calls("create nodes"), 4) << "no second scale-up meanwhile";
  SleepUntil([&] { return NodesWithPrefix("big-").empty(); }, minutes(3));
  EXPECT_TRUE(NodesWithPrefix("big-").empty());
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Failed"),
            "True/NodesGivenBack");
  EXPECT_EQ(CountEvents("NodesGivenBack"), 1u) << "a Warning on the request";
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Failed", true),
            "only 2 of its 4 new nodes were Ready within 900s "
            "(--max-node-provision-time); the 2 nodes that came are given "
            "back");
  EXPECT_EQ(Calls("create nodes"), 4);
}

// Karpenter's disruption keeps the booked room too: two empty nodes of a
// pool that consolidates after 30 s stay while a check-capacity request's
// booking holds them, and go once it has expired.
TEST_F(NodeScaleScenarioTest, ConsolidationKeepsTheBookedRoom) {
  using namespace provreq;  // NOLINT
  ASSERT_TRUE(
      sim::PutConfigMap(
          cluster_.store(), kNamespace, kGroupsConfigMap,
          {{"node-groups.json",
            R"({"pools":[{"name":"general","disruption":{)"
            R"("consolidateAfter":"30s","budgets":[{"nodes":"100%"}]}}],)"
            R"("nodeGroups":[{"name":"small","pool":"general","price":0.3,)"
            R"("minSize":0,"maxSize":5,"template":{"allocatable":)"
            R"({"cpu":"4","memory":"16Gi","pods":"110"}}}]})"}})
          .ok());
  for (const char* node : {"small-a", "small-b"}) {
    ASSERT_TRUE(cluster_.client()
                    .CreateSimulatedNode(node, Shape("small", 4000), true)
                    .ok());
  }
  ASSERT_TRUE(CreatePodTemplate(cluster_.store(), "job", "1"));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "job", "job", 6));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  Start(options);
  SleepUntil(ConditionWritten("job", "Provisioned"), seconds(30));
  ASSERT_EQ(Condition(cluster_.store(), "job", "Provisioned"),
            "True/CapacityIsFound");
  clock_.SleepFor(minutes(9));
  EXPECT_EQ(Calls("delete nodes"), 0) << "booked: not consolidated";
  EXPECT_EQ(NodesWithPrefix("small-").size(), 2u);
  SleepUntil(ConditionWritten("job", "BookingExpired"), minutes(2));
  SleepUntil([&] { return NodesWithPrefix("small-").empty(); }, minutes(3));
  EXPECT_TRUE(NodesWithPrefix("small-").empty())
      << "empty once the booking expired";
}

// Cluster Autoscaler's batch cases (orchestrator_test.go): with
// --check-capacity-batch-processing a loop checks up to the batch size
// (three requests, batch 2: two, then the third a loop later); one that
// does not fit among them is answered in the same loop; a timebox of 0
// checks one a loop.
TEST_F(NodeScaleScenarioTest, CheckCapacityBatches) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  for (const char* name : {"a", "b", "c"}) {
    ASSERT_TRUE(CreateRequest(cluster_.store(), name, "job", 2));
  }
  auto answered = [&] {
    int count = 0;
    for (const char* name : {"a", "b", "c", "huge"}) {
      if (!Condition(cluster_.store(), name, "Provisioned").empty() ||
          !Condition(cluster_.store(), name, "Failed").empty()) {
        ++count;
      }
    }
    return count;
  };
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.scale_down_enabled = false;
  options.check_capacity.size = 2;
  Start(options);
  SleepUntil([&] { return answered() > 0; }, seconds(30));
  EXPECT_EQ(answered(), 2) << "the batch size";
  clock_.SleepFor(seconds(10));
  EXPECT_EQ(answered(), 3);
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_EQ(Condition(cluster_.store(), name, "Provisioned"),
              "True/CapacityIsFound")
        << name;
  }
}

TEST_F(NodeScaleScenarioTest, CheckCapacityBatchAnswersTheImpossibleToo) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  ASSERT_TRUE(CreateRequest(cluster_.store(), "a", "job", 2));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "huge", "job", 20));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "b", "job", 2));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.scale_down_enabled = false;
  options.check_capacity.size = 3;
  Start(options);
  SleepUntil(ConditionWritten("a", "Provisioned"), seconds(30));
  EXPECT_EQ(Condition(cluster_.store(), "a", "Provisioned"),
            "True/CapacityIsFound");
  EXPECT_EQ(Condition(cluster_.store(), "b", "Provisioned"),
            "True/CapacityIsFound");
  EXPECT_EQ(Condition(cluster_.store(), "huge", "Provisioned"),
            "False/CapacityIsNotFound");
}

TEST_F(NodeScaleScenarioTest, CheckCapacityBatchTimeboxOfZeroChecksOne) {
  using namespace provreq;  // NOLINT
  TwoEmptySmallNodesAndAJobTemplate();
  for (const char* name : {"a", "b"}) {
    ASSERT_TRUE(CreateRequest(cluster_.store(), name, "job", 2));
  }
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  options.scale_down_enabled = false;
  options.check_capacity.size = 5;
  options.check_capacity.timebox = seconds(0);
  Start(options);
  const std::string patches = "patch provisioningrequests/status";
  SleepUntil([&] { return Calls(patches) > 0; }, seconds(30));
  EXPECT_EQ(Calls(patches), 1);
  clock_.SleepFor(seconds(10));
  EXPECT_EQ(Calls(patches), 2);
}

}  // namespace
}  // namespace propscaler

namespace propscaler {
namespace {

// Karpenter NodePools in the kwok provider's ConfigMap (key nodepools.yaml)
// over its generated catalogue: a burst of 1,000 one-cpu pods gets its
// nodes in the batch window after it, each in the shape Karpenter's kwok
// provider makes (instance type, zone, capacity type, NodePool, kwok's
// instance labels, providerID kwok://NAME), every pod lands, and nothing
// more is asked for afterwards.
TEST_F(NodeScaleScenarioTest, NodePoolBurstGetsKwokShapedNodesInOneBatch) {
  ASSERT_TRUE(sim::PutConfigMap(cluster_.store(), kNamespace, kGroupsConfigMap,
                                {{"nodepools.yaml", R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  template:
    spec:
      requirements:
        - key: kubernetes.io/os
          operator: In
          values: [linux]
        - key: kubernetes.io/arch
          operator: In
          values: [amd64]
        - key: karpenter.sh/capacity-type
          operator: In
          values: [on-demand]
)"}}).ok());
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(30));
  StartOverKwokCatalogue(nodescale::LoopOptions{});
  clock_.SleepFor(seconds(5));
  for (int i = 0; i < 1000; ++i) {
    CreatePendingPod("burst-" + std::to_string(i), "1");
  }
  // The batch closes one idle second after the burst (at most 10 s).
  clock_.SleepFor(seconds(12));
  const std::vector<std::string> nodes = NodesWithPrefix("general-");
  ASSERT_FALSE(nodes.empty());
  const int64_t created = Calls("create nodes");
  EXPECT_EQ(created, static_cast<int64_t>(nodes.size()));
  // 1,000 cpu of pods: no more nodes than the largest type (256 cpu,
  // 1,024 pods) needs, four of them, and one more for rounding.
  EXPECT_LE(nodes.size(), 5u);
  for (const std::string& node : nodes) {
    const std::string json = NodeJson(node);
    EXPECT_NE(json.find(R"("providerID":"kwok://)" + node + "\""),
              std::string::npos)
        << json;
    for (const char* label :
         {R"("karpenter.sh/nodepool":"general")",
          R"("karpenter.sh/capacity-type":"on-demand")",
          R"("kubernetes.io/arch":"amd64")", R"("kubernetes.io/os":"linux")",
          R"("karpenter.kwok.sh/instance-family":)",
          R"("node.kubernetes.io/instance-type":)",
          R"("topology.kubernetes.io/zone":"test-zone-)"}) {
      EXPECT_NE(json.find(label), std::string::npos) << label << "\n" << json;
    }
  }
  clock_.SleepFor(minutes(5));
  for (int i = 0; i < 1000; i += 97) {
    EXPECT_NE(NodeOf("burst-" + std::to_string(i)), "") << i;
  }
  EXPECT_EQ(Calls("create nodes"), created);  // nothing asked twice
  EXPECT_EQ(Calls("delete nodes"), 0);
  // The pods' events say what bounds a candidate: its NodePool's limits.
  size_t bounded = 0;
  for (const std::string& event : sim::Events(cluster_.store(), "default")) {
    if (event.find("(max: its NodePool's limits)") != std::string::npos) {
      ++bounded;
    }
  }
  EXPECT_GT(bounded, 0u);
}

// A NodePool of one kwok instance type on demand, in `zone` when one is
// given, with `spec_extra` (YAML lines of its spec, two spaces in) added.
std::string OneTypeNodePool(const std::string& name, const std::string& type,
                            const std::string& zone = "",
                            const std::string& spec_extra = "") {
  std::string yaml =
      "apiVersion: karpenter.sh/v1\nkind: NodePool\n"
      "metadata:\n  name: " +
      name + "\nspec:\n" + spec_extra +
      "  template:\n    spec:\n      requirements:\n"
      "        - {key: node.kubernetes.io/instance-type, "
      "operator: In, values: [" +
      type +
      "]}\n"
      "        - {key: karpenter.sh/capacity-type, operator: "
      "In, values: [on-demand]}\n";
  if (!zone.empty()) {
    yaml +=
        "        - {key: topology.kubernetes.io/zone, operator: In, "
        "values: [" +
        zone + "]}\n";
  }
  return yaml;
}

// A NodePool (zone a only) whose requirements are narrowed to zone b
// after its nodes run: its zone-a candidates are no longer offered, so its
// nodes have drifted (Karpenter's RequirementsDrifted); each is replaced by
// a node in zone b and drained, and none is made in zone a again.
TEST_F(NodeScaleScenarioTest, NarrowedNodePoolRequirementsDriftItsNodes) {
  auto put_pool = [&](const char* zone) {
    return PutNodePools(
        OneTypeNodePool("general", "c-4x-amd64-linux", zone,
                        "  disruption:\n    consolidateAfter: Never\n"
                        "    budgets: [{nodes: \"100%\"}]\n"));
  };
  ASSERT_TRUE(put_pool("test-zone-a").ok());
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  StartOverKwokCatalogue(nodescale::LoopOptions{});
  clock_.SleepFor(seconds(5));
  for (int i = 0; i < 6; ++i) CreatePendingPod("app-" + std::to_string(i), "1");
  clock_.SleepFor(minutes(2));
  auto nodes_in = [&](const std::string& zone) {
    std::vector<std::string> out;
    for (const std::string& node : NodesWithPrefix("general-")) {
      if (NodeJson(node).find(R"("topology.kubernetes.io/zone":")" + zone +
                              "\"") != std::string::npos) {
        out.push_back(node);
      }
    }
    return out;
  };
  const std::vector<std::string> zone_a = nodes_in("test-zone-a");
  ASSERT_EQ(zone_a.size(), 2u);  // three 1-cpu pods on each 4-cpu type
  for (const std::string& node : zone_a) {
    EXPECT_NE(NodeJson(node).find(R"("propscaler.io/nodepool-hash":)"),
              std::string::npos)
        << NodeJson(node);
  }
  for (int i = 0; i < 6; ++i) EXPECT_NE(NodeOf("app-" + std::to_string(i)), "");

  ASSERT_TRUE(put_pool("test-zone-b").ok());
  clock_.SleepFor(minutes(10));
  EXPECT_TRUE(nodes_in("test-zone-a").empty());
  EXPECT_FALSE(nodes_in("test-zone-b").empty());
  EXPECT_EQ(Calls("create pods/eviction"), 6);
}

// A CapacityBuffer over a NodePool: its two 3-cpu chunks get room on the
// NodePool's nodes (one 4-cpu type allowed), as any pending pods would.
TEST_F(NodeScaleScenarioTest, BufferKeepsRoomOnANodePool) {
  ASSERT_TRUE(
      PutNodePools(OneTypeNodePool("general", "c-4x-amd64-linux")).ok());
  ASSERT_TRUE(
      CreateTemplateBuffer(cluster_.store(), "headroom", "chunk", "3", 2));
  StartOverKwokCatalogue(nodescale::LoopOptions{});
  clock_.SleepFor(seconds(5));
  EXPECT_EQ(NodesWithPrefix("general-").size(), 2u);
  EXPECT_EQ(Calls("create nodes"), 2);
  const std::string status = BufferObject(cluster_.store(), "headroom");
  EXPECT_NE(status.find(R"("reason":"FakePodsInjected")"), std::string::npos)
      << status;
  clock_.SleepFor(minutes(30));
  EXPECT_EQ(Calls("create nodes"), 2);
  EXPECT_EQ(Calls("delete nodes"), 0) << "the buffer's room is kept";
}

// An atomic ProvisioningRequest over a NodePool (one 8-cpu type in one
// zone): its 8 pods of 2 cpu get all their nodes (three each, 7.9 cpu
// allocatable) in one scale-up, and the request is Provisioned.
TEST_F(NodeScaleScenarioTest, AtomicRequestOverANodePool) {
  using namespace provreq;  // NOLINT
  ASSERT_TRUE(
      PutNodePools(OneTypeNodePool("batch", "c-8x-amd64-linux", "test-zone-a"))
          .ok());
  ASSERT_TRUE(provreq::CreatePodTemplate(cluster_.store(), "job", "2"));
  ASSERT_TRUE(CreateRequest(cluster_.store(), "gang", "job", 8, "",
                            kube::kBestEffortAtomicClass));
  nodescale::LoopOptions options;
  options.provisioning_requests = true;
  StartOverKwokCatalogue(options);
  SleepUntil(ConditionWritten("gang", "Provisioned"), seconds(30));
  EXPECT_EQ(Condition(cluster_.store(), "gang", "Provisioned"),
            "True/CapacityIsProvisioned");
  EXPECT_EQ(NodesWithPrefix("batch-").size(), 3u);
  clock_.SleepFor(minutes(2));
  EXPECT_EQ(Calls("create nodes"), 3) << "one scale-up";
}

// A deleted NodePool's nodes go: replaced by the NodePools left (here
// "spare", in zone b), under the default pool's budgets.
TEST_F(NodeScaleScenarioTest, ADeletedNodePoolsNodesAreReplaced) {
  auto pool = [](const std::string& name, int weight, const char* zone) {
    return OneTypeNodePool(name, "c-4x-amd64-linux", zone,
                           "  weight: " + std::to_string(weight) + "\n");
  };
  ASSERT_TRUE(PutNodePools(pool("main", 50, "test-zone-a") + "---\n" +
                           pool("spare", 10, "test-zone-b"))
                  .ok());
  memcluster::MemoryScheduler scheduler(&cluster_, seconds(5));
  StartOverKwokCatalogue(nodescale::LoopOptions{});
  clock_.SleepFor(seconds(5));
  for (int i = 0; i < 3; ++i) CreatePendingPod("app-" + std::to_string(i), "1");
  clock_.SleepFor(minutes(2));
  ASSERT_EQ(NodesWithPrefix("main-").size(), 1u);  // the heavier NodePool
  EXPECT_TRUE(NodesWithPrefix("spare-").empty());

  ASSERT_TRUE(PutNodePools(pool("spare", 10, "test-zone-b")).ok());
  clock_.SleepFor(minutes(10));
  EXPECT_TRUE(NodesWithPrefix("main-").empty());
  // The replacement came first (it then went empty, as no controller here
  // makes the evicted pods again).
  EXPECT_EQ(Calls("create nodes"), 2);
  EXPECT_EQ(Calls("create pods/eviction"), 3);
}

}  // namespace
}  // namespace propscaler

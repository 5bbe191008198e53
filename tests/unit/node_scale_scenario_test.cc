// Node-scale mode's whole loop (reflectors, kwok provider, taints, drains,
// status) against the in-memory cluster and its stand-in scheduler, in
// virtual time.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cluster/live_object_store.h"
#include "common/clock.h"
#include "common/health_state.h"
#include "common/stop_signal.h"
#include "kube/event_recorder.h"
#include "kube/node_taint_edit.h"
#include "kube/reflector.h"
#include "memcluster/memory_cluster.h"
#include "memcluster/memory_scheduler.h"
#include "memcluster/scenario_test.h"
#include "nodescale/provider/kwok.h"
#include "nodescale/run/loop.h"
#include "nodescale/run/loop_runner.h"

namespace propscaler {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr char kNamespace[] = "propscaler";
constexpr char kGroupsConfigMap[] = "node-groups";

class NodeScaleScenarioTest : public memcluster::ScenarioTest {
 protected:
  void TearDown() override {
    stop_.Stop();
    for (std::thread& thread : threads_) thread.join();
  }

  void Start(nodescale::LoopOptions options) {
    options.namespace_ = kNamespace;
    pods_ = std::make_unique<kube::Reflector<kube::LivePod>>(
        cluster_.client().Pods(), state_.PodSink(), "pods");
    nodes_ = std::make_unique<kube::Reflector<kube::LiveNode>>(
        cluster_.client().LiveNodes(), state_.NodeSink(), "nodes");
    provider_ = std::make_unique<nodescale::KwokProvider>(
        &cluster_.client(),
        nodescale::KwokOptions{kNamespace, kGroupsConfigMap, {}});
    loop_ = std::make_unique<nodescale::NodeScaleLoop>(
        &cluster_.client(), provider_.get(), &state_, &events_, &clock_,
        options, [] { return true; });
    threads_.push_back(clock_.StartThread([this] { pods_->Run(&stop_); }));
    threads_.push_back(clock_.StartThread([this] { nodes_->Run(&stop_); }));
    threads_.push_back(clock_.StartThread([this, options] {
      nodescale::RunEveryScanInterval(
          loop_.get(), &state_, [] { return true; }, options.scan_interval,
          &health_, &stop_);
    }));
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

  LiveObjectStore state_;
  std::unique_ptr<kube::Reflector<kube::LivePod>> pods_;
  std::unique_ptr<kube::Reflector<kube::LiveNode>> nodes_;
  std::unique_ptr<nodescale::KwokProvider> provider_;
  std::unique_ptr<nodescale::NodeScaleLoop> loop_;
  std::vector<std::thread> threads_;
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
  shape.labels[std::string(kube::kNodeGroupLabel)] = "pool";
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

}  // namespace
}  // namespace propscaler

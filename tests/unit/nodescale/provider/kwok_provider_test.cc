// The kwok provider against the in-memory cluster.
#include <gtest/gtest.h>

#include <mutex>

#include "apiserver/store_objects.h"
#include "common/clock.h"
#include "memcluster/memory_cluster.h"
#include "nodescale/provider/kwok.h"

namespace propscaler::nodescale {
namespace {

// The node as the provider was told of it: name and uid from the store.
NodeState Chosen(memcluster::MemoryCluster& cluster, const std::string& name) {
  std::optional<std::string> json =
      sim::GetObject(cluster.store(), "/api/v1/nodes/" + name);
  NodeState node;
  node.name = name;
  if (!json) return node;
  rapidjson::Document doc;
  doc.Parse(json->c_str());
  node.uid = doc["metadata"]["uid"].GetString();
  return node;
}

// A node deleted and registered again under the same name after it was
// chosen for removal is another machine: it is not deleted.
TEST(KwokProviderTest, DeletesOnlyTheNodeItChose) {
  VirtualClock clock;
  memcluster::MemoryCluster cluster(&clock);
  ASSERT_TRUE(cluster.AddNode({.name = "small-1"}).ok());
  const NodeState chosen = Chosen(cluster, "small-1");
  ASSERT_FALSE(chosen.uid.empty());
  ASSERT_TRUE(sim::DeleteNode(cluster.store(), "small-1").ok());
  ASSERT_TRUE(cluster.AddNode({.name = "small-1"}).ok());

  KwokProvider provider(&cluster.client(), &clock,
                        {.namespace_ = "kube-system"});
  NodeGroup group;
  group.name = "small";
  const Status deleted = provider.DeleteNodes(group, {&chosen});
  EXPECT_EQ(deleted.code(), StatusCode::kConflict) << deleted.message();
  EXPECT_NE(deleted.message().find("deleting node small-1 of group small"),
            std::string::npos)
      << deleted.message();
  EXPECT_EQ(sim::NodeNames(cluster.store()),
            std::vector<std::string>{"small-1"});

  // The node it sees now is deleted.
  const NodeState current = Chosen(cluster, "small-1");
  EXPECT_TRUE(provider.DeleteNodes(group, {&current}).ok());
  EXPECT_TRUE(sim::NodeNames(cluster.store()).empty());
}

// A scale-up's nodes are created a few at a time: with a server that
// answers each create after 100 ms, 20 nodes take 300 ms, not 2 s.
TEST(KwokProviderTest, CreatesAScaleUpsNodesInParallel) {
  VirtualClock clock;
  memcluster::MemoryCluster cluster(&clock);
  cluster.SetAnswerHook([&](std::string_view call) {
    if (call == "create nodes") clock.SleepFor(std::chrono::milliseconds(100));
  });
  KwokProvider provider(&cluster.client(), &clock,
                        {.namespace_ = "kube-system"});
  NodeGroup group;
  group.name = "small";
  group.declared_template = NodeTemplate{};
  const TimePoint start = clock.Now();
  const Status increased = provider.IncreaseSize(group, 20);
  ASSERT_TRUE(increased.ok()) << increased.message();
  EXPECT_EQ(clock.Now() - start, std::chrono::milliseconds(300));
  EXPECT_EQ(cluster.Calls()["create nodes"], 20);
}

// A create that fails fails the scale-up, naming the node; the nodes that
// were created count in the group's size, and no create is sent after the
// failure is seen.
TEST(KwokProviderTest, AFailedCreateIsReportedAndTheOthersCount) {
  VirtualClock clock;
  memcluster::MemoryCluster cluster(&clock);
  ASSERT_TRUE(sim::PutConfigMap(
                  cluster.store(), "kube-system", "node-groups",
                  {{"node-groups.json",
                    R"({"nodeGroups":[{"name":"small","minSize":0,)"
                    R"("maxSize":10,"template":{"allocatable":{"cpu":"4",)"
                    R"("pods":"110"}}}]})"}})
                  .ok());
  std::mutex mutex;
  int creates = 0;
  cluster.SetFault([&](std::string_view call) {
    if (call != "create nodes") return Status::Ok();
    std::lock_guard<std::mutex> lock(mutex);
    return ++creates == 2 ? Status::Unavailable("HTTP 503: injected")
                          : Status::Ok();
  });
  KwokProvider provider(&cluster.client(), &clock,
                        {.namespace_ = "kube-system",
                         .config_map = "node-groups",
                         .read_config = [&cluster] {
                           return cluster.client().GetConfigMap("kube-system",
                                                                "node-groups");
                         }});
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  const Status increased = provider.IncreaseSize(groups->at(0), 4);
  EXPECT_EQ(increased.code(), StatusCode::kUnavailable);
  EXPECT_NE(increased.message().find("creating node small-"), std::string::npos)
      << increased.message();
  groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  const int64_t sent = cluster.Calls()["create nodes"];
  EXPECT_GE(sent, 2);
  EXPECT_EQ(groups->at(0).target_size, sent - 1);
}

// A refused create (RBAC) is not sent again for every node of the
// scale-up: at most one a thread in flight.
TEST(KwokProviderTest, ARefusedScaleUpStopsSendingCreates) {
  VirtualClock clock;
  memcluster::MemoryCluster cluster(&clock);
  cluster.SetFault([](std::string_view call) {
    return call == "create nodes" ? Status(StatusCode::kPermissionDenied,
                                           "nodes is forbidden: injected")
                                  : Status::Ok();
  });
  KwokProvider provider(&cluster.client(), &clock,
                        {.namespace_ = "kube-system"});
  NodeGroup group;
  group.name = "small";
  group.declared_template = NodeTemplate{};
  const Status increased = provider.IncreaseSize(group, 50);
  EXPECT_EQ(increased.code(), StatusCode::kPermissionDenied);
  EXPECT_LE(cluster.Calls()["create nodes"], 8);
}

// kwok's DecreaseTargetSize gives up instances that have no Node for
// good: an unregistered group's instance is no longer counted and never
// created, and a node created but never seen is deleted and not counted;
// a decrease beyond them is refused with nothing changed.
TEST(KwokProviderTest, DecreaseTargetSizeForgetsInstancesWithoutANode) {
  VirtualClock clock;
  memcluster::MemoryCluster cluster(&clock);
  ASSERT_TRUE(sim::PutConfigMap(
                  cluster.store(), "kube-system", "node-groups",
                  {{"node-groups.json",
                    R"({"nodeGroups":[{"name":"ghost","minSize":0,)"
                    R"("maxSize":10,"template":{"allocatable":{"cpu":"4",)"
                    R"("pods":"110"}}},{"name":"small","minSize":0,)"
                    R"("maxSize":10,"template":{"allocatable":{"cpu":"4",)"
                    R"("pods":"110"}}}]})"}})
                  .ok());
  KwokProvider provider(&cluster.client(), &clock,
                        {.namespace_ = "kube-system",
                         .config_map = "node-groups",
                         .read_config =
                             [&cluster] {
                               return cluster.client().GetConfigMap(
                                   "kube-system", "node-groups");
                             },
                         .unregistered_groups = {"ghost"}});
  auto sizes = [&]() -> std::pair<int64_t, int64_t> {
    Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
    if (!groups.ok()) return {-1, -1};
    return {groups->at(0).target_size, groups->at(1).target_size};
  };
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  ASSERT_TRUE(provider.IncreaseSize(groups->at(0), 2).ok());
  ASSERT_TRUE(provider.IncreaseSize(groups->at(1), 1).ok());
  EXPECT_EQ(cluster.Calls()["create nodes"], 1);
  EXPECT_EQ(sizes(), std::make_pair(int64_t{2}, int64_t{1}));

  const Status refused = provider.DecreaseTargetSize(groups->at(0), 3, {});
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.message(),
            "decreasing the target of node group ghost by 3: only 2 of its "
            "instances have no node; the rest are registered");
  EXPECT_EQ(sizes(), std::make_pair(int64_t{2}, int64_t{1}));

  ASSERT_TRUE(provider.DecreaseTargetSize(groups->at(0), 1, {}).ok());
  EXPECT_EQ(sizes(), std::make_pair(int64_t{1}, int64_t{1}));
  // The small node was created (the watch has not shown it: NodeGroups is
  // given no nodes); given up, it is deleted and not counted again.
  ASSERT_EQ(sim::NodeNames(cluster.store()).size(), 1u);
  ASSERT_TRUE(provider.DecreaseTargetSize(groups->at(1), 1, {}).ok());
  EXPECT_TRUE(sim::NodeNames(cluster.store()).empty());
  EXPECT_EQ(sizes(), std::make_pair(int64_t{1}, int64_t{0}));
  EXPECT_EQ(cluster.Calls()["create nodes"], 1);
}

}  // namespace
}  // namespace propscaler::nodescale

// The kwok provider against the in-memory cluster.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>

#include "apiserver/store_objects.h"
#include "common/clock.h"
#include "memcluster/memory_cluster.h"
#include "nodescale/domain/kwok_catalogue.h"
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

namespace propscaler::nodescale {
namespace {

// A karpenter.sh/v1 NodePool as the server serves it, of the one kwok
// type c-1x-amd64-linux on demand, with `spec_extra` added to its spec.
kube::RawObject ServedNodePool(const std::string& name,
                               const std::string& resource_version,
                               const std::string& spec_extra = "") {
  return {"", name, resource_version,
          R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool",)"
          R"("metadata":{"name":")" +
              name + R"(","resourceVersion":")" + resource_version +
              R"("},"spec":{)" + spec_extra +
              R"("template":{"spec":{"nodeClassRef":{"group":)"
              R"("karpenter.kwok.sh","kind":"KWOKNodeClass","name":"default"},)"
              R"("requirements":[{"key":"node.kubernetes.io/instance-type",)"
              R"("operator":"In","values":["c-1x-amd64-linux"]},)"
              R"({"key":"karpenter.sh/capacity-type","operator":"In",)"
              R"("values":["on-demand"]}]}}}})"};
}

class KwokClusterNodePoolsTest : public testing::Test {
 protected:
  KwokProvider Provider(std::function<Result<kube::ConfigMap>()> read_config =
                            [] {
                              return Result<kube::ConfigMap>(Status::NotFound(
                                  "configmap kube-system/groups not found"));
                            }) {
    KwokOptions options{.namespace_ = "kube-system", .config_map = "groups"};
    options.read_config = std::move(read_config);
    options.instance_types = KwokDefaultInstanceTypes();
    options.cluster_node_pools = [this] { return served_; };
    return KwokProvider(&cluster_.client(), &clock_, std::move(options));
  }

  // The NodePools' names the provider plans for.
  static std::vector<std::string> PoolNames(const KwokProvider& provider) {
    std::vector<std::string> names;
    if (provider.NodePools() == nullptr) return names;
    for (const NodePoolSpec& pool : provider.NodePools()->pools) {
      names.push_back(pool.name);
    }
    return names;
  }

  VirtualClock clock_;
  memcluster::MemoryCluster cluster_{&clock_};
  std::vector<kube::RawObject> served_;
};

// The cluster's NodePools need no ConfigMap: each candidate of theirs is a
// group (one type, on demand, in each of the catalogue's zones).
TEST_F(KwokClusterNodePoolsTest, ClusterNodePoolsNeedNoConfigMap) {
  served_ = {ServedNodePool("general", "7")};
  KwokProvider provider = Provider();
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  ASSERT_FALSE(groups->empty());
  for (const NodeGroup& group : *groups) {
    EXPECT_TRUE(group.name.starts_with("general.")) << group.name;
    EXPECT_EQ(
        group.declared_template->labels.at("node.kubernetes.io/instance-type"),
        "c-1x-amd64-linux");
  }
  EXPECT_EQ(PoolNames(provider), std::vector<std::string>{"general"});
}

// A node is named as Karpenter names a NodeClaim's, <nodepool>-<5 random
// characters>, and a long NodePool name is cut so that the name still
// fits kubernetes.io/hostname (63 characters): the server takes the node.
TEST_F(KwokClusterNodePoolsTest, NodesAreNamedForTheirNodePoolAndFitALabel) {
  const std::string long_name(60, 'p');
  served_ = {ServedNodePool("general", "7"), ServedNodePool(long_name, "8")};
  KwokProvider provider = Provider();
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  std::set<std::string> grown;
  for (const NodeGroup& group : *groups) {
    if (!grown.insert(group.pool).second) continue;
    const Status increased = provider.IncreaseSize(group, 1);
    ASSERT_TRUE(increased.ok()) << group.name << ": " << increased.message();
  }
  const std::vector<std::string> names = sim::NodeNames(cluster_.store());
  ASSERT_EQ(names.size(), 2u);
  for (const std::string& name : names) {
    EXPECT_LE(name.size(), 63u) << name;
    const std::string prefix =
        name.starts_with("general-") ? "general-" : std::string(57, 'p') + "-";
    EXPECT_TRUE(name.starts_with(prefix)) << name;
    EXPECT_EQ(name.size(), prefix.size() + 5) << name;
  }
}

// A node whose NodePool was deleted, or no longer offers its candidate,
// is in a retired group of its own (its nodes have drifted; it never
// grows); a node of a NodePool refused as it reads now is left as it is.
TEST_F(KwokClusterNodePoolsTest, NodesOfGoneCandidatesAreInRetiredGroups) {
  auto node = [](const std::string& name, const std::string& pool,
                 const std::string& group) {
    LiveNode live;
    live.state.name = name;
    live.state.labels = {
        {"karpenter.sh/nodepool", pool},
        {"propscaler.io/node-group", group},
        {"node.kubernetes.io/instance-type", "c-2x-amd64-linux"},
        {"topology.kubernetes.io/zone", "test-zone-a"},
        {"karpenter.sh/capacity-type", "on-demand"}};
    return live;
  };
  SharedNodes nodes;
  nodes.push_back(node("general-aaaaa", "general",
                       "general.c-2x-amd64-linux.test-zone-a.on-demand"));
  nodes.push_back(
      node("old-bbbbb", "old", "old.c-2x-amd64-linux.test-zone-a.on-demand"));
  nodes.push_back(node("heavy-ccccc", "heavy",
                       "heavy.c-2x-amd64-linux.test-zone-a.on-demand"));
  served_ = {ServedNodePool("general", "7"),
             ServedNodePool("heavy", "8", R"("weight":500,)")};
  KwokProvider provider = Provider();
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups(nodes);
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  std::map<std::string, const NodeGroup*> retired;
  for (const NodeGroup& group : *groups) {
    if (!group.retired.empty()) retired[group.name] = &group;
  }
  ASSERT_EQ(retired.size(), 2u);
  const NodeGroup* general =
      retired.at("general.c-2x-amd64-linux.test-zone-a.on-demand");
  EXPECT_EQ(general->pool, "general");
  EXPECT_EQ(general->retired,
            "NodePool general no longer offers group "
            "general.c-2x-amd64-linux.test-zone-a.on-demand (its requirements "
            "or the catalogue changed)");
  EXPECT_EQ(general->target_size, 1);
  EXPECT_EQ(general->max_size, 1);
  EXPECT_GT(general->price.value_or(0), 0);  // the catalogue's offering
  const NodeGroup* old =
      retired.at("old.c-2x-amd64-linux.test-zone-a.on-demand");
  EXPECT_EQ(old->retired, "NodePool old no longer exists");
  EXPECT_EQ(old->pool, "");  // the default pool's budgets

  // A retired group's last node, deleted but still in the watch, leaves
  // no group behind (and no crash).
  ASSERT_TRUE(provider.DeleteNodes(*old, {&nodes[1].state}).ok());
  groups = provider.NodeGroups(nodes);
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  for (const NodeGroup& group : *groups) {
    EXPECT_NE(group.name, "old.c-2x-amd64-linux.test-zone-a.on-demand");
  }
}

// Without NodePools in the cluster, a missing ConfigMap is still an error.
TEST_F(KwokClusterNodePoolsTest, NoNodePoolAndNoConfigMapIsAnError) {
  KwokProvider provider =
      Provider([] { return Result<kube::ConfigMap>(kube::ConfigMap{}); });
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_FALSE(groups.ok());
  EXPECT_NE(groups.status().message().find("no NodePool in the cluster"),
            std::string::npos)
      << groups.status().message();
}

// A NodePool the server admitted but propscaler refuses (a CEL rule the
// server did not run) is left out, and the others are planned for.
TEST_F(KwokClusterNodePoolsTest, ARefusedNodePoolIsLeftOutTheOthersPlanned) {
  served_ = {ServedNodePool("general", "7"),
             ServedNodePool("heavy", "8", R"("weight":500,)")};
  KwokProvider provider = Provider();
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  EXPECT_EQ(PoolNames(provider), std::vector<std::string>{"general"});
  for (const NodeGroup& group : *groups) {
    EXPECT_FALSE(group.name.starts_with("heavy.")) << group.name;
  }
}

// A change to a NodePool (a new resourceVersion) is planned for at the
// next loop; one deleted is gone.
TEST_F(KwokClusterNodePoolsTest, ChangedAndDeletedNodePoolsAreFollowed) {
  served_ = {ServedNodePool("general", "7"), ServedNodePool("spare", "8")};
  KwokProvider provider = Provider();
  ASSERT_TRUE(provider.NodeGroups({}).ok());
  EXPECT_EQ(PoolNames(provider),
            (std::vector<std::string>{"general", "spare"}));
  served_ = {ServedNodePool("general", "9", R"("weight":20,)")};
  ASSERT_TRUE(provider.NodeGroups({}).ok());
  ASSERT_EQ(PoolNames(provider), std::vector<std::string>{"general"});
  EXPECT_EQ(provider.NodePools()->pools.front().weight, 20);
}

// One name in the ConfigMap's nodepools.yaml and in the cluster: which one
// is meant cannot be told, so the loop says so rather than pick.
TEST_F(KwokClusterNodePoolsTest, ANodePoolInBothPlacesIsRefused) {
  served_ = {ServedNodePool("general", "7")};
  const std::string text = ServedNodePool("general", "1").json;
  KwokProvider provider = Provider([text] {
    kube::ConfigMap config;
    config.data["nodepools.yaml"] = text;
    return Result<kube::ConfigMap>(config);
  });
  Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
  ASSERT_FALSE(groups.ok());
  EXPECT_NE(groups.status().message().find(
                "NodePool general is in the cluster and also in configmap "
                "kube-system/groups key nodepools.yaml"),
            std::string::npos)
      << groups.status().message();
}

}  // namespace
}  // namespace propscaler::nodescale

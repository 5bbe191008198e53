// The kwok provider against the in-memory cluster.
#include <gtest/gtest.h>

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

  KwokProvider provider(&cluster.client(), {.namespace_ = "kube-system"});
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

}  // namespace
}  // namespace propscaler::nodescale

#include "cluster/node_store.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace propscaler {
namespace {

kube::NodeInfo Node(std::string name, int64_t millis, bool ready = true,
                    bool unschedulable = false) {
  return kube::NodeInfo{std::move(name), millis, unschedulable, ready};
}

TEST(NodeStoreTest, CountsRoundExactSumsUp) {
  NodeStore store;
  EXPECT_TRUE(store.Replace(
      {Node("a", 1500), Node("b", 1500), Node("c", 1500, /*ready=*/false)}));
  EXPECT_EQ(store.Counts(), (ClusterCounts{3, 2, 5, 3}));
}

TEST(NodeStoreTest, UpsertAndRemoveKeepTotals) {
  NodeStore store;
  store.Replace({Node("a", 4000), Node("b", 4000)});
  EXPECT_TRUE(store.Upsert(Node("b", 4000, true, /*unschedulable=*/true)));
  EXPECT_EQ(store.Counts(), (ClusterCounts{2, 1, 8, 4}));
  EXPECT_FALSE(store.Upsert(Node("b", 4000, true, true)));  // no change
  EXPECT_TRUE(store.Upsert(Node("c", 3500)));
  EXPECT_EQ(store.Counts(), (ClusterCounts{3, 2, 12, 8}));
  EXPECT_TRUE(store.Remove("a"));
  EXPECT_FALSE(store.Remove("missing"));
  EXPECT_EQ(store.Counts(), (ClusterCounts{2, 1, 8, 4}));
  EXPECT_EQ(store.size(), 2u);
}

TEST(NodeStoreTest, ReplaceForgetsNodesNotListed) {
  NodeStore store;
  store.Replace({Node("a", 1000), Node("b", 1000)});
  store.Replace({Node("b", 1000)});
  EXPECT_EQ(store.Counts(), (ClusterCounts{1, 1, 1, 1}));
}

// A list staged page by page counts only once committed; a list that
// stopped half-way is dropped when the next one starts, and events keep
// applying to the current counts meanwhile.
TEST(NodeStoreTest, StagedPagesCountOnlyWhenCommitted) {
  NodeStore store;
  store.Replace({Node("a", 1000)});
  store.Stage({Node("x", 1000), Node("y", 1000)}, /*first=*/true);
  EXPECT_EQ(store.Counts(), (ClusterCounts{1, 1, 1, 1}));
  store.Upsert(Node("b", 1000));
  EXPECT_EQ(store.Counts(), (ClusterCounts{2, 2, 2, 2}));
  // The unfinished list is dropped; the new one has two pages.
  store.Stage({Node("a", 2000)}, /*first=*/true);
  store.Stage({Node("c", 2000, /*ready=*/false)}, /*first=*/false);
  EXPECT_EQ(store.Counts(), (ClusterCounts{2, 2, 2, 2}));
  EXPECT_TRUE(store.Commit());
  EXPECT_EQ(store.Counts(), (ClusterCounts{2, 1, 4, 2}));
  EXPECT_EQ(store.size(), 2u);
}

// Thousands of nodes listed in pages, then random adds, changes and
// removals: the counts always equal those of a plain map of the same nodes.
TEST(NodeStoreTest, AgreesWithAMapThroughRandomChanges) {
  std::mt19937 random(42);
  std::map<std::string, kube::NodeInfo> model;
  auto random_node = [&](int index) {
    return Node("node-" + std::to_string(index), 250 * (1 + random() % 64),
                random() % 5 != 0, random() % 7 == 0);
  };
  auto counts_of_model = [&] {
    NodeStore fresh;
    std::vector<kube::NodeInfo> nodes;
    for (const auto& [name, node] : model) nodes.push_back(node);
    fresh.Replace(nodes);
    return fresh.Counts();
  };
  NodeStore store;
  for (int page = 0; page < 10; ++page) {
    std::vector<kube::NodeInfo> nodes;
    for (int i = page * 500; i < (page + 1) * 500; ++i) {
      nodes.push_back(random_node(i));
      model[nodes.back().name] = nodes.back();
    }
    store.Stage(std::move(nodes), page == 0);
  }
  store.Commit();
  ASSERT_EQ(store.size(), 5000u);
  int64_t cpu = 0;
  for (const auto& [name, node] : model) cpu += node.cpu_millis;
  EXPECT_EQ(store.Counts().total_cores, (cpu + 999) / 1000);
  for (int step = 0; step < 20000; ++step) {
    const int index = static_cast<int>(random() % 8000);
    const std::string name = "node-" + std::to_string(index);
    if (random() % 3 == 0) {
      const bool present = model.erase(name) == 1;
      EXPECT_EQ(store.Remove(name), present) << name;
    } else {
      kube::NodeInfo node = random_node(index);
      model[name] = node;
      store.Upsert(node);
    }
    if (step % 1000 == 0) {
      ASSERT_EQ(store.size(), model.size());
      ASSERT_EQ(store.Counts(), counts_of_model());
    }
  }
  EXPECT_EQ(store.size(), model.size());
  EXPECT_EQ(store.Counts(), counts_of_model());
}

TEST(MappedArrayTest, GrowsAcrossPagesAndKeepsOrderOnInsertAndErase) {
  MappedArray<int64_t> array;
  for (int64_t i = 0; i < 10000; ++i) array.push_back(2 * i);
  array.insert(0, -1);
  array.insert(5000, 12345);
  array.erase(1);
  ASSERT_EQ(array.size(), 10001u);
  EXPECT_EQ(array[0], -1);
  EXPECT_EQ(array[1], 2);
  EXPECT_EQ(array[4999], 12345);
  EXPECT_EQ(array[10000], 19998);
  MappedArray<int64_t> moved = std::move(array);
  EXPECT_TRUE(array.empty());
  EXPECT_EQ(moved.size(), 10001u);
  moved.truncate(3);
  EXPECT_EQ(moved.size(), 3u);
}

}  // namespace
}  // namespace propscaler

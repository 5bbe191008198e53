#include "cluster/node_store.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace propscaler

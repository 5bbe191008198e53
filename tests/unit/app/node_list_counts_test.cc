#include "app/node_list_counts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace propscaler {
namespace {

constexpr char kNodeList[] = R"({"kind":"NodeList","items":[
 {"metadata":{"name":"a","labels":{"pool":"x"}},
  "status":{"allocatable":{"cpu":"1500m","pods":"110"},
            "conditions":[{"type":"Ready","status":"True"}]}},
 {"metadata":{"name":"b","labels":{"pool":"x"}},
  "spec":{"unschedulable":true},
  "status":{"allocatable":{"cpu":"1500m","pods":"110"},
            "conditions":[{"type":"Ready","status":"True"}]}},
 {"metadata":{"name":"c","labels":{"pool":"x"}},
  "status":{"allocatable":{"cpu":"1500m","pods":"110"},
            "conditions":[{"type":"Ready","status":"False"}]}},
 {"metadata":{"name":"d","labels":{"pool":"y"}},
  "status":{"allocatable":{"cpu":"8","pods":"110"},
            "conditions":[{"type":"Ready","status":"True"}]}}]})";

TEST(CountNodeListJsonTest, CountsLikeReplicaMode) {
  Result<NodeListCounts> all = CountNodeListJson(kNodeList, LabelSelector());
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->listed, 4);
  EXPECT_EQ(all->counts, (ClusterCounts{4, 2, 13, 10}));  // 12.5 -> 13
  Result<LabelSelector> pool_x = LabelSelector::Parse("pool=x");
  ASSERT_TRUE(pool_x.ok());
  Result<NodeListCounts> x = CountNodeListJson(kNodeList, *pool_x);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->listed, 4);
  EXPECT_EQ(x->counts, (ClusterCounts{3, 1, 5, 2}));  // 4.5 -> 5, 1.5 -> 2
}

TEST(CountNodeListJsonTest, ExcludedTaintsMakeNodesNotSchedulable) {
  constexpr char kTainted[] = R"({"items":[
 {"metadata":{"name":"a"},
  "spec":{"taints":[{"key":"node.kubernetes.io/unreachable","effect":"NoExecute"}]},
  "status":{"allocatable":{"cpu":"2"},
            "conditions":[{"type":"Ready","status":"True"}]}},
 {"metadata":{"name":"b"},
  "spec":{"taints":[{"key":"node.kubernetes.io/unreachable","effect":"NoSchedule"}]},
  "status":{"allocatable":{"cpu":"3"},
            "conditions":[{"type":"Ready","status":"True"}]}},
 {"metadata":{"name":"c"},
  "status":{"allocatable":{"cpu":"4"},
            "conditions":[{"type":"Ready","status":"True"}]}}]})";
  Result<NodeListCounts> off = CountNodeListJson(kTainted, LabelSelector());
  ASSERT_TRUE(off.ok()) << off.status().message();
  EXPECT_EQ(off->counts, (ClusterCounts{3, 3, 9, 9}));

  Result<TaintFilter> any_effect =
      TaintFilter::Parse("node.kubernetes.io/unreachable");
  ASSERT_TRUE(any_effect.ok());
  Result<NodeListCounts> both =
      CountNodeListJson(kTainted, LabelSelector(), *any_effect);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->counts, (ClusterCounts{3, 1, 9, 4}));

  Result<TaintFilter> no_execute =
      TaintFilter::Parse("node.kubernetes.io/unreachable:NoExecute");
  ASSERT_TRUE(no_execute.ok());
  Result<NodeListCounts> one =
      CountNodeListJson(kTainted, LabelSelector(), *no_execute);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->counts, (ClusterCounts{3, 2, 9, 7}));
}

TEST(CountNodeListJsonTest, ErrorsNameTheField) {
  Result<NodeListCounts> bad = CountNodeListJson(
      R"({"items":[{"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"4x"}}}]})",
      LabelSelector());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("items[0].status.allocatable.cpu"),
            std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace propscaler

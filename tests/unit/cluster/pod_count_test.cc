// Replica mode proportional to pods (issue 46, part 1): the params fields,
// CPA's rounding and min/max rules applied to the pod count, the count
// kept from the pods' watch, and the flags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/replica_options.h"
#include "cluster/pod_count_store.h"
#include "kube/wire/counted_pod_json.h"
#include "replicas/arithmetic.h"
#include "replicas/params.h"

namespace propscaler {
namespace {

ClusterCounts WithPods(int64_t nodes, int64_t cores, int64_t pods) {
  return {.total_nodes = nodes,
          .schedulable_nodes = nodes,
          .total_cores = cores,
          .schedulable_cores = cores,
          .pods = pods};
}

TEST(PodParamsTest, PodsPerReplicaAloneIsValidAndCpaFieldsStay) {
  Result<Params> params = ParseParams({{"linear", R"({"podsPerReplica":50})"}});
  ASSERT_TRUE(params.ok()) << params.status().message();
  const auto& linear = std::get<LinearParams>(*params);
  EXPECT_EQ(linear.pods_per_replica, 50);
  EXPECT_EQ(linear.cores_per_replica, 0);
  EXPECT_TRUE(UsesPods(*params));

  Result<Params> cpa = ParseParams({{"linear", R"({"coresPerReplica":256})"}});
  ASSERT_TRUE(cpa.ok());
  EXPECT_FALSE(UsesPods(*cpa));
  EXPECT_FALSE(std::get<LinearParams>(*cpa).pods_per_replica.has_value());
}

TEST(PodParamsTest, PodsPerReplicaAtOrBelowZeroNamesTheValue) {
  for (const std::string value : {"0", "-5", "-0.5"}) {
    Result<Params> params =
        ParseParams({{"linear", R"({"coresPerReplica":256,"podsPerReplica":)" +
                                    value + "}"}});
    ASSERT_FALSE(params.ok()) << value;
    EXPECT_NE(params.status().message().find("linear.podsPerReplica"),
              std::string::npos)
        << params.status().message();
    EXPECT_NE(params.status().message().find("got " + value), std::string::npos)
        << params.status().message();
  }
  Result<Params> text =
      ParseParams({{"linear", R"({"podsPerReplica":"fifty"})"}});
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("linear.podsPerReplica"),
            std::string::npos)
      << text.status().message();
  // Nothing to count at all is still CPA's error, naming the new field.
  Result<Params> none = ParseParams({{"linear", R"({"min":2})"}});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("podsPerReplica"), std::string::npos)
      << none.status().message();
}

TEST(PodParamsTest, LadderPodsToReplicas) {
  Result<Params> params = ParseParams(
      {{"ladder", R"({"podsToReplicas":[[500,4],[0,1],[100,2]]})"}});
  ASSERT_TRUE(params.ok()) << params.status().message();
  EXPECT_TRUE(UsesPods(*params));
  EXPECT_EQ(std::get<LadderParams>(*params).pods_to_replicas,
            (std::vector<LadderStep>{{0, 1}, {100, 2}, {500, 4}}));
  Result<Params> bad =
      ParseParams({{"ladder", R"({"podsToReplicas":[[100,-1]]})"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("ladder.podsToReplicas[0]"),
            std::string::npos)
      << bad.status().message();
}

// CPA's arithmetic on the pod count: ceil(pods / podsPerReplica), capped
// at max, raised to min (0 meaning 1), combined with cores and nodes by
// the largest.
TEST(PodArithmeticTest, LinearAsCpaRoundsAndCombines) {
  struct Case {
    const char* name;
    LinearParams params;
    ClusterCounts counts;
    int64_t replicas;
  };
  const std::vector<Case> cases = {
      {"NoPodsIsOne", {.pods_per_replica = 100}, WithPods(3, 12, 0), 1},
      {"RoundsUp", {.pods_per_replica = 100}, WithPods(3, 12, 101), 2},
      {"Exact", {.pods_per_replica = 100}, WithPods(3, 12, 300), 3},
      {"Fraction", {.pods_per_replica = 2.5}, WithPods(3, 12, 6), 3},
      {"CappedAtMax",
       {.pods_per_replica = 10, .max = 4},
       WithPods(3, 12, 1000),
       4},
      {"RaisedToMin",
       {.pods_per_replica = 100, .min = 3},
       WithPods(3, 12, 10),
       3},
      {"CoresWin",
       {.cores_per_replica = 4, .pods_per_replica = 100},
       WithPods(3, 40, 150),
       10},
      {"PodsWin",
       {.cores_per_replica = 256,
        .nodes_per_replica = 16,
        .pods_per_replica = 1000,
        .prevent_single_point_failure = true},
       WithPods(40, 160, 12000),
       12},
      // Virtual-kubelet's thousands of cores stay out: pods alone decide.
      {"HugeNodeCountsNothing",
       {.pods_per_replica = 500},
       WithPods(2, 100000, 900),
       2},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(LinearReplicas(c.params, c.counts), c.replicas) << c.name;
    EXPECT_EQ(DesiredReplicas(Params(c.params), c.counts), c.replicas)
        << c.name;
  }
}

TEST(PodArithmeticTest, LadderLooksUpThePodsAndTakesTheLargest) {
  const LadderParams params{.nodes_to_replicas = {{1, 1}, {10, 3}},
                            .pods_to_replicas = {{0, 1}, {100, 2}, {500, 4}}};
  EXPECT_EQ(LadderReplicas(params, WithPods(2, 8, 0)), 1);
  EXPECT_EQ(LadderReplicas(params, WithPods(2, 8, 99)), 1);
  EXPECT_EQ(LadderReplicas(params, WithPods(2, 8, 100)), 2);
  EXPECT_EQ(LadderReplicas(params, WithPods(2, 8, 5000)), 4);
  EXPECT_EQ(LadderReplicas(params, WithPods(12, 48, 100)), 3);
}

TEST(PodArithmeticTest, DescribedOnlyWhenCounted) {
  EXPECT_EQ(DescribeCounts(WithPods(2, 8, 7)),
            "nodes 2/2 schedulable, cores 8/8 schedulable, pods 7");
  ClusterCounts no_pods = WithPods(2, 8, 0);
  no_pods.pods.reset();
  EXPECT_EQ(DescribeCounts(no_pods),
            "nodes 2/2 schedulable, cores 8/8 schedulable");
}

// Running and Pending pods count (and one with no phase yet); Succeeded
// and Failed do not; a pod that finishes leaves the count.
TEST(PodCountStoreTest, CountsRunningAndPendingAndFollowsChanges) {
  const kube::ListWatchCodec<kube::CountedPod> codec = kube::CountedPodCodec();
  Result<kube::ListPage<kube::CountedPod>> page = codec.decode_list(
      R"({"metadata":{"resourceVersion":"5"},"items":[)"
      R"({"metadata":{"namespace":"a","name":"run"},"status":{"phase":"Running"}},)"
      R"({"metadata":{"namespace":"a","name":"wait"},"status":{"phase":"Pending"}},)"
      R"({"metadata":{"namespace":"b","name":"new"}},)"
      R"({"metadata":{"namespace":"a","name":"done"},"status":{"phase":"Succeeded"}},)"
      R"({"metadata":{"namespace":"a","name":"bad"},"status":{"phase":"Failed"}}]})");
  ASSERT_TRUE(page.ok()) << page.status().message();
  PodCountStore store;
  int changes = 0;
  kube::ReflectorSink<kube::CountedPod> sink =
      store.Sink([&changes] { ++changes; });
  sink.replace(page->items);
  EXPECT_EQ(store.Count(), 3);
  sink.upsert({"a/run", false});  // finished
  EXPECT_EQ(store.Count(), 2);
  sink.upsert({"a/wait", true});  // Pending -> Running: the same count
  EXPECT_EQ(store.Count(), 2);
  EXPECT_EQ(changes, 1);
  sink.remove({"b/new", true});
  sink.remove({"b/gone", true});
  EXPECT_EQ(store.Count(), 1);
  EXPECT_EQ(changes, 2);
  sink.stage({{"c/x", true}}, true);
  sink.stage({{"c/y", true}, {"c/z", false}}, false);
  EXPECT_EQ(store.Count(), 1) << "staged, not yet committed";
  sink.commit();
  EXPECT_EQ(store.Count(), 2);
}

ReplicaFlags PodFlags(const std::string& selector, const std::string& ns) {
  ReplicaFlags flags;
  flags.target = "deployment/coredns";
  flags.configmap = "coredns-autoscaler";
  flags.namespace_ = "kube-system";
  flags.pod_selector = selector;
  flags.pod_namespace = ns;
  return flags;
}

TEST(PodFlagsTest, SelectorAndNamespaceAreCheckedNamingTheValue) {
  Result<AutoscalerOptions> ok =
      BuildReplicaOptions(PodFlags("app=web,tier!=batch", "shop"), "", "");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->pod_selector, "app=web,tier!=batch");
  EXPECT_EQ(ok->pod_namespace, "shop");
  for (const auto& [selector, ns, want] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"app in (web", "", "--pod-selector"},
           {"", "shop", "--pod-namespace=shop without --pod-selector"},
           {"app=web", "Shop_1", "Shop_1"}}) {
    Result<AutoscalerOptions> bad =
        BuildReplicaOptions(PodFlags(selector, ns), "", "");
    ASSERT_FALSE(bad.ok()) << selector << " " << ns;
    EXPECT_NE(bad.status().message().find(want), std::string::npos)
        << bad.status().message();
  }
}

}  // namespace
}  // namespace propscaler

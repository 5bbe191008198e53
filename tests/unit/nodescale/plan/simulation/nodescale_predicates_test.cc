#include <gtest/gtest.h>

#include "nodescale/plan/simulation/predicates.h"
#include "nodescale/plan/simulation/snapshot.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using Op = NodeSelectorRequirement::Op;

TEST(NodescaleResourcesTest, FitsChecksEveryResourceAndPodSlots) {
  Resources free = Res(1000, 1 * kGi, 2);
  EXPECT_TRUE(Fits(Res(1000, 1 * kGi, 1), free));
  EXPECT_FALSE(Fits(Res(1001, 1, 1), free));
  EXPECT_FALSE(Fits(Res(1, 1 * kGi + 1, 1), free));
  EXPECT_FALSE(Fits(Res(1, 1, 3), free));
  EXPECT_EQ(FirstShortResource(Res(1, 1, 3), free), "pods");
}

TEST(NodescaleResourcesTest, ExtendedResourceMissingOnNodeDoesNotFit) {
  Resources request = Res(100, kMi, 1);
  request.SetExtended("nvidia.com/gpu", 1);
  Resources free = Res(4000, kGi, 10);
  EXPECT_FALSE(Fits(request, free));
  EXPECT_EQ(FirstShortResource(request, free), "nvidia.com/gpu");
  free.SetExtended("nvidia.com/gpu", 1);
  EXPECT_TRUE(Fits(request, free));
  free -= request;
  EXPECT_EQ(free.Extended("nvidia.com/gpu"), 0);
}

TEST(NodescaleResourcesTest, EffectiveRequestsTakeLargestInitAndOverhead) {
  // Containers sum to 300m/300Mi; an init container needs 1000m/100Mi.
  Resources requests = EffectivePodRequests(
      {Res(100, 100 * kMi, 0), Res(200, 200 * kMi, 0)},
      {Res(1000, 100 * kMi, 0), Res(50, 50 * kMi, 0)}, Res(10, 10 * kMi, 0));
  EXPECT_EQ(requests.cpu_millis, 1010);
  EXPECT_EQ(requests.memory_bytes, 310 * kMi);
  EXPECT_EQ(requests.pods, 1);
}

TEST(NodescalePredicatesTest, NodeSelectorNeedsEveryLabel) {
  PodState pod = Pod("p", 1, 1);
  pod.node_selector = {{"disk", "ssd"}, {"zone", "a"}};
  EXPECT_TRUE(MatchesNodeSelector(pod, {{"disk", "ssd"}, {"zone", "a"}}));
  EXPECT_FALSE(MatchesNodeSelector(pod, {{"disk", "ssd"}}));
  EXPECT_FALSE(MatchesNodeSelector(pod, {{"disk", "hdd"}, {"zone", "a"}}));
  EXPECT_EQ(CheckNodeConstraints(pod, {{"disk", "hdd"}}, {}),
            Unfit::kNodeSelector);
  EXPECT_EQ(DescribeNodeConstraintFailure(pod, {{"disk", "hdd"}}, {}),
            "node selector disk=ssd does not match");
}

TEST(NodescalePredicatesTest, NodeAffinityOperators) {
  const Labels labels = {{"type", "m5"}, {"cores", "8"}};
  auto matches = [&](Op op, std::vector<std::string> values,
                     const std::string& key) {
    return MatchesNodeSelectorRequirement({key, op, values}, labels);
  };
  EXPECT_TRUE(matches(Op::kIn, {"c5", "m5"}, "type"));
  EXPECT_FALSE(matches(Op::kIn, {"c5"}, "type"));
  EXPECT_FALSE(matches(Op::kIn, {"m5"}, "absent"));
  EXPECT_TRUE(matches(Op::kNotIn, {"c5"}, "type"));
  EXPECT_FALSE(matches(Op::kNotIn, {"m5"}, "type"));
  EXPECT_TRUE(matches(Op::kNotIn, {"m5"}, "absent"));
  EXPECT_TRUE(matches(Op::kExists, {}, "type"));
  EXPECT_FALSE(matches(Op::kExists, {}, "absent"));
  EXPECT_TRUE(matches(Op::kDoesNotExist, {}, "absent"));
  EXPECT_FALSE(matches(Op::kDoesNotExist, {}, "type"));
  EXPECT_TRUE(matches(Op::kGt, {"4"}, "cores"));
  EXPECT_FALSE(matches(Op::kGt, {"8"}, "cores"));
  EXPECT_TRUE(matches(Op::kLt, {"16"}, "cores"));
  EXPECT_FALSE(matches(Op::kLt, {"8"}, "cores"));
  EXPECT_FALSE(matches(Op::kGt, {"4"}, "type"));  // not a number
  EXPECT_FALSE(matches(Op::kGt, {"x"}, "cores"));
}

TEST(NodescalePredicatesTest, AffinityTermsAreOredExpressionsAnded) {
  PodState pod = Pod("p", 1, 1);
  pod.node_affinity = {
      NodeSelectorTerm{{{"a", Op::kIn, {"1"}}, {"b", Op::kIn, {"2"}}}},
      NodeSelectorTerm{{{"c", Op::kExists, {}}}}};
  EXPECT_TRUE(MatchesNodeAffinity(pod, {{"a", "1"}, {"b", "2"}}));
  EXPECT_FALSE(MatchesNodeAffinity(pod, {{"a", "1"}}));  // AND fails
  EXPECT_TRUE(MatchesNodeAffinity(pod, {{"c", "x"}}));   // second term
  EXPECT_EQ(CheckNodeConstraints(pod, {{"a", "1"}}, {}), Unfit::kNodeAffinity);
  PodState empty_term = Pod("q", 1, 1);
  empty_term.node_affinity = {NodeSelectorTerm{}};
  EXPECT_FALSE(MatchesNodeAffinity(empty_term, {{"a", "1"}}));
  EXPECT_TRUE(MatchesNodeAffinity(Pod("r", 1, 1), {}));
}

TEST(NodescalePredicatesTest, NoScheduleAndNoExecuteNeedTolerations) {
  PodState pod = Pod("p", 1, 1);
  const Taint no_schedule{"dedicated", "gpu", TaintEffect::kNoSchedule};
  const Taint no_execute{"dedicated", "gpu", TaintEffect::kNoExecute};
  const Taint prefer{"dedicated", "gpu", TaintEffect::kPreferNoSchedule};
  EXPECT_EQ(FirstUntoleratedTaint(pod, {prefer}), nullptr);
  const std::vector<Taint> one = {no_schedule};
  ASSERT_NE(FirstUntoleratedTaint(pod, one), nullptr);
  EXPECT_EQ(FirstUntoleratedTaint(pod, one)->key, "dedicated");
  std::vector<Taint> taints = {no_execute};
  EXPECT_EQ(CheckNodeConstraints(pod, {}, taints), Unfit::kTaint);
  EXPECT_EQ(DescribeNodeConstraintFailure(pod, {}, taints),
            "taint dedicated=gpu:NoExecute not tolerated");
  pod.tolerations = {Toleration{"dedicated", Toleration::Op::kEqual, "gpu"}};
  EXPECT_EQ(FirstUntoleratedTaint(pod, {no_schedule, no_execute}), nullptr);
}

TEST(NodescalePredicatesTest, TolerationMatching) {
  const Taint taint{"k", "v", TaintEffect::kNoSchedule};
  EXPECT_TRUE(Tolerates({"", Toleration::Op::kExists, ""}, taint));
  EXPECT_TRUE(Tolerates({"k", Toleration::Op::kExists, ""}, taint));
  EXPECT_FALSE(Tolerates({"other", Toleration::Op::kExists, ""}, taint));
  EXPECT_FALSE(Tolerates({"k", Toleration::Op::kEqual, "w"}, taint));
  Toleration wrong_effect{"k", Toleration::Op::kEqual, "v", false,
                          TaintEffect::kNoExecute};
  EXPECT_FALSE(Tolerates(wrong_effect, taint));
  wrong_effect.effect = TaintEffect::kNoSchedule;
  EXPECT_TRUE(Tolerates(wrong_effect, taint));
}

TEST(NodescalePredicatesTest, HostnameAntiAffinityWorksBothWays) {
  PodState web = Pod("web", 1, 1);
  web.labels = {{"app", "web"}};
  web.anti_affinity = {
      {*LabelSelector::Parse("app=web"), {}}};  // one web pod per node
  PodState other_web = web;
  other_web.name = "web-2";
  PodState db = Pod("db", 1, 1);
  db.labels = {{"app", "db"}};
  EXPECT_TRUE(AntiAffinityAllows(web, {&db}));
  EXPECT_FALSE(AntiAffinityAllows(web, {&db, &other_web}));
  // A pod without rules is still kept off a node whose pod repels it.
  PodState plain_web = Pod("plain", 1, 1);
  plain_web.labels = {{"app", "web"}};
  EXPECT_FALSE(AntiAffinityAllows(plain_web, {&web}));
  // Terms look in the pod's own namespace unless namespaces are listed.
  plain_web.namespace_ = "other";
  EXPECT_TRUE(AntiAffinityAllows(plain_web, {&web}));
  std::vector<PodAffinityTerm> terms = web.anti_affinity;
  terms[0].namespaces = {"other"};
  web.anti_affinity = std::move(terms);
  EXPECT_FALSE(AntiAffinityAllows(plain_web, {&web}));
}

TEST(NodescalePredicatesTest, HostPortsConflictOnPortAndProtocol) {
  PodState web = Pod("web", 100, kMi);
  web.host_ports = {{8080, "TCP"}};
  PodState same = Pod("same", 100, kMi);
  same.host_ports = {{8080, "TCP"}};
  PodState udp = Pod("udp", 100, kMi);
  udp.host_ports = {{8080, "UDP"}};
  PodState plain = Pod("plain", 100, kMi);
  EXPECT_FALSE(HostPortsFree(same, {&web}));
  EXPECT_TRUE(HostPortsFree(udp, {&web}));
  EXPECT_TRUE(HostPortsFree(plain, {&web}));
  EXPECT_TRUE(HostPortsFree(web, {&plain, &udp}));
}

}  // namespace
}  // namespace propscaler::nodescale

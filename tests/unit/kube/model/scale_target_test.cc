#include "kube/model/scale_target.h"

#include <gtest/gtest.h>

namespace propscaler::kube {
namespace {

TEST(ScaleTargetTest, ParsesKindsCaseInsensitiveAndPlural) {
  Result<std::vector<ScaleTarget>> targets = ParseScaleTargets(
      "Deployment/coredns, replicasets/rs,ReplicationController/rc,"
      "statefulset/sts");
  ASSERT_TRUE(targets.ok()) << targets.status().message();
  ASSERT_EQ(targets->size(), 4u);
  EXPECT_EQ((*targets)[0].ScalePath("kube-system"),
            "/apis/apps/v1/namespaces/kube-system/deployments/coredns/scale");
  EXPECT_EQ((*targets)[1].ScalePath("ns"),
            "/apis/apps/v1/namespaces/ns/replicasets/rs/scale");
  EXPECT_EQ((*targets)[2].ScalePath("ns"),
            "/api/v1/namespaces/ns/replicationcontrollers/rc/scale");
  EXPECT_EQ((*targets)[3].ScalePath("ns"),
            "/apis/apps/v1/namespaces/ns/statefulsets/sts/scale");
  EXPECT_EQ((*targets)[3].ToString(), "statefulset/sts");
  EXPECT_EQ((*targets)[2].ApiKind(), "ReplicationController");
  EXPECT_EQ((*targets)[2].ApiVersion(), "v1");
}

// As cluster-proportional-autoscaler, which lower-cases the whole flag.
TEST(ScaleTargetTest, TakesTheNameInAnyCase) {
  Result<std::vector<ScaleTarget>> targets =
      ParseScaleTargets("DEPLOYMENT/App-Main");
  ASSERT_TRUE(targets.ok()) << targets.status().message();
  EXPECT_EQ((*targets)[0].ToString(), "deployment/app-main");
}

TEST(ScaleTargetTest, RejectsBadEntriesNamingThem) {
  for (const char* bad :
       {"", "coredns", "daemonset/x", "deployment/", "/x", "deployment/a/b",
        "deployment/x,,", ",deployment/x", "deployment/x, ,statefulset/y"}) {
    Result<std::vector<ScaleTarget>> targets = ParseScaleTargets(bad);
    ASSERT_FALSE(targets.ok()) << bad;
    EXPECT_NE(targets.status().message().find("--target"), std::string::npos);
  }
  EXPECT_NE(
      ParseScaleTargets("daemonset/x").status().message().find("\"daemonset\""),
      std::string::npos);
}

TEST(TargetSelectorTest, TakesKindAndSelector) {
  Result<TargetSelector> selector =
      ParseTargetSelector(" StatefulSets : k8s-app in (kube-dns,dns), tier ");
  ASSERT_TRUE(selector.ok()) << selector.status().message();
  EXPECT_EQ(selector->kind, ScaleTarget::Kind::kStatefulSet);
  EXPECT_EQ(selector->label_selector, "k8s-app in (kube-dns,dns), tier");
  EXPECT_EQ(selector->ToString(),
            "statefulset:k8s-app in (kube-dns,dns), tier");
  EXPECT_EQ(selector->Named("dns").ScalePath("ns"),
            "/apis/apps/v1/namespaces/ns/statefulsets/dns/scale");
}

TEST(TargetSelectorTest, RejectsBadInputNamingIt) {
  struct Case {
    const char* flag;
    const char* says;
  };
  for (const Case& c : {
           Case{"deployment/coredns", "not of the form KIND:LABEL-SELECTOR"},
           Case{"daemonset:app=x", "unsupported kind \"daemonset\""},
           Case{"deployment:", "empty label selector"},
           Case{"deployment:  ", "empty label selector"},
           Case{"deployment:a in (b", "\"deployment:a in (b\""},
           Case{"deployment:a=b=c", "\"deployment:a=b=c\""},
       }) {
    Result<TargetSelector> selector = ParseTargetSelector(c.flag);
    ASSERT_FALSE(selector.ok()) << c.flag;
    EXPECT_NE(selector.status().message().find(c.says), std::string::npos)
        << selector.status().message();
    EXPECT_NE(selector.status().message().find("--target-selector"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace propscaler::kube

#include "app/replica_options.h"

#include <gtest/gtest.h>

#include <string>

namespace propscaler {
namespace {

ReplicaFlags Flags(const std::string& exclude_node_taints) {
  ReplicaFlags flags;
  flags.target = "deployment/coredns";
  flags.configmap = "coredns-autoscaler";
  flags.namespace_ = "kube-system";
  flags.exclude_node_taints = exclude_node_taints;
  return flags;
}

TEST(BuildReplicaOptionsTest, ExcludeNodeTaints) {
  Result<AutoscalerOptions> off = BuildReplicaOptions(Flags(""), "", "");
  ASSERT_TRUE(off.ok()) << off.status().message();
  EXPECT_TRUE(off->excluded_taints.empty());

  Result<AutoscalerOptions> on = BuildReplicaOptions(
      Flags("node.kubernetes.io/unreachable,node.kubernetes.io/"
            "out-of-service:NoExecute"),
      "", "");
  ASSERT_TRUE(on.ok()) << on.status().message();
  EXPECT_TRUE(on->excluded_taints.Matches("node.kubernetes.io/unreachable",
                                          "NoSchedule"));
  EXPECT_TRUE(on->excluded_taints.Matches("node.kubernetes.io/out-of-service",
                                          "NoExecute"));
  EXPECT_FALSE(on->excluded_taints.Matches("node.kubernetes.io/out-of-service",
                                           "NoSchedule"));
}

TEST(BuildReplicaOptionsTest, BadExcludeNodeTaintsNamesFlagAndEntry) {
  Result<AutoscalerOptions> bad =
      BuildReplicaOptions(Flags("a:NoSchedule, b:Sometimes"), "", "");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "--exclude-node-taints: \"b:Sometimes\": unknown effect "
            "\"Sometimes\"; want NoSchedule, PreferNoSchedule or NoExecute");
}

TEST(BuildReplicaOptionsTest, TargetSelectorWithOrWithoutTarget) {
  ReplicaFlags flags = Flags("");
  flags.target = "";
  flags.target_selector = "deployment:k8s-app=kube-dns";
  Result<AutoscalerOptions> alone = BuildReplicaOptions(flags, "", "");
  ASSERT_TRUE(alone.ok()) << alone.status().message();
  EXPECT_TRUE(alone->targets.empty());
  ASSERT_TRUE(alone->target_selector.has_value());
  EXPECT_EQ(alone->target_selector->label_selector, "k8s-app=kube-dns");

  flags.target = "statefulset/dns";
  Result<AutoscalerOptions> both = BuildReplicaOptions(flags, "", "");
  ASSERT_TRUE(both.ok()) << both.status().message();
  ASSERT_EQ(both->targets.size(), 1u);
  EXPECT_EQ(both->targets[0].ToString(), "statefulset/dns");

  flags.target_selector = "deployment:";
  Result<AutoscalerOptions> empty = BuildReplicaOptions(flags, "", "");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty label selector"),
            std::string::npos);

  flags.target = "";
  flags.target_selector = "";
  Result<AutoscalerOptions> neither = BuildReplicaOptions(flags, "", "");
  ASSERT_FALSE(neither.ok());
  EXPECT_NE(neither.status().message().find("--target is empty"),
            std::string::npos);
}

}  // namespace
}  // namespace propscaler

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

}  // namespace
}  // namespace propscaler

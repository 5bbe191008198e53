// Flags as CPA users write them, exit codes, and clear errors.
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {
namespace {

class CliTest : public ReplicaClusterTest {
 protected:
  void SetUp() override { StartServerWithPerNodeParams(); }

  // Runs the binary with exactly `args`; returns the exit code.
  int Run(const std::vector<std::string>& args, std::string* output) {
    Process process(PropscalerBinary(), args);
    std::optional<int> code = process.WaitForExit(std::chrono::seconds(30));
    *output = process.Output();
    return code.value_or(-1);
  }
};

TEST_F(CliTest, VersionPrintsAndExitsZero) {
  std::string output;
  EXPECT_EQ(Run({"--version"}, &output), 0);
  EXPECT_NE(output.find(PROPSCALER_VERSION_FOR_TESTS), std::string::npos)
      << output;
}

TEST_F(CliTest, DashedAndUnderscoredSpellingsBothWork) {
  std::string output;
  const std::vector<std::string> dashed = {
      "--kubeconfig=" + kubeconfig_,
      "--namespace=kube-system",
      "--configmap=coredns-autoscaler",
      "--target=deployment/coredns",
      "--poll-period-seconds=5",
      "--max-sync-failures=3",
      "--healthz-port=0",
      "--dry-run=false",
      "--nodelabels=kubernetes.io/hostname!=node-0",
      "--exclude-node-taints=node.kubernetes.io/unreachable",
      "--once",
      "--logtostderr",
      "--v=1"};
  ASSERT_EQ(Run(dashed, &output), 0) << output;
  EXPECT_EQ(Replicas(), 3);
  EXPECT_NE(output.find("cycle:"), std::string::npos) << "--v=1 not applied";

  const std::vector<std::string> underscored = {
      "--kubeconfig",
      kubeconfig_,
      "--namespace",
      "kube-system",
      "--configmap=coredns-autoscaler",
      "--target=deployment/coredns",
      "--poll_period_seconds=5",
      "--max_sync_failures=3",
      "--healthz_port=0",
      "--dry_run=false",
      "--nodelabels=kubernetes.io/hostname!=node-1,kubernetes.io/"
      "hostname!=node-2",
      "--exclude_node_taints=node.kubernetes.io/out-of-service:NoExecute",
      "--once"};
  ASSERT_EQ(Run(underscored, &output), 0) << output;
  EXPECT_EQ(Replicas(), 2);
}

TEST_F(CliTest, NamespaceFallsBackToMyPodNamespace) {
  Process process(
      PropscalerBinary(),
      {"--kubeconfig=" + kubeconfig_, "--configmap=coredns-autoscaler",
       "--target=deployment/coredns", "--once"},
      {"MY_POD_NAMESPACE=kube-system"});
  EXPECT_EQ(process.WaitForExit(std::chrono::seconds(30)), 0)
      << process.Output();
  EXPECT_EQ(Replicas(), 4);
}

// Every bad flag value: bad_flags_test.cc.

TEST_F(CliTest, OnceFailsWhenTheServerIsUnreachable) {
  TempDir dir;
  const std::string config = dir.Write(
      "kubeconfig",
      KubeconfigYaml("http://127.0.0.1:" + std::to_string(FreePort()), ""));
  std::vector<std::string> args = BaseArgs();
  args[0] = "--kubeconfig=" + config;
  args.push_back("--once");
  std::string output;
  EXPECT_EQ(Run(args, &output), 1);
  EXPECT_NE(output.find("listing nodes"), std::string::npos) << output;
}

}  // namespace
}  // namespace propscaler::e2e

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

// --version names the commit the binary was built from (git's, 12
// characters, "-dirty" for a checkout with changes; "unknown" outside one)
// and its build type.
TEST_F(CliTest, VersionNamesTheCommit) {
  std::string output;
  EXPECT_EQ(Run({"--version"}, &output), 0);
  const size_t at = output.find("(commit ");
  ASSERT_NE(at, std::string::npos) << output;
  const std::string commit =
      output.substr(at + 8, output.find(')', at) - at - 8);
  EXPECT_TRUE(commit == "unknown" ||
              (commit.size() >= 12 &&
               commit.find_first_not_of("0123456789abcdef") >= 12))
      << commit;
  // Then its build type, as CMake named it.
  const std::string line = output.substr(0, output.find('\n'));
  const std::string type = line.substr(line.find(')', at) + 1);
  EXPECT_TRUE(type == " RelWithDebInfo" || type == " Release" ||
              type == " Debug" || type == " MinSizeRel")
      << line;
}

// --help lists propscaler's own flags by mode, glog's left to --helpfull,
// and exits 0; so does each subcommand's --help, with its usage.
TEST_F(CliTest, HelpListsOwnFlagsByModeAndEverySubcommandAnswersIt) {
  std::string output;
  for (const char* help : {"--help", "-h"}) {
    EXPECT_EQ(Run({help}, &output), 0) << output;
    for (const char* expected :
         {"Every mode:", "Replica mode", "Vertical mode (--mode=vertical):",
          "Node-scale mode (--mode=node-scale):", "--poll-period-seconds (",
          "--max-node-provision-time (", "--kubeconfig (", "--helpfull"}) {
      EXPECT_NE(output.find(expected), std::string::npos) << expected << " in\n"
                                                          << output;
    }
    EXPECT_EQ(output.find("--log-dir ("), std::string::npos) << output;
    EXPECT_LT(output.find("Every mode:"), output.find("Replica mode"));
  }
  EXPECT_EQ(Run({"plan", "--help"}, &output), 0) << output;
  EXPECT_NE(output.find("usage: propscaler plan"), std::string::npos) << output;
  EXPECT_NE(output.find("--pods-per-node=N"), std::string::npos) << output;
  EXPECT_EQ(Run({"simulate", "--help"}, &output), 0) << output;
  EXPECT_NE(output.find("usage: propscaler simulate"), std::string::npos)
      << output;
  EXPECT_NE(output.find("--node-groups=FILE"), std::string::npos) << output;
  // A bad flag still fails with usage's exit code.
  EXPECT_EQ(Run({"plan", "--no-such-flag"}, &output), 2) << output;
}

// A flag of propscaler's own given explicitly empty, where empty means
// "off", is a usage error naming it rather than a daemon started without
// what was meant.
TEST_F(CliTest, AnExplicitlyEmptyPodSelectorIsRefused) {
  std::string output;
  EXPECT_EQ(
      Run({"--kubeconfig=" + kubeconfig_, "--namespace=kube-system",
           "--configmap=coredns-autoscaler", "--target=deployment/coredns",
           "--healthz-port=0", "--pod-selector="},
          &output),
      2);
  EXPECT_NE(output.find("--pod-selector= is empty"), std::string::npos)
      << output;
  EXPECT_EQ(
      Run({"--kubeconfig=" + kubeconfig_, "--namespace=kube-system",
           "--configmap=coredns-autoscaler", "--target=deployment/coredns",
           "--healthz-port=0", "--hpa-floor="},
          &output),
      2);
  EXPECT_NE(output.find("--hpa-floor= is empty"), std::string::npos) << output;
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

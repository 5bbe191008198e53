// Every bad value of every flag, run through the real binary: it exits 2
// within seconds (no daemon starts), with one message naming the flag and the
// bad value. The kubeconfig points at a port where nothing listens, so a
// value that slipped through would show as a process still running.
#include <gtest/gtest.h>

#include "e2e/process.h"

namespace propscaler::e2e {
namespace {

struct BadFlag {
  std::vector<std::string> args;
  std::string message;  // what the output must contain
};

class BadFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ca_ = dir_.Write("ca.crt", "-----BEGIN CERTIFICATE-----\nMIIB\n");
    kubeconfig_ =
        dir_.Write("kubeconfig", KubeconfigYaml("http://127.0.0.1:1", "t"));
  }

  // Runs each case after `base`; the failures say which case.
  void ExpectUsageErrors(const std::vector<std::string>& base,
                         const std::vector<BadFlag>& cases) {
    for (const BadFlag& c : cases) {
      std::vector<std::string> args = base;
      args.insert(args.end(), c.args.begin(), c.args.end());
      Process process(PropscalerBinary(), args);
      const std::optional<int> code =
          process.WaitForExit(std::chrono::seconds(20));
      const std::string output = process.Output();
      EXPECT_TRUE(code.has_value())
          << c.args.front() << ": still running, a daemon started\n"
          << output;
      EXPECT_EQ(code.value_or(-1), 2) << c.args.front() << "\n" << output;
      EXPECT_NE(output.find(c.message), std::string::npos)
          << c.args.front() << ": want \"" << c.message << "\" in\n"
          << output;
      EXPECT_EQ(output.find("terminate called"), std::string::npos) << output;
    }
  }

  std::string Kubeconfig(const std::string& server, const std::string& ca,
                         const std::string& user_lines = "    token: t\n") {
    return dir_.Write("kubeconfig-" + std::to_string(++written_),
                      KubeconfigYaml(server, "", ca, "", user_lines));
  }

  TempDir dir_;
  std::string ca_;
  std::string kubeconfig_;
  int written_ = 0;
};

TEST_F(BadFlagsTest, ReplicaModeFlags) {
  const std::string too_long(64, 'a');
  // A valid 251-character subdomain: four 62-character labels.
  const std::string label(62, 'c');
  const std::string long_configmap =
      label + "." + label + "." + label + "." + label;
  ExpectUsageErrors(
      {"--kubeconfig=" + kubeconfig_, "--namespace=ns", "--configmap=cm",
       "--target=deployment/web"},
      {
          {{"--poll-period-seconds=abc"}, "'abc'"},
          {{"--poll-period-seconds=0"}, "--poll-period-seconds"},
          {{"--poll-period-seconds=99999999999"}, "'99999999999'"},
          {{"--max-sync-failures=-1"}, "--max-sync-failures"},
          {{"--healthz-port=70000"}, "--healthz-port=70000"},
          {{"--healthz-port=-1"}, "--healthz-port=-1"},
          {{"--api-idle-timeout-seconds=0"}, "--api-idle-timeout-seconds=0"},
          {{"--namespace=Kube_System"}, "--namespace=Kube_System"},
          {{"--namespace=" + too_long}, "--namespace=" + too_long},
          {{"--configmap=Bad/Name"}, "--configmap=Bad/Name"},
          {{"--target=deployment/Web_1"}, "deployment/Web_1"},
          {{"--target=deployment/web,,"}, "empty entry"},
          {{"--target=daemonset/x"}, "daemonset"},
          {{"--target-selector=deployment:"}, "empty label selector"},
          {{"--hpa-floor=Bad_Name"}, "Bad_Name"},
          {{"--hpa-floor=dns", "--hpa-floor-auto"}, "not both"},
          {{"--target-selector=deployment"}, "KIND:LABEL-SELECTOR"},
          {{"--target-selector=daemonset:a=b"}, "\"daemonset\""},
          {{"--target-selector=deployment:a in (b"},
           "--target-selector \"deployment:a in (b\""},
          {{"--target=deployment/"}, "KIND/NAME"},
          {{"--nodelabels=a in (b"}, "--nodelabels"},
          {{"--exclude-node-taints=a:Sometimes"}, "a:Sometimes"},
          {{"--exclude_node_taints=,"}, "--exclude-node-taints: \"\": empty"},
          {{"--default-params=not json"}, "--default-params"},
          {{"--default-params={\"linear\":{\"min\":-1}}"}, "--default-params"},
          {{"--mode=bogus"}, "--mode=bogus"},
          {{"--leader-elect", "--leader-elect-resource-name=Bad_Lease"},
           "--leader-elect-resource-name=Bad_Lease"},
          {{"--leader-elect-renew-deadline=15s"},
           "--leader-elect-renew-deadline=15s must be shorter than "
           "--leader-elect-lease-duration=15s"},
          {{"--leader-elect-retry-period=soon"},
           "--leader-elect-retry-period=soon"},
          // The default Lease name comes from a valid ConfigMap name, but
          // may run past 253 characters with its prefix.
          {{"--leader-elect", "--configmap=" + long_configmap},
           "(the default; set --leader-elect-resource-name)"},
          {{"--bogus-flag=1"}, "bogus_flag"},
          {{"--once=maybe"}, "'maybe'"},
          {{"--kubeconfig=/nonexistent/config"}, "/nonexistent/config"},
          {{"--kubeconfig=" + Kubeconfig("https://127.0.0.1:1", "/no/ca.crt")},
           "/no/ca.crt"},
          {{"--kubeconfig=" + Kubeconfig("127.0.0.1:6443", ca_)},
           "server \"127.0.0.1:6443\""},
          {{"--kubeconfig=" + Kubeconfig("https://127.0.0.1:99999", ca_)},
           "99999"},
          {{"--kubeconfig=" + Kubeconfig("https://127.0.0.1:1", ca_,
                                         "    tokenFile: /no/token\n")},
           "/no/token"},
          {{"--kubeconfig=" +
            Kubeconfig("https://127.0.0.1:1", ca_,
                       "    client-certificate: " + ca_ + "\n")},
           "without its client-key"},
      });
}

TEST_F(BadFlagsTest, MissingRequiredFlags) {
  ExpectUsageErrors({"--kubeconfig=" + kubeconfig_, "--namespace=ns"},
                    {{{"--target=deployment/web"}, "--configmap"},
                     {{"--configmap=cm"}, "--target"}});
}

TEST_F(BadFlagsTest, NodeScaleModeFlags) {
  ExpectUsageErrors(
      {"--mode=node-scale", "--kubeconfig=" + kubeconfig_, "--namespace=ns",
       "--cloud-provider=kwok", "--node-group-config=groups"},
      {
          {{"--scan-interval=.s"}, "--scan-interval=.s"},
          {{"--scan-interval=10sx"}, "--scan-interval=10sx"},
          {{"--scan-interval=0"}, "--scan-interval=0"},
          {{"--scan-interval=-5s"}, "--scan-interval=-5s"},
          {{"--scan-interval=99999999999999999999h"}, "--scan-interval="},
          {{"--scale-down-unneeded-time=abc"},
           "--scale-down-unneeded-time=abc"},
          {{"--max-node-provision-time=0s"}, "--max-node-provision-time=0s"},
          {{"--max-node-startup-time=0s"}, "--max-node-startup-time=0s"},
          {{"--max-node-startup-time=later"}, "--max-node-startup-time=later"},
          {{"--max-total-unready-percentage=101"},
           "--max-total-unready-percentage=101"},
          {{"--max-total-unready-percentage=nan"},
           "--max-total-unready-percentage"},
          {{"--ok-total-unready-count=-1"}, "--ok-total-unready-count=-1"},
          {{"--max-failing-time=0s"}, "--max-failing-time=0s"},
          {{"--dry-run"}, "--dry-run: node-scale mode has no dry run"},
          {{"--max-failing-time=soon"}, "--max-failing-time=soon"},
          {{"--expander=bogus"}, "bogus"},
          {{"--expander=least-waste,bogus"}, "bogus"},
          {{"--expander="}, "--expander"},
          {{"--max-nodes-per-scaleup=0"}, "--max-nodes-per-scaleup=0"},
          {{"--max-empty-bulk-delete=0"}, "--max-empty-bulk-delete=0"},
          {{"--max-scale-down-parallelism=0"},
           "--max-scale-down-parallelism=0"},
          {{"--max-drain-parallelism=-2"}, "--max-drain-parallelism=-2"},
          {{"--max-graceful-termination-sec=-1"},
           "--max-graceful-termination-sec"},
          {{"--scale-down-utilization-threshold=nan"},
           "--scale-down-utilization-threshold"},
          {{"--scale-down-utilization-threshold=1.5"},
           "--scale-down-utilization-threshold"},
          {{"--scale-down-utilization-threshold=inf"},
           "--scale-down-utilization-threshold"},
          {{"--scale-down-utilization-threshold=abc"}, "'abc'"},
          {{"--max-nodes-total=-1"}, "--max-nodes-total=-1"},
          {{"--cores-total=5:1"}, "--cores-total=5:1"},
          {{"--cores-total=x"}, "--cores-total=x"},
          {{"--memory-total=0:99999999999999"}, "--memory-total"},
          {{"--cloud-provider=aws"}, "--cloud-provider=aws"},
          {{"--node-group-config="}, "--node-group-config"},
          {{"--node-group-config=Bad_Name"}, "--node-group-config=Bad_Name"},
          {{"--leader-elect-renew-deadline=20s"},
           "--leader-elect-renew-deadline"},
          {{"--leader-elect-lease-duration=0s"},
           "--leader-elect-lease-duration"},
          {{"--leader-elect-retry-period=0"}, "--leader-elect-retry-period"},
          {{"--leader-elect-resource-name=Bad"},
           "--leader-elect-resource-name=Bad"},
          {{"--initial-node-group-backoff-duration=1h"},
           "--initial-node-group-backoff-duration"},
          {{"--namespace=Bad_NS"}, "--namespace=Bad_NS"},
          {{"--kubeconfig=" + Kubeconfig("https://127.0.0.1:1", "/no/ca.crt")},
           "/no/ca.crt"},
      });
}

TEST_F(BadFlagsTest, SimulateFlags) {
  const std::string data =
      std::string(PROPSCALER_SOURCE_DIR) + "/tests/data/simulate/";
  ExpectUsageErrors(
      {"simulate", "--nodes=" + data + "nodes.json",
       "--pods=" + data + "pods.json", "--node-groups=" + data + "groups.json"},
      {
          {{"--scale-down-utilization-threshold=nan"},
           "--scale-down-utilization-threshold=nan"},
          {{"--scale-down-utilization-threshold=1.5"},
           "--scale-down-utilization-threshold=1.5"},
          {{"--max-nodes-total=-3"}, "--max-nodes-total=-3"},
          {{"--cores-total=9:1"}, "--cores-total=9:1"},
          {{"--memory-total=0:99999999999999"}, "--memory-total"},
          {{"--expander=bogus"}, "bogus"},
          {{"--output=xml"}, "--output=xml"},
          {{"--seed=x"}, "--seed=x"},
          {{"--bogus=1"}, "--bogus"},
          {{"--nodes=/no/nodes.json"}, "/no/nodes.json"},
      });
}

TEST_F(BadFlagsTest, PlanFlags) {
  const std::string params =
      std::string(PROPSCALER_SOURCE_DIR) + "/params/coredns.json";
  ExpectUsageErrors({"plan", "--params=" + params},
                    {
                        {{"--max-nodes=abc"}, "--max-nodes=abc"},
                        {{"--max-nodes=0"}, "--max-nodes=0"},
                        {{"--cores-per-node=-1"}, "--cores-per-node=-1"},
                        {{"--format=pdf"}, "--format=pdf"},
                        {{"--nodelabels=a=b"}, "--nodelabels=a=b"},
                        {{"--configmap-json=/no/cm.json"}, "want exactly one"},
                        {{"--bogus"}, "--bogus"},
                    });
}

}  // namespace
}  // namespace propscaler::e2e

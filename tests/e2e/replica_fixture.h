// A simulated cluster for replica-mode end-to-end tests: the in-process API
// server with four 4-core nodes, a Deployment kube-system/coredns at 1
// replica, and helpers to start the real propscaler binary against it.
#ifndef PROPSCALER_TESTS_E2E_REPLICA_FIXTURE_H_
#define PROPSCALER_TESTS_E2E_REPLICA_FIXTURE_H_

#include <gtest/gtest.h>
#include <httplib.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "e2e/process.h"

namespace propscaler::e2e {

inline constexpr char kNamespace[] = "kube-system";
inline constexpr char kConfigMap[] = "coredns-autoscaler";
inline constexpr char kToken[] = "e2e-token";
// One replica per schedulable node: the value of data.linear.
inline constexpr char kPerNodeParams[] = R"({"nodesPerReplica":1})";

std::string NodeJson(const std::string& name, const std::string& cpu,
                     bool ready = true, bool unschedulable = false,
                     const std::map<std::string, std::string>& labels = {});

class ReplicaClusterTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Starts the API server with `options` (token and nodes are added here).
  void StartServer(sim::FakeApiServerOptions options = {});
  // StartServer, then the ConfigMap with one replica per schedulable node.
  void StartServerWithPerNodeParams(sim::FakeApiServerOptions options = {});
  void AddNodes(int count, const std::string& cpu = "4");

  // Flags every run needs: kubeconfig, namespace, configmap, target.
  std::vector<std::string> BaseArgs() const;
  std::unique_ptr<Process> Start(std::vector<std::string> extra_args);
  // Runs with --once and returns the exit code (-1 if it hung).
  int RunOnce(std::vector<std::string> extra_args,
              std::string* output = nullptr);

  int64_t Replicas(const std::string& kind = "deployment",
                   const std::string& name = "coredns") const;
  // Polls the server until the target has `want` replicas; on failure says
  // what the server has instead.
  ::testing::AssertionResult WaitForReplicas(
      int64_t want,
      std::chrono::milliseconds timeout = std::chrono::seconds(30),
      const std::string& kind = "deployment",
      const std::string& name = "coredns") const;

  // An HTTP client to the simulated server, with the token.
  httplib::Result ApiGet(const std::string& path);
  httplib::Result ApiDelete(const std::string& path);

  sim::FakeApiServer server_;
  TempDir dir_;
  std::string kubeconfig_;
  std::string ca_file_;  // set for HTTPS servers
};

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_REPLICA_FIXTURE_H_

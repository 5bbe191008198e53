// The fixture of the real-server tests: one RealCluster for the whole run
// (started by main before any test), a namespace per test, and the real
// propscaler binary started with a short-lived service-account token under
// exactly the RBAC a test applies.
#ifndef PROPSCALER_TESTS_ENVTEST_REAL_SERVER_FIXTURE_H_
#define PROPSCALER_TESTS_ENVTEST_REAL_SERVER_FIXTURE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "e2e/process.h"
#include "envtest/real_cluster.h"
#include "envtest/real_objects.h"

namespace propscaler::envtest {

// Set by main before the tests run.
RealCluster* SharedCluster();
void SetSharedCluster(RealCluster* cluster);

inline constexpr char kConfigMap[] = "coredns-autoscaler";
inline constexpr char kTarget[] = "coredns";
inline constexpr char kPerNodeParams[] = R"({"nodesPerReplica":1})";

class RealServerTest : public ::testing::Test {
 protected:
  void SetUp() override;

  RealCluster& cluster() { return *SharedCluster(); }
  const std::string& ns() const { return ns_; }
  // The label every node of this test carries, for --nodelabels.
  std::string NodeLabel() const { return "envtest-ns=" + ns_; }
  std::string NodeName(int i) const {
    return ns_ + "-node-" + std::to_string(i);
  }
  // Creates `count` Ready 4-core nodes labelled for this test, numbered
  // from `first`.
  void AddNodes(int first, int count);

  // The service account `account` with the RBAC of `manifests` (paths
  // relative to the source tree), and a token file holding its token.
  void GrantRbac(const std::string& account,
                 const std::vector<std::string>& manifests);
  // Deletes this test's pods and nodes (by its label), and the nodes of
  // node groups.
  void TearDown() override;
  const std::string& TokenFile() const { return token_file_; }
  // Writes `content` to a file in this test's temporary folder.
  std::string Write(const std::string& name, const std::string& content) const {
    return dir_.Write(name, content);
  }
  // What the server refused this test's service account (HTTP 403), from
  // its audit log: count by "VERB RESOURCE[/SUBRESOURCE]".
  std::map<std::string, int> Refusals() const;
  // What this test's service account sent, per the audit log, by "VERB
  // RESOURCE[/SUBRESOURCE]" (then " NAME" with `by_name`, where the request
  // names one): every request, or those answered `code`.
  std::map<std::string, int> Requests(std::optional<int> code,
                                      bool by_name = false) const;
  // The same, from `cluster`'s audit log (another cluster's, where the
  // test made the same account).
  std::map<std::string, int> RequestsTo(const RealCluster& cluster,
                                        std::optional<int> code,
                                        bool by_name = false) const;
  // No kind of request was refused more than twice (a refusal is not sent
  // again every cycle).
  ::testing::AssertionResult NoKindRefusedMoreThanTwice() const;

  // Writes a fresh token of the account to the token file.
  void RotateToken(const std::string& bound_secret = "");

  // Starts propscaler with the token file's kubeconfig, this namespace, the
  // ConfigMap, the target and this test's node label.
  std::unique_ptr<e2e::Process> StartPropscaler(
      std::vector<std::string> extra_args);
  // Starts propscaler with the token file's kubeconfig and `args` only
  // (and `env`'s NAME=VALUE variables).
  std::unique_ptr<e2e::Process> StartWithToken(
      std::vector<std::string> args, const std::vector<std::string>& env = {});

  // Polls the server until the target has `want` replicas.
  ::testing::AssertionResult WaitForReplicas(
      int64_t want, const e2e::Process& propscaler,
      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // Polls the log until it holds `text`.
  ::testing::AssertionResult WaitForLog(
      const std::string& text, const e2e::Process& propscaler,
      std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  std::string ns_;
  std::string account_;
  e2e::TempDir dir_;
  std::string token_file_;
};

}  // namespace propscaler::envtest

#endif  // PROPSCALER_TESTS_ENVTEST_REAL_SERVER_FIXTURE_H_

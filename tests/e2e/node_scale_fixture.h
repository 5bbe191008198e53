// A simulated cluster for node-scale end-to-end tests: the in-process API
// server, kwok node groups in a ConfigMap, pending and bound pods, and the
// real propscaler binary in --mode=node-scale with short timers.
#ifndef PROPSCALER_TESTS_E2E_NODE_SCALE_FIXTURE_H_
#define PROPSCALER_TESTS_E2E_NODE_SCALE_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "e2e/process.h"

namespace propscaler::e2e {

inline constexpr char kGroupsConfigMap[] = "node-groups";

using sim::GroupJson;

class NodeScaleTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override { server_.Stop(); }

  // node-groups.json with these GroupJson entries.
  void PutGroups(const std::vector<std::string>& groups);
  // A ReplicaSet-owned pod in namespace default the scheduler marked
  // Unschedulable (or bound to `node` when given).
  void CreatePod(const std::string& name, const std::string& cpu,
                 const std::string& node = "");
  void BindPod(const std::string& name, const std::string& node);
  void DeletePod(const std::string& name);
  // Gives the pod a finalizer: an eviction then only marks it deleted and
  // it stays until DeletePod.
  void AddFinalizer(const std::string& pod);
  // Applies a JSON merge patch to a pod in namespace default.
  void PatchPod(const std::string& pod, const std::string& merge_patch);
  // A Ready node labelled into `group` (none when empty).
  void CreateNode(const std::string& name, const std::string& group,
                  const std::string& cpu = "4");

  std::vector<std::string> BaseArgs() const;
  std::unique_ptr<Process> Start(const std::vector<std::string>& extra_args);

  // Names of the nodes whose name starts with `prefix`.
  std::vector<std::string> NodesWithPrefix(const std::string& prefix) const;
  bool NodeHasTaint(const std::string& node, const std::string& key) const;
  // How many Events in `ns` have this reason.
  int CountEvents(const std::string& ns, const std::string& reason) const;

  sim::FakeApiServer server_;
  TempDir dir_;
  std::string kubeconfig_;
};

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_NODE_SCALE_FIXTURE_H_

#include "e2e/node_scale_fixture.h"

#include <rapidjson/document.h>

#include "e2e/replica_fixture.h"

namespace propscaler::e2e {

void NodeScaleTest::SetUp() {
  sim::FakeApiServerOptions options;
  options.bearer_token = kToken;
  Status status = server_.Start(options);
  ASSERT_TRUE(status.ok()) << status.message();
  kubeconfig_ = dir_.Write("kubeconfig", KubeconfigYaml(server_.url(), kToken));
}

void NodeScaleTest::PutGroups(const std::vector<std::string>& groups) {
  ASSERT_TRUE(
      sim::PutNodeGroups(server_.store(), kNamespace, kGroupsConfigMap, groups)
          .ok());
}

void NodeScaleTest::CreatePod(const std::string& name, const std::string& cpu,
                              const std::string& node) {
  Status status = server_.CreateObject("/api/v1/namespaces/default/pods",
                                       sim::PodJson(name, cpu, node));
  ASSERT_TRUE(status.ok()) << status.message();
}

void NodeScaleTest::BindPod(const std::string& name, const std::string& node) {
  std::optional<std::string> pod =
      server_.GetObject("/api/v1/namespaces/default/pods/" + name);
  ASSERT_TRUE(pod.has_value());
  DeletePod(name);
  const size_t cpu_at = pod->find(R"("cpu":")") + 7;
  CreatePod(name, pod->substr(cpu_at, pod->find('"', cpu_at) - cpu_at), node);
}

void NodeScaleTest::DeletePod(const std::string& name) {
  ASSERT_TRUE(server_.store()
                  .Delete(*sim::FindResourceType("pods"), "default", name)
                  .ok());
}

void NodeScaleTest::PatchPod(const std::string& pod,
                             const std::string& merge_patch) {
  rapidjson::Document patch;
  patch.Parse(merge_patch.c_str());
  ASSERT_TRUE(server_.store()
                  .Patch(*sim::FindResourceType("pods"), "default", pod, patch)
                  .ok())
      << merge_patch;
}

void NodeScaleTest::AddFinalizer(const std::string& pod) {
  PatchPod(pod, R"({"metadata":{"finalizers":["propscaler.io/test"]}})");
}

void NodeScaleTest::CreateNode(const std::string& name,
                               const std::string& group,
                               const std::string& cpu) {
  std::map<std::string, std::string> labels;
  if (!group.empty()) labels["propscaler.io/node-group"] = group;
  Status status = server_.CreateNode(NodeJson(name, cpu, true, false, labels));
  ASSERT_TRUE(status.ok()) << status.message();
}

std::vector<std::string> NodeScaleTest::BaseArgs() const {
  return {"--mode=node-scale",
          "--kubeconfig=" + kubeconfig_,
          std::string("--namespace=") + kNamespace,
          "--cloud-provider=kwok",
          std::string("--node-group-config=") + kGroupsConfigMap,
          "--scan-interval=300ms",
          "--healthz-port=0",
          "--leader-elect=false"};
}

std::unique_ptr<Process> NodeScaleTest::Start(
    const std::vector<std::string>& extra_args) {
  std::vector<std::string> args = BaseArgs();
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return std::make_unique<Process>(PropscalerBinary(), args);
}

std::vector<std::string> NodeScaleTest::NodesWithPrefix(
    const std::string& prefix) const {
  std::vector<std::string> out;
  for (const std::string& name : server_.NodeNames()) {
    if (name.rfind(prefix, 0) == 0) out.push_back(name);
  }
  return out;
}

bool NodeScaleTest::NodeHasTaint(const std::string& node,
                                 const std::string& key) const {
  std::optional<std::string> json = server_.GetObject("/api/v1/nodes/" + node);
  return json && json->find("\"key\":\"" + key + "\"") != std::string::npos;
}

int NodeScaleTest::CountEvents(const std::string& ns,
                               const std::string& reason) const {
  int count = 0;
  for (const std::string& event : server_.Events(ns)) {
    if (event.find("\"reason\":\"" + reason + "\"") != std::string::npos) {
      ++count;
    }
  }
  return count;
}

}  // namespace propscaler::e2e

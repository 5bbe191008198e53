#include "e2e/replica_fixture.h"

namespace propscaler::e2e {

std::string NodeJson(const std::string& name, const std::string& cpu,
                     bool ready, bool unschedulable,
                     const std::map<std::string, std::string>& labels) {
  std::string label_json = "\"kubernetes.io/hostname\":\"" + name + "\"";
  for (const auto& [key, value] : labels) {
    label_json += ",\"" + key + "\":\"" + value + "\"";
  }
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{)" + label_json + R"(}},"spec":{"unschedulable":)" +
         (unschedulable ? "true" : "false") +
         R"(},"status":{"capacity":{"cpu":")" + cpu +
         R"(","memory":"16Gi","pods":"110"},"allocatable":{"cpu":")" + cpu +
         R"(","memory":"15Gi","pods":"110"},"conditions":[)" +
         R"({"type":"MemoryPressure","status":"False"},)" +
         R"({"type":"Ready","status":")" + (ready ? "True" : "False") +
         R"("}]}})";
}

void ReplicaClusterTest::SetUp() {}

void ReplicaClusterTest::TearDown() { server_.Stop(); }

void ReplicaClusterTest::StartServer(sim::FakeApiServerOptions options) {
  options.bearer_token = kToken;
  Status status = server_.Start(options);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(
      server_.CreateWorkload("deployment", kNamespace, "coredns", 1).ok());
  AddNodes(4);
  std::string extra;
  if (!options.tls_cert_file.empty()) ca_file_ = options.tls_cert_file;
  kubeconfig_ = dir_.Write(
      "kubeconfig", KubeconfigYaml(server_.url(), kToken, ca_file_, extra));
}

void ReplicaClusterTest::StartServerWithPerNodeParams(
    sim::FakeApiServerOptions options) {
  StartServer(std::move(options));
  ASSERT_TRUE(
      server_.PutConfigMap(kNamespace, kConfigMap, {{"linear", kPerNodeParams}})
          .ok());
}

void ReplicaClusterTest::AddNodes(int count, const std::string& cpu) {
  const size_t existing = server_.NodeNames().size();
  for (int i = 0; i < count; ++i) {
    const std::string name = "node-" + std::to_string(existing + i);
    Status status = server_.CreateNode(NodeJson(name, cpu));
    ASSERT_TRUE(status.ok()) << status.message();
  }
}

std::vector<std::string> ReplicaClusterTest::BaseArgs() const {
  return {
      "--kubeconfig=" + kubeconfig_, std::string("--namespace=") + kNamespace,
      std::string("--configmap=") + kConfigMap, "--target=deployment/coredns"};
}

std::unique_ptr<Process> ReplicaClusterTest::Start(
    std::vector<std::string> extra_args) {
  std::vector<std::string> args = BaseArgs();
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return std::make_unique<Process>(PropscalerBinary(), args);
}

int ReplicaClusterTest::RunOnce(std::vector<std::string> extra_args,
                                std::string* output) {
  extra_args.push_back("--once");
  std::unique_ptr<Process> process = Start(std::move(extra_args));
  std::optional<int> code = process->WaitForExit(std::chrono::seconds(30));
  if (output != nullptr) *output = process->Output();
  return code.value_or(-1);
}

int64_t ReplicaClusterTest::Replicas(const std::string& kind,
                                     const std::string& name) const {
  Result<int64_t> replicas = server_.GetReplicas(kind, kNamespace, name);
  return replicas.ok() ? *replicas : -1;
}

::testing::AssertionResult ReplicaClusterTest::WaitForReplicas(
    int64_t want, std::chrono::milliseconds timeout, const std::string& kind,
    const std::string& name) const {
  int64_t seen = -1;
  if (WaitUntil(
          [&] {
            seen = Replicas(kind, name);
            return seen == want;
          },
          timeout)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << kind << "/" << name << " has " << seen << " replicas (-1: unread), "
         << "not " << want << ", after " << timeout.count()
         << " ms; requests served: " << server_.Requests().ToJson() << "\n";
}

httplib::Result ReplicaClusterTest::ApiGet(const std::string& path) {
  httplib::Client client(server_.url());
  client.set_bearer_token_auth(kToken);
  client.enable_server_certificate_verification(false);
  return client.Get(path.c_str());
}

httplib::Result ReplicaClusterTest::ApiDelete(const std::string& path) {
  httplib::Client client(server_.url());
  client.set_bearer_token_auth(kToken);
  client.enable_server_certificate_verification(false);
  return client.Delete(path.c_str());
}

}  // namespace propscaler::e2e

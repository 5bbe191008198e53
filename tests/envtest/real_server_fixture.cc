#include "envtest/real_server_fixture.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <iostream>

#include "common/files.h"
#include "transport/api.h"

namespace propscaler::envtest {
namespace {

RealCluster* shared_cluster = nullptr;

// A DNS-1123 label from the test's name, unique in the run.
std::string NamespaceForThisTest() {
  static std::atomic<int> counter{0};
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->name());
  std::string label = "t" + std::to_string(++counter) + "-";
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      label.push_back(static_cast<char>(std::tolower(c)));
    }
  }
  return label.substr(0, 40);
}

}  // namespace

RealCluster* SharedCluster() { return shared_cluster; }
void SetSharedCluster(RealCluster* cluster) { shared_cluster = cluster; }

void RealServerTest::SetUp() {
  ASSERT_NE(SharedCluster(), nullptr);
  ns_ = NamespaceForThisTest();
  ASSERT_TRUE(CreateNamespace(cluster(), ns_).ok());
  token_file_ = dir_.path() + "/token";
}

void RealServerTest::AddNodes(int first, int count) {
  for (int i = first; i < first + count; ++i) {
    Status created =
        CreateNode(cluster(), {.name = NodeName(i), .label = NodeLabel()});
    ASSERT_TRUE(created.ok()) << created.message();
  }
}

void RealServerTest::TearDown() {
  // Node-scale mode sees every pod and node of the cluster: none of this
  // test's may outlive it (no namespace controller runs to remove them).
  Result<std::string> pods =
      AdminCall(cluster(), "DELETE",
                "/api/v1/namespaces/" + ns_ + "/pods?gracePeriodSeconds=0");
  EXPECT_TRUE(pods.ok()) << pods.status().message();
  for (const std::string& selector :
       {NodeLabel(), std::string("propscaler.io/node-group")}) {
    Result<std::string> deleted =
        AdminCall(cluster(), "DELETE",
                  "/api/v1/nodes?labelSelector=" + kube::QueryEscape(selector));
    EXPECT_TRUE(deleted.ok()) << deleted.status().message();
  }
}

void RealServerTest::GrantRbac(const std::string& account,
                               const std::vector<std::string>& manifests) {
  account_ = account;
  Status created = CreateServiceAccount(cluster(), ns_, account);
  ASSERT_TRUE(created.ok()) << created.message();
  for (const std::string& manifest : manifests) {
    Result<std::string> yaml =
        ReadFile(std::string(PROPSCALER_SOURCE_DIR) + "/" + manifest);
    ASSERT_TRUE(yaml.ok()) << yaml.status().message();
    Status applied = ApplyRbacManifest(cluster(), *yaml, ns_);
    ASSERT_TRUE(applied.ok()) << manifest << ": " << applied.message();
  }
  RotateToken();
}

std::map<std::string, int> RealServerTest::Refusals() const {
  return Requests(403);
}

std::map<std::string, int> RealServerTest::Requests(std::optional<int> code,
                                                    bool by_name) const {
  return RequestsTo(*SharedCluster(), code, by_name);
}

std::map<std::string, int> RealServerTest::RequestsTo(
    const RealCluster& cluster, std::optional<int> code, bool by_name) const {
  std::map<std::string, int> requests;
  Result<std::string> log = ReadFile(cluster.audit_log());
  if (!log.ok())
    return {{"(no audit log: " + log.status().message() + ")", 99}};
  const std::string user = "system:serviceaccount:" + ns_ + ":" + account_;
  size_t start = 0;
  while (start < log->size()) {
    size_t end = log->find('\n', start);
    if (end == std::string::npos) end = log->size();
    rapidjson::Document event;
    event.Parse(log->data() + start, end - start);
    start = end + 1;
    if (event.HasParseError() || !event.IsObject()) continue;
    auto str = [](const rapidjson::Value& v, const char* key) {
      return v.IsObject() && v.HasMember(key) && v[key].IsString()
                 ? std::string(v[key].GetString())
                 : std::string();
    };
    if (str(event, "stage") != "ResponseComplete") continue;
    if (!event.HasMember("user") || str(event["user"], "username") != user) {
      continue;
    }
    if (code.has_value() &&
        (!event.HasMember("responseStatus") ||
         !event["responseStatus"].HasMember("code") ||
         event["responseStatus"]["code"].GetInt() != *code)) {
      continue;
    }
    std::string kind = str(event, "verb") + " ";
    if (event.HasMember("objectRef")) {
      kind += str(event["objectRef"], "resource");
      const std::string sub = str(event["objectRef"], "subresource");
      if (!sub.empty()) kind += "/" + sub;
      const std::string name = str(event["objectRef"], "name");
      if (by_name && !name.empty()) kind += " " + name;
    }
    ++requests[kind];
  }
  return requests;
}

::testing::AssertionResult RealServerTest::NoKindRefusedMoreThanTwice() const {
  std::string all;
  bool ok = true;
  for (const auto& [kind, count] : Refusals()) {
    all += "\n  " + kind + ": " + std::to_string(count);
    ok = ok && count <= 2;
  }
  // Printed either way: the run's record of what RBAC refused.
  std::cout << "refused, by kind, per the audit log:" << all << "\n";
  if (ok) return ::testing::AssertionSuccess() << "refused:" << all;
  return ::testing::AssertionFailure() << "refused more than twice:" << all;
}

void RealServerTest::RotateToken(const std::string& bound_secret) {
  Result<std::string> token =
      ServiceAccountToken(cluster(), ns_, account_, bound_secret);
  ASSERT_TRUE(token.ok()) << token.status().message();
  // Written aside and renamed, as the kubelet updates projected tokens.
  dir_.Write("token.new", *token);
  std::rename((dir_.path() + "/token.new").c_str(), token_file_.c_str());
}

std::unique_ptr<e2e::Process> RealServerTest::StartWithToken(
    std::vector<std::string> args, const std::vector<std::string>& env) {
  const std::string kubeconfig = dir_.Write(
      "kubeconfig",
      e2e::KubeconfigYaml(cluster().url(), "", cluster().ca_file(), "",
                          "    tokenFile: " + token_file_ + "\n"));
  args.insert(args.begin(), {"--kubeconfig=" + kubeconfig, "--namespace=" + ns_,
                             "--healthz-port=0", "--logtostderr"});
  return std::make_unique<e2e::Process>(e2e::PropscalerBinary(), args, env);
}

std::unique_ptr<e2e::Process> RealServerTest::StartPropscaler(
    std::vector<std::string> extra_args) {
  std::vector<std::string> args = {
      "--configmap=" + std::string(kConfigMap),
      "--target=deployment/" + std::string(kTarget),
      "--nodelabels=" + NodeLabel()};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return StartWithToken(args);
}

::testing::AssertionResult RealServerTest::WaitForReplicas(
    int64_t want, const e2e::Process& propscaler,
    std::chrono::milliseconds timeout) {
  Result<int64_t> last = Status::NotFound("never read");
  if (e2e::WaitUntil(
          [&] {
            last = DeploymentReplicas(cluster(), ns_, kTarget);
            return last.ok() && *last == want;
          },
          timeout)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "deployment " << ns_ << "/" << kTarget << " did not reach " << want
         << " replicas within " << timeout.count() << "ms; it has "
         << (last.ok() ? std::to_string(*last) : last.status().message())
         << "\npropscaler's log:\n"
         << propscaler.Output();
}

::testing::AssertionResult RealServerTest::WaitForLog(
    const std::string& text, const e2e::Process& propscaler,
    std::chrono::milliseconds timeout) {
  if (e2e::WaitUntil(
          [&] { return propscaler.Output().find(text) != std::string::npos; },
          timeout)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "propscaler never logged \"" << text << "\"; its log:\n"
         << propscaler.Output();
}

}  // namespace propscaler::envtest

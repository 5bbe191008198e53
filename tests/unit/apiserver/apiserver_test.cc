// Tests of the simulated API server (tests/apiserver) over HTTP, as
// propscaler and the end-to-end tests use it.
#include <gtest/gtest.h>
#include <httplib.h>
#include <rapidjson/document.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "apiserver/json_util.h"
#include "apiserver/merge_patch.h"
#include "apiserver/node_generator.h"
#include "apiserver/pod_template_validation.h"
#include "apiserver/resources.h"
#include "apiserver/test_certs.h"

namespace propscaler::sim {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

rapidjson::Document Parse(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_FALSE(doc.HasParseError()) << json;
  return doc;
}

std::string NodeJson(const std::string& name, const std::string& zone) {
  return R"({"metadata":{"name":")" + name + R"(","labels":{"zone":")" + zone +
         R"("}},"status":{"capacity":{"cpu":"4"}}})";
}

// Polls `done` until it holds or a few seconds pass.
bool Eventually(const std::function<bool()>& done) {
  auto deadline = std::chrono::steady_clock::now() + seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return done();
}

// A watch request running in the background, collecting its lines.
class WatchCollector {
 public:
  WatchCollector(const std::string& url, const std::string& path) {
    thread_ = std::thread([this, url, path] {
      httplib::Client client(url);
      client.set_read_timeout(seconds(30));
      client.Get(path, [this](const char* data, size_t size) {
        std::lock_guard<std::mutex> lock(mu_);
        buffer_.append(data, size);
        return true;
      });
      ended_ = true;
    });
  }
  ~WatchCollector() { thread_.join(); }

  std::vector<std::string> Lines() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t end; (end = buffer_.find('\n', start)) != std::string::npos;
         start = end + 1) {
      lines.push_back(buffer_.substr(start, end - start));
    }
    return lines;
  }
  std::vector<std::string> Types() {
    std::vector<std::string> types;
    for (const std::string& line : Lines()) {
      types.push_back(GetString(Parse(line), "type"));
    }
    return types;
  }
  bool ended() const { return ended_; }

 private:
  std::mutex mu_;
  std::string buffer_;
  std::atomic<bool> ended_{false};
  std::thread thread_;
};

class ApiServerTest : public ::testing::Test {
 protected:
  void StartServer(FakeApiServerOptions options = {}) {
    options.default_watch_timeout = seconds(30);
    ASSERT_TRUE(server_.Start(options).ok());
    client_ = std::make_unique<httplib::Client>(server_.url());
  }
  void AddNodes(int count) {
    for (int i = 0; i < count; ++i) {
      ASSERT_TRUE(server_
                      .CreateNode(NodeJson("node-" + std::to_string(i),
                                           i % 2 == 0 ? "a" : "b"))
                      .ok());
    }
  }
  rapidjson::Document GetJson(const std::string& path, int want_status = 200) {
    httplib::Result res = client_->Get(path);
    EXPECT_TRUE(res) << path;
    if (!res) return Parse("{}");
    EXPECT_EQ(res->status, want_status) << path << ": " << res->body;
    return Parse(res->body);
  }
  std::string ListRv(const std::string& path) {
    return GetString(Metadata(GetJson(path)), "resourceVersion");
  }

  FakeApiServer server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ApiServerTest, PagedListReturnsAllNodesAcrossPages) {
  StartServer();
  AddNodes(7);
  std::set<std::string> names;
  std::string rv;
  std::string next;
  int pages = 0;
  do {
    std::string path = "/api/v1/nodes?limit=3";
    if (!next.empty()) path += "&continue=" + next;
    rapidjson::Document page = GetJson(path);
    const rapidjson::Value& meta = Metadata(page);
    if (pages == 0) rv = GetString(meta, "resourceVersion");
    EXPECT_EQ(GetString(meta, "resourceVersion"), rv);
    for (const auto& item : page["items"].GetArray()) {
      names.insert(GetString(Metadata(item), "name"));
    }
    next = GetString(meta, "continue");
    ++pages;
  } while (!next.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names.size(), 7u);
  EXPECT_EQ(rv, "7");
}

TEST_F(ApiServerTest, ResourceVersionZeroIgnoresLimit) {
  StartServer();
  AddNodes(5);
  rapidjson::Document list = GetJson("/api/v1/nodes?limit=2&resourceVersion=0");
  EXPECT_EQ(list["items"].Size(), 5u);
  EXPECT_EQ(GetString(Metadata(list), "continue"), "");
  EXPECT_EQ(GetString(list, "kind"), "NodeList");
}

// As kube-apiserver (WireRealServerTest.AnyVersionListIsWholeAnd...).
TEST_F(ApiServerTest, ContinuedListRefusesAResourceVersionButZero) {
  StartServer();
  AddNodes(5);
  rapidjson::Document page = GetJson("/api/v1/nodes?limit=2");
  const std::string next =
      "/api/v1/nodes?limit=2&continue=" + GetString(Metadata(page), "continue");
  rapidjson::Document refused = GetJson(next + "&resourceVersion=1", 400);
  EXPECT_EQ(GetString(refused, "message"),
            "specifying resource version is not allowed when using continue");
  rapidjson::Document zero = GetJson(next + "&resourceVersion=0");
  EXPECT_EQ(zero["items"].Size(), 2u);
}

TEST_F(ApiServerTest, LabelSelectorFiltersAndRejectsBadSelectors) {
  StartServer();
  AddNodes(5);
  rapidjson::Document list = GetJson("/api/v1/nodes?labelSelector=zone%3Da");
  ASSERT_EQ(list["items"].Size(), 3u);
  for (const auto& item : list["items"].GetArray()) {
    EXPECT_EQ(GetLabels(item).at("zone"), "a");
  }
  rapidjson::Document error =
      GetJson("/api/v1/nodes?labelSelector=zone+in+(a", 400);
  EXPECT_EQ(GetString(error, "kind"), "Status");
  EXPECT_EQ(GetString(error, "reason"), "BadRequest");
}

TEST_F(ApiServerTest, ServerSetsMetadata) {
  StartServer();
  AddNodes(1);
  rapidjson::Document node = GetJson("/api/v1/nodes/node-0");
  EXPECT_EQ(GetString(Metadata(node), "resourceVersion"), "1");
  EXPECT_FALSE(GetString(Metadata(node), "uid").empty());
  EXPECT_FALSE(GetString(Metadata(node), "creationTimestamp").empty());
  GetJson("/api/v1/nodes/absent", 404);
}

// DeleteOptions.preconditions as the real server checks them: a uid or
// resourceVersion that is not the object's is a 409 and nothing is deleted.
TEST_F(ApiServerTest, DeletePreconditionsGuardTheObject) {
  StartServer();
  AddNodes(1);
  const std::string uid =
      GetString(Metadata(GetJson("/api/v1/nodes/node-0")), "uid");
  auto remove = [&](const std::string& preconditions) {
    return client_->Delete(
        "/api/v1/nodes/node-0",
        R"({"kind":"DeleteOptions","apiVersion":"v1","preconditions":)" +
            preconditions + "}",
        "application/json");
  };
  httplib::Result stale = remove(R"({"uid":"not-the-uid"})");
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409);
  EXPECT_NE(stale->body.find(
                "Operation cannot be fulfilled on Node \\\"node-0\\\": the UID "
                "in the precondition (not-the-uid) does not match the UID in "
                "record (" +
                uid + ")"),
            std::string::npos)
      << stale->body;
  httplib::Result old_version = remove(R"({"resourceVersion":"0"})");
  ASSERT_TRUE(old_version);
  EXPECT_EQ(old_version->status, 409);
  GetJson("/api/v1/nodes/node-0", 200);
  httplib::Result deleted = remove(R"({"uid":")" + uid + R"("})");
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted->status, 200) << deleted->body;
  GetJson("/api/v1/nodes/node-0", 404);
}

TEST_F(ApiServerTest, WatchSendsEventsAfterTheListResourceVersion) {
  StartServer();
  AddNodes(2);
  std::string rv = ListRv("/api/v1/nodes");
  WatchCollector watch(server_.url(), "/api/v1/nodes?watch=1&resourceVersion=" +
                                          rv + "&allowWatchBookmarks=true");
  ASSERT_TRUE(Eventually([&] { return server_.open_watches() == 1; }));
  ASSERT_TRUE(server_.CreateNode(NodeJson("new", "a")).ok());
  ASSERT_TRUE(
      server_.PatchNode("new", R"({"spec":{"unschedulable":true}})").ok());
  ASSERT_TRUE(server_.DeleteNode("node-0").ok());
  ASSERT_TRUE(Eventually([&] { return watch.Lines().size() >= 3; }));
  EXPECT_EQ(watch.Types(),
            (std::vector<std::string>{"ADDED", "MODIFIED", "DELETED"}));
  rapidjson::Document deleted = Parse(watch.Lines()[2]);
  EXPECT_EQ(GetString(Metadata(deleted["object"]), "name"), "node-0");
  EXPECT_EQ(GetString(Metadata(deleted["object"]), "resourceVersion"), "5");
  server_.DropWatches();
  EXPECT_TRUE(Eventually([&] { return watch.ended(); }));
  EXPECT_EQ(server_.Requests().Count("WATCH /api/v1/nodes"), 1);
}

TEST_F(ApiServerTest, WatchWithSelectorSendsDeletedWhenAnObjectStopsMatching) {
  StartServer();
  AddNodes(2);
  std::string rv = ListRv("/api/v1/nodes");
  WatchCollector watch(server_.url(),
                       "/api/v1/nodes?watch=true&labelSelector=zone%3Da"
                       "&resourceVersion=" +
                           rv);
  ASSERT_TRUE(Eventually([&] { return server_.open_watches() == 1; }));
  ASSERT_TRUE(
      server_.PatchNode("node-1", R"({"metadata":{"labels":{"zone":"a"}}})")
          .ok());
  ASSERT_TRUE(
      server_.PatchNode("node-0", R"({"metadata":{"labels":{"zone":"b"}}})")
          .ok());
  ASSERT_TRUE(Eventually([&] { return watch.Lines().size() >= 2; }));
  EXPECT_EQ(watch.Types(), (std::vector<std::string>{"ADDED", "DELETED"}));
  server_.DropWatches();
}

TEST_F(ApiServerTest, WatchWithoutResourceVersionStartsWithAddedObjects) {
  StartServer();
  AddNodes(3);
  WatchCollector watch(server_.url(), "/api/v1/nodes?watch=1&timeoutSeconds=1");
  EXPECT_TRUE(Eventually([&] { return watch.ended(); }));
  EXPECT_EQ(watch.Types(),
            (std::vector<std::string>{"ADDED", "ADDED", "ADDED"}));
}

TEST_F(ApiServerTest, WatchFromCompactedResourceVersionGets410) {
  StartServer();
  AddNodes(2);
  server_.CompactHistory();
  ASSERT_TRUE(server_.CreateNode(NodeJson("later", "a")).ok());
  WatchCollector watch(server_.url(),
                       "/api/v1/nodes?watch=1&resourceVersion=1");
  ASSERT_TRUE(Eventually([&] { return watch.ended(); }));
  std::vector<std::string> lines = watch.Lines();
  ASSERT_EQ(lines.size(), 1u);
  rapidjson::Document event = Parse(lines[0]);
  EXPECT_EQ(GetString(event, "type"), "ERROR");
  EXPECT_EQ(event["object"]["code"].GetInt(), 410);
  EXPECT_EQ(GetString(event["object"], "reason"), "Expired");
}

TEST_F(ApiServerTest, BoundedHistoryExpiresOldResourceVersions) {
  FakeApiServerOptions options;
  options.history_size = 3;
  StartServer(options);
  AddNodes(6);
  WatchCollector old(server_.url(), "/api/v1/nodes?watch=1&resourceVersion=2");
  ASSERT_TRUE(Eventually([&] { return old.ended(); }));
  EXPECT_EQ(old.Types(), std::vector<std::string>{"ERROR"});
  WatchCollector recent(
      server_.url(),
      "/api/v1/nodes?watch=1&resourceVersion=3&timeoutSeconds=1");
  ASSERT_TRUE(Eventually([&] { return recent.ended(); }));
  EXPECT_EQ(recent.Types(),
            (std::vector<std::string>{"ADDED", "ADDED", "ADDED"}));
}

TEST_F(ApiServerTest, ConfigMapConflicts) {
  StartServer();
  ASSERT_TRUE(server_.PutConfigMap("ns", "cm", {{"k", "v1"}}).ok());
  std::string body = R"({"metadata":{"name":"cm"},"data":{"k":"v2"}})";
  httplib::Result created = client_->Post("/api/v1/namespaces/ns/configmaps",
                                          body, "application/json");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 409);
  EXPECT_EQ(GetString(Parse(created->body), "reason"), "AlreadyExists");

  std::string stale =
      R"({"metadata":{"name":"cm","resourceVersion":"999"},"data":{"k":"v2"}})";
  httplib::Result put = client_->Put("/api/v1/namespaces/ns/configmaps/cm",
                                     stale, "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 409);
  EXPECT_EQ(GetString(Parse(put->body), "reason"), "Conflict");

  std::string rv =
      GetString(Metadata(GetJson("/api/v1/namespaces/ns/configmaps/cm")),
                "resourceVersion");
  std::string fresh = R"({"metadata":{"name":"cm","resourceVersion":")" + rv +
                      R"("},"data":{"k":"v2"}})";
  put = client_->Put("/api/v1/namespaces/ns/configmaps/cm", fresh,
                     "application/json");
  ASSERT_TRUE(put);
  EXPECT_EQ(put->status, 200) << put->body;
  EXPECT_EQ(server_.ConfigMapData("ns", "cm")->at("k"), "v2");
  GetJson("/api/v1/namespaces/ns/configmaps/absent", 404);
}

TEST_F(ApiServerTest, ConfigMapWatchByName) {
  StartServer();
  ASSERT_TRUE(server_.PutConfigMap("ns", "other", {{"k", "v"}}).ok());
  std::string rv = ListRv("/api/v1/namespaces/ns/configmaps");
  WatchCollector watch(server_.url(),
                       "/api/v1/namespaces/ns/configmaps?watch=1"
                       "&fieldSelector=metadata.name%3Dcm&resourceVersion=" +
                           rv);
  ASSERT_TRUE(Eventually([&] { return server_.open_watches() == 1; }));
  ASSERT_TRUE(server_.PutConfigMap("ns", "other", {{"k", "w"}}).ok());
  ASSERT_TRUE(server_.PutConfigMap("ns", "cm", {{"k", "v"}}).ok());
  ASSERT_TRUE(Eventually([&] { return !watch.Lines().empty(); }));
  server_.DropWatches();
  ASSERT_TRUE(Eventually([&] { return watch.ended(); }));
  ASSERT_EQ(watch.Lines().size(), 1u);
  EXPECT_EQ(GetString(Metadata(Parse(watch.Lines()[0])["object"]), "name"),
            "cm");
}

TEST_F(ApiServerTest, PodsSelectableByNodeNameAcrossNamespaces) {
  StartServer();
  ASSERT_TRUE(server_
                  .CreateObject("/api/v1/namespaces/a/pods",
                                R"({"metadata":{"name":"p1"},"spec":{}})")
                  .ok());
  ASSERT_TRUE(server_
                  .CreateObject("/api/v1/namespaces/b/pods",
                                R"({"metadata":{"name":"p2"},)"
                                R"("spec":{"nodeName":"n1"}})")
                  .ok());
  EXPECT_EQ(GetJson("/api/v1/pods")["items"].Size(), 2u);
  rapidjson::Document pending =
      GetJson("/api/v1/pods?fieldSelector=spec.nodeName%3D");
  ASSERT_EQ(pending["items"].Size(), 1u);
  EXPECT_EQ(GetString(Metadata(pending["items"][0]), "name"), "p1");
  EXPECT_EQ(GetJson("/api/v1/namespaces/b/pods")["items"].Size(), 1u);
  GetJson("/api/v1/pods?fieldSelector=spec.bogus%3Dx", 400);
}

TEST_F(ApiServerTest, ScaleSubresource) {
  StartServer();
  ASSERT_TRUE(
      server_.CreateWorkload("deployment", "kube-system", "dns", 2).ok());
  const std::string path =
      "/apis/apps/v1/namespaces/kube-system/deployments/dns/scale";
  rapidjson::Document scale = GetJson(path);
  EXPECT_EQ(GetString(scale, "kind"), "Scale");
  EXPECT_EQ(GetString(scale, "apiVersion"), "autoscaling/v1");
  EXPECT_EQ(scale["spec"]["replicas"].GetInt(), 2);
  EXPECT_EQ(scale["status"]["replicas"].GetInt(), 2);

  httplib::Result patched = client_->Patch(path, R"({"spec":{"replicas":5}})",
                                           "application/merge-patch+json");
  ASSERT_TRUE(patched);
  EXPECT_EQ(patched->status, 200) << patched->body;
  EXPECT_EQ(Parse(patched->body)["spec"]["replicas"].GetInt(), 5);
  EXPECT_EQ(*server_.GetReplicas("Deployment", "kube-system", "dns"), 5);

  httplib::Result stale = client_->Put(
      path,
      R"({"metadata":{"name":"dns","resourceVersion":"1"},"spec":{"replicas":3}})",
      "application/json");
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409);
  GetJson("/apis/apps/v1/namespaces/kube-system/deployments/absent/scale", 404);
  GetJson("/api/v1/namespaces/kube-system/replicationcontrollers/dns/scale",
          404);
}

TEST_F(ApiServerTest, EventsAreStored) {
  StartServer();
  httplib::Result res = client_->Post(
      "/api/v1/namespaces/kube-system/events",
      R"({"metadata":{"generateName":"dns."},"reason":"Scaled","type":"Normal",)"
      R"("involvedObject":{"kind":"Deployment","namespace":"kube-system",)"
      R"("name":"coredns"}})",
      "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 201) << res->body;
  std::vector<std::string> events = server_.Events("kube-system");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(GetString(Parse(events[0]), "reason"), "Scaled");
  EXPECT_EQ(GetJson("/api/v1/namespaces/kube-system/events")["items"].Size(),
            1u);
}

// As the real server: an Event's namespace is its object's; a Node's
// Events live in "default".
TEST_F(ApiServerTest, EventsOfClusterScopedObjectsLiveInDefault) {
  StartServer();
  const std::string node_event =
      R"({"metadata":{"name":"n1.1"},"reason":"ScaleDown",)"
      R"("involvedObject":{"kind":"Node","name":"n1"}})";
  httplib::Result elsewhere = client_->Post(
      "/api/v1/namespaces/kube-system/events", node_event, "application/json");
  ASSERT_TRUE(elsewhere);
  EXPECT_EQ(elsewhere->status, 422) << elsewhere->body;
  EXPECT_NE(elsewhere->body.find("does not match event.namespace"),
            std::string::npos);
  httplib::Result in_default = client_->Post(
      "/api/v1/namespaces/default/events", node_event, "application/json");
  ASSERT_TRUE(in_default);
  EXPECT_EQ(in_default->status, 201) << in_default->body;
}

TEST_F(ApiServerTest, LeasesRejectStaleUpdates) {
  StartServer();
  const std::string leases =
      "/apis/coordination.k8s.io/v1/namespaces/ns/leases";
  httplib::Result created = client_->Post(
      leases, R"({"metadata":{"name":"l"},"spec":{"holderIdentity":"a"}})",
      "application/json");
  ASSERT_TRUE(created);
  EXPECT_EQ(created->status, 201);
  std::string rv = GetString(Metadata(Parse(created->body)), "resourceVersion");
  std::string update = R"({"metadata":{"name":"l","resourceVersion":")" + rv +
                       R"("},"spec":{"holderIdentity":"b"}})";
  EXPECT_EQ(client_->Put(leases + "/l", update, "application/json")->status,
            200);
  EXPECT_EQ(client_->Put(leases + "/l", update, "application/json")->status,
            409);
}

TEST_F(ApiServerTest, RequiresTheBearerToken) {
  FakeApiServerOptions options;
  options.bearer_token = "secret";
  StartServer(options);
  rapidjson::Document error = GetJson("/api/v1/nodes", 401);
  EXPECT_EQ(GetString(error, "kind"), "Status");
  EXPECT_EQ(error["code"].GetInt(), 401);
  client_->set_bearer_token_auth("secret");
  GetJson("/api/v1/nodes", 200);
}

TEST_F(ApiServerTest, InjectedFaultsFailTheNextMatchingRequests) {
  StartServer();
  FaultRule rule;
  rule.method = "GET";
  rule.path_prefix = "/api/v1/nodes";
  rule.code = 429;
  rule.count = 2;
  rule.retry_after_seconds = 1;
  server_.AddFault(rule);
  for (int i = 0; i < 2; ++i) {
    httplib::Result res = client_->Get("/api/v1/nodes");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 429);
    EXPECT_EQ(res->get_header_value("Retry-After"), "1");
    EXPECT_EQ(GetString(Parse(res->body), "reason"), "TooManyRequests");
  }
  GetJson("/api/v1/nodes", 200);

  httplib::Result added = client_->Post(
      "/sim/faults", R"({"method":"POST","pathPrefix":"/api/","code":500})",
      "application/json");
  ASSERT_TRUE(added);
  EXPECT_EQ(added->status, 201);
  EXPECT_EQ(
      client_->Post("/api/v1/nodes", NodeJson("n", "a"), "application/json")
          ->status,
      500);
  EXPECT_EQ(
      client_->Post("/api/v1/nodes", NodeJson("n", "a"), "application/json")
          ->status,
      201);
}

TEST_F(ApiServerTest, CountsRequests) {
  StartServer();
  GetJson("/api/v1/nodes?limit=1");
  GetJson("/api/v1/nodes");
  GetJson("/api/v1/nodes/x", 404);
  RequestCounts counts = server_.Requests();
  EXPECT_EQ(counts.Count("GET /api/v1/nodes"), 2);
  EXPECT_EQ(counts.Count("GET /api/v1/nodes/x"), 1);
  EXPECT_EQ(counts.total, 3);
  rapidjson::Document json = GetJson("/sim/requests");
  EXPECT_EQ(json["requests"]["GET /api/v1/nodes"].GetInt(), 2);
}

TEST_F(ApiServerTest, ServesHttpsAndChecksClientCertificates) {
  Result<TestCerts> certs = MakeTestCerts();
  ASSERT_TRUE(certs.ok()) << certs.status().message();
  FakeApiServerOptions options;
  options.tls_cert_file = certs->server.cert_file;
  options.tls_key_file = certs->server.key_file;
  options.client_ca_file = certs->client_ca.cert_file;
  ASSERT_TRUE(server_.Start(options).ok());
  EXPECT_EQ(server_.url().rfind("https://", 0), 0u);

  httplib::Client anonymous(server_.url());
  anonymous.set_ca_cert_path(certs->server_ca.cert_file.c_str());
  anonymous.enable_server_certificate_verification(true);
  EXPECT_FALSE(anonymous.Get("/api/v1/nodes"));

  httplib::Client client(server_.url(), certs->client.cert_file,
                         certs->client.key_file);
  client.set_ca_cert_path(certs->server_ca.cert_file.c_str());
  client.enable_server_certificate_verification(true);
  httplib::Result res = client.Get("/api/v1/nodes");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
}

TEST(MergePatchTest, FollowsRfc7386) {
  rapidjson::Document target =
      Parse(R"({"a":"b","c":{"d":"e","f":"g"},"l":[1,2]})");
  rapidjson::Document patch =
      Parse(R"({"a":"z","c":{"f":null,"h":{"i":null}},"l":[3]})");
  ApplyMergePatch(target, patch, target.GetAllocator());
  EXPECT_EQ(ToJson(target), R"({"a":"z","c":{"d":"e","h":{}},"l":[3]})");
}

TEST(NodeGeneratorTest, MakesRealisticNodes) {
  std::vector<std::string> nodes = GenerateNodes("n-", 4, 0);
  ASSERT_EQ(nodes.size(), 4u);
  for (const std::string& json : nodes) {
    EXPECT_GT(json.size(), 3000u);
    EXPECT_LT(json.size(), 4500u);
    rapidjson::Document node = Parse(json);
    Labels labels = GetLabels(node);
    EXPECT_EQ(labels.count("kubernetes.io/hostname"), 1u);
    EXPECT_EQ(labels.count("topology.kubernetes.io/zone"), 1u);
    EXPECT_EQ(labels.count("node.kubernetes.io/instance-type"), 1u);
  }
  rapidjson::Document four =
      Parse(MakeNodeJson(GeneratedNodeShape("n-", 1, 4)));
  EXPECT_EQ(GetString(four["status"]["capacity"], "cpu"), "4");
  EXPECT_EQ(GetString(four["status"]["allocatable"], "cpu"), "3920m");
  EXPECT_EQ(GetString(four["status"]["capacity"], "memory"), "16Gi");
}

}  // namespace
}  // namespace propscaler::sim

namespace propscaler::sim {
namespace {

TEST(StrategicMergePatchTest, ContainersMergeByNameOtherListsReplace) {
  rapidjson::Document target;
  target.Parse(R"({"spec": {"template": {"spec": {
      "containers": [{"name": "a", "image": "x",
                      "resources": {"requests": {"cpu": "1", "memory": "1"}}},
                     {"name": "b", "image": "y"}],
      "tolerations": [{"key": "k"}]}}}})");
  rapidjson::Document patch;
  patch.Parse(R"({"spec": {"template": {"spec": {
      "containers": [{"name": "b", "resources": {"limits": {"cpu": "2"}}},
                     {"name": "a", "resources": {"requests": {"cpu": "3"}}}],
      "tolerations": [{"key": "j"}]}}}})");
  ApplyStrategicMergePatch(target, patch, target.GetAllocator());
  const rapidjson::Value& spec = target["spec"]["template"]["spec"];
  ASSERT_EQ(spec["containers"].Size(), 2u);
  EXPECT_STREQ(spec["containers"][0]["name"].GetString(), "a");
  EXPECT_STREQ(spec["containers"][0]["image"].GetString(), "x");
  EXPECT_STREQ(
      spec["containers"][0]["resources"]["requests"]["cpu"].GetString(), "3");
  EXPECT_STREQ(
      spec["containers"][0]["resources"]["requests"]["memory"].GetString(),
      "1");
  EXPECT_STREQ(spec["containers"][1]["resources"]["limits"]["cpu"].GetString(),
               "2");
  ASSERT_EQ(spec["tolerations"].Size(), 1u);
  EXPECT_STREQ(spec["tolerations"][0]["key"].GetString(), "j");
}

TEST(PodTemplateValidationTest, RejectsWhatTheRealServerRejects) {
  const ResourceType& deployments = *FindResourceType("deployments");
  rapidjson::Document object;
  object.Parse(R"({"spec": {"template": {"spec": {"containers": [
      {"name": "a", "image": "x",
       "resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1500m"}}},
      {"name": "b"}]}}}})");
  std::optional<ApiError> error = ValidatePodTemplate(deployments, "d", object);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, 422);
  EXPECT_EQ(error->message,
            "Deployment.apps \"d\" is invalid: "
            "[spec.template.spec.containers[0].resources.requests: Invalid "
            "value: \"2\": must be less than or equal to cpu limit, "
            "spec.template.spec.containers[1].image: Required value]");
  object.Parse(R"({"spec": {"template": {"spec": {"containers": [
      {"name": "a", "image": "x", "resources": {"requests": {"cpu": "1"}}}]}}}})");
  EXPECT_FALSE(ValidatePodTemplate(deployments, "d", object).has_value());
}

}  // namespace
}  // namespace propscaler::sim

namespace propscaler::sim {
namespace {

// Eviction under PodDisruptionBudgets, as kube-apiserver's eviction does it
// (checked against the real one in NodeScaleRealServerTest
// .ConsolidationReplacesNodesAndDrainsByEviction).
TEST_F(ApiServerTest, EvictionHonoursPodDisruptionBudgets) {
  StartServer();
  auto post = [&](const std::string& path, const std::string& body) {
    httplib::Result res = client_->Post(path, body, "application/json");
    return res ? res->status : 0;
  };
  const std::string pods = "/api/v1/namespaces/default/pods";
  const std::string pdbs =
      "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
  for (const char* name : {"web-0", "web-1", "web-2"}) {
    ASSERT_EQ(post(pods, std::string(R"({"metadata":{"name":")") + name +
                             R"(","labels":{"app":"web"}},)"
                             R"("spec":{"nodeName":"n","containers":[]},)"
                             R"("status":{"phase":"Running","conditions":[)"
                             R"({"type":"Ready","status":"True"}]}})"),
              201);
  }
  ASSERT_EQ(post(pdbs, R"({"metadata":{"name":"web"},"spec":{)"
                       R"("selector":{"matchLabels":{"app":"web"}}},)"
                       R"("status":{"observedGeneration":1,)"
                       R"("disruptionsAllowed":1}})"),
            201);
  auto evict = [&](const std::string& pod) {
    return post(pods + "/" + pod + "/eviction",
                R"({"apiVersion":"policy/v1","kind":"Eviction"})");
  };
  EXPECT_EQ(evict("web-0"), 201);
  EXPECT_EQ(evict("web-1"), 429) << "the one disruption is spent";
  EXPECT_EQ(GetJson(pdbs + "/web")["status"]["disruptionsAllowed"].GetInt(), 0);
  GetJson(pods + "/web-0", 404);
  GetJson(pods + "/web-1", 200);
  // A second budget over the same pods: the eviction API supports one.
  ASSERT_EQ(post(pdbs, R"({"metadata":{"name":"all-web"},"spec":{)"
                       R"("selector":{"matchLabels":{"app":"web"}}},)"
                       R"("status":{"observedGeneration":1,)"
                       R"("disruptionsAllowed":5}})"),
            201);
  EXPECT_EQ(evict("web-2"), 500);
  // Discovery: this server serves policy/v1 and no v1beta1.
  GetJson("/apis/policy/v1", 200);
  GetJson("/apis/policy/v1beta1", 404);
}

}  // namespace
}  // namespace propscaler::sim

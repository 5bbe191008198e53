// The simulated server's pods/resize (tests/apiserver/pod_resize.h) over
// HTTP: what the API accepts and refuses, and the kubelet's answer played
// at once (done, Deferred, Infeasible), as KEP-1287 and the Kubernetes docs
// describe them.
#include "apiserver/pod_resize.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <rapidjson/document.h>

#include <string>

#include "apiserver/fake_apiserver.h"
#include "apiserver/json_util.h"

namespace propscaler::sim {
namespace {

constexpr char kPods[] = "/api/v1/namespaces/dns/pods";

// A Burstable pod on node-1 whose one container requests `cpu` and
// `memory`, limited to twice the memory.
std::string PodJson(const std::string& name, const std::string& cpu,
                    const std::string& memory_mi) {
  const std::string limit = std::to_string(2 * std::stoi(memory_mi)) + "Mi";
  return R"({"metadata":{"name":")" + name +
         R"("},"spec":{"nodeName":"node-1","containers":[{"name":"dns","image":"coredns","resources":{"requests":{"cpu":")" +
         cpu + R"(","memory":")" + memory_mi + R"(Mi"},"limits":{"memory":")" +
         limit +
         R"("}}}]},"status":{"phase":"Running","containerStatuses":[{"name":"dns","resources":{"requests":{"cpu":")" +
         cpu + R"(","memory":")" + memory_mi + R"(Mi"}}}]}})";
}

std::string ResizePatch(const std::string& cpu, const std::string& memory) {
  return R"({"spec":{"containers":[{"name":"dns","resources":{"requests":{"cpu":")" +
         cpu + R"(","memory":")" + memory + R"("}}}]}})";
}

class PodResizeTest : public ::testing::Test {
 protected:
  void Start(bool pod_resize = true) {
    FakeApiServerOptions options;
    options.pod_resize = pod_resize;
    ASSERT_TRUE(server_.Start(options).ok());
    client_ = std::make_unique<httplib::Client>(server_.url());
    ASSERT_TRUE(
        server_
            .CreateNode(
                R"({"metadata":{"name":"node-1"},"status":{"allocatable":{"cpu":"2","memory":"4Gi"}}})")
            .ok());
  }
  httplib::Result Resize(
      const std::string& pod, const std::string& patch,
      const std::string& type = "application/strategic-merge-patch+json") {
    return client_->Patch(std::string(kPods) + "/" + pod + "/resize", patch,
                          type);
  }
  rapidjson::Document Pod(const std::string& name) {
    rapidjson::Document doc;
    doc.Parse(server_.GetObject(std::string(kPods) + "/" + name)
                  .value_or("{}")
                  .c_str());
    return doc;
  }
  std::string Pending(const std::string& name) {
    rapidjson::Document pod = Pod(name);
    if (!pod.HasMember("status") || !pod["status"].HasMember("conditions")) {
      return "";
    }
    for (const auto& c : pod["status"]["conditions"].GetArray()) {
      if (GetString(c, "type") == "PodResizePending") {
        return GetString(c, "reason");
      }
    }
    return "";
  }
  std::string ActualCpu(const std::string& name) {
    rapidjson::Document pod = Pod(name);
    return GetString(
        pod["status"]["containerStatuses"][0]["resources"]["requests"], "cpu");
  }

  FakeApiServer server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(PodResizeTest, AResizeThatFitsIsDone) {
  Start();
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("a", "500m", "100")).ok());
  httplib::Result res = Resize("a", ResizePatch("1", "200Mi"));
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(ActualCpu("a"), "1");
  EXPECT_EQ(Pending("a"), "");
  rapidjson::Document pod = Pod("a");
  EXPECT_EQ(GetString(pod["spec"]["containers"][0]["resources"]["requests"],
                      "memory"),
            "200Mi");
  // The limit the patch did not name stays.
  EXPECT_EQ(
      GetString(pod["spec"]["containers"][0]["resources"]["limits"], "memory"),
      "200Mi");
  // GET of the subresource is the pod.
  httplib::Result got = client_->Get(std::string(kPods) + "/a/resize");
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, 200);
}

TEST_F(PodResizeTest, NoRoomNowIsDeferredNeverOnThisNodeInfeasible) {
  Start();
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("a", "500m", "100")).ok());
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("b", "1", "100")).ok());
  ASSERT_EQ(Resize("a", ResizePatch("1500m", "100Mi"))->status, 200);
  EXPECT_EQ(Pending("a"), "Deferred");
  EXPECT_EQ(ActualCpu("a"), "500m");
  // Room frees up: the kubelet's retry does it.
  ASSERT_TRUE(
      server_.store().Delete(*FindResourceType("pods"), "dns", "b").ok());
  RetryDeferredResizes(server_.store(), "dns");
  EXPECT_EQ(Pending("a"), "");
  EXPECT_EQ(ActualCpu("a"), "1500m");

  ASSERT_EQ(Resize("a", ResizePatch("3", "100Mi"))->status, 200);
  EXPECT_EQ(Pending("a"), "Infeasible");
  EXPECT_EQ(ActualCpu("a"), "1500m");
}

TEST_F(PodResizeTest, RefusesWhatTheApiRefuses) {
  Start();
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("a", "500m", "100")).ok());
  struct Case {
    std::string patch;
    int status;
    std::string says;
  };
  for (
      const Case& c : {
          Case{R"({"spec":{"containers":[{"name":"dns","image":"other"}]}})",
               422, "only cpu and memory resources are mutable"},
          Case{
              R"({"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"dns","resources":{"requests":{"cpu":"1"}}}]}})",
              200, ""},
          Case{
              R"({"spec":{"containers":[{"name":"dns","resources":{"requests":{"memory":"300Mi"}}}]}})",
              422, "must be less than or equal to memory limit"},
          Case{
              R"({"spec":{"containers":[{"name":"dns","resources":{"requests":{"cpu":null,"memory":null},"limits":{"memory":null}}}]}})",
              422, "QOS Class may not change"},
          Case{
              R"({"metadata":{"resourceVersion":"1"},"spec":{"containers":[{"name":"dns","resources":{"requests":{"cpu":"1"}}}]}})",
              409, "modified"},
      }) {
    httplib::Result res = Resize("a", c.patch);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, c.status) << c.patch << "\n" << res->body;
    EXPECT_NE(res->body.find(c.says), std::string::npos) << res->body;
  }
  // Labels are not the subresource's to change.
  EXPECT_FALSE(Pod("a")["metadata"].HasMember("labels"));
  EXPECT_EQ(
      client_->Put(std::string(kPods) + "/a/resize", "{}", "application/json")
          ->status,
      405);
}

TEST_F(PodResizeTest, ServersBefore133AnswerNotFound) {
  Start(/*pod_resize=*/false);
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("a", "500m", "100")).ok());
  EXPECT_EQ(Resize("a", ResizePatch("1", "100Mi"))->status, 404);
  EXPECT_EQ(ActualCpu("a"), "500m");
  httplib::Result discovery = client_->Get("/api/v1");
  ASSERT_TRUE(discovery);
  EXPECT_EQ(discovery->body.find("pods/resize"), std::string::npos);
}

TEST_F(PodResizeTest, DiscoveryListsTheSubresource) {
  Start();
  httplib::Result discovery = client_->Get("/api/v1");
  ASSERT_TRUE(discovery);
  EXPECT_NE(discovery->body.find(R"("name":"pods/resize")"), std::string::npos)
      << discovery->body;
}

// Only pods/resize may resize: a PATCH or PUT of the pod itself is 422, as
// the real server answers, and the pod keeps its size.
TEST_F(PodResizeTest, ThePodItselfCannotBeResized) {
  Start();
  ASSERT_TRUE(server_.CreateObject(kPods, PodJson("a", "500m", "100")).ok());
  httplib::Result patched =
      client_->Patch(std::string(kPods) + "/a", ResizePatch("1", "100Mi"),
                     "application/strategic-merge-patch+json");
  ASSERT_TRUE(patched);
  EXPECT_EQ(patched->status, 422) << patched->body;
  EXPECT_NE(patched->body.find("pod updates may not change fields"),
            std::string::npos)
      << patched->body;
  rapidjson::Document pod = Pod("a");
  EXPECT_EQ(GetString(pod["spec"]["containers"][0]["resources"]["requests"],
                      "cpu"),
            "500m");
  // Another field (a label) is still writable.
  EXPECT_EQ(client_
                ->Patch(std::string(kPods) + "/a",
                        R"({"metadata":{"labels":{"x":"y"}}})",
                        "application/merge-patch+json")
                ->status,
            200);
}

}  // namespace
}  // namespace propscaler::sim

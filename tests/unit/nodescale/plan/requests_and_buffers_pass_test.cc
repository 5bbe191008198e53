// The ProvisioningRequests and CapacityBuffers of one iteration, decided
// (plan/requests_pass.h, plan/buffers_pass.h): the requests wait while
// their templates are not listed; a check-capacity request that fits is
// written Provisioned and its room booked first, a follower's is neither;
// a buffer's chunk becomes its virtual pods, or the reason it does not.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "nodescale/plan/buffers_pass.h"
#include "nodescale/plan/requests_pass.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using std::chrono::minutes;

const TimePoint kNow = std::chrono::system_clock::from_time_t(1'800'000'000);

class RequestsPassTest : public ::testing::Test {
 protected:
  RequestsPassTest() {
    snapshot_.nodes = {Node("n1", "g", 4000, 16 * kGi)};
    request_.namespace_ = "batch";
    request_.name = "job";
    request_.uid = "uid-job";
    request_.resource_version = "7";
    request_.created = kNow - minutes(5);
    request_.class_name = kube::kCheckCapacityClass;
    request_.pod_sets = {{"worker", 2}};
    settings_.provisioning_requests = true;
  }

  RequestsPass Plan(bool may_act) {
    return PlanRequests(
        {&requests_, &templates_, &groups_, may_act, kNow, nullptr}, settings_,
        &snapshot_, &memory_);
  }

  kube::PodTemplateMap Worker(int64_t cpu_millis) {
    kube::PodTemplateMap templates;
    templates["batch/worker"] = {"batch", "worker", "3",
                                 Pod("worker", cpu_millis, kGi), ""};
    templates["batch/worker"].pod.namespace_ = "batch";
    return templates;
  }

  kube::ProvisioningRequest request_;
  std::vector<kube::ProvisioningRequest> requests_;
  std::optional<kube::PodTemplateMap> templates_;
  std::vector<NodeGroup> groups_{Group("g", 0, 1, 1, 4000, 16 * kGi)};
  ClusterSnapshot snapshot_;
  NodeScaleSettings settings_;
  LoopMemory memory_{GroupBackoff(minutes(5), minutes(30)),
                     ProvisionTracker(minutes(15)), ScaleDownTimers({}),
                     ProvReqBackoff(minutes(1), minutes(10), 1000)};
};

TEST_F(RequestsPassTest, RequestsWaitWhileTheTemplatesAreNotListed) {
  requests_ = {request_};
  const RequestsPass pass = Plan(/*may_act=*/true);
  EXPECT_TRUE(pass.actions.empty());
  EXPECT_FALSE(pass.listed);
  EXPECT_EQ(pass.lines, std::vector<std::string>{
                            "batch/job: waits for PodTemplates to be listed"});
}

TEST_F(RequestsPassTest, ARequestThatFitsIsWrittenAndItsRoomBooked) {
  requests_ = {request_};
  templates_ = Worker(1500);
  const RequestsPass pass = Plan(/*may_act=*/true);
  EXPECT_TRUE(pass.listed);
  ASSERT_EQ(pass.writes.size(), 1u);
  EXPECT_EQ(pass.writes[0].then, RequestWrite::Then::kProvisioned);
  const auto* write =
      std::get_if<WriteRequestConditions>(&pass.actions[pass.writes[0].action]);
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(write->request.Key(), "batch/job");
  ASSERT_GE(snapshot_.pods.size(), 2u);
  EXPECT_EQ(snapshot_.pods[0].Key(), "batch/job-0-0") << "booked first";
  EXPECT_EQ(snapshot_.pods[1].Key(), "batch/job-0-1");
}

TEST_F(RequestsPassTest, ARequestThatDoesNotFitBacksOffOnceWritten) {
  requests_ = {request_};
  templates_ = Worker(3000);  // two of 3 cpu: one 4-cpu node, no more
  const RequestsPass pass = Plan(/*may_act=*/true);
  ASSERT_EQ(pass.writes.size(), 1u);
  EXPECT_EQ(pass.writes[0].then, RequestWrite::Then::kBackOff);
  EXPECT_EQ(snapshot_.pods.size(), 0u) << "no room held";
}

TEST_F(RequestsPassTest, AFollowerWritesAndBooksNothing) {
  requests_ = {request_};
  templates_ = Worker(1500);
  const RequestsPass pass = Plan(/*may_act=*/false);
  EXPECT_TRUE(pass.writes.empty());
  EXPECT_EQ(snapshot_.pods.size(), 0u);
}

TEST(BuffersPassTest, EachChunkIsAVirtualPodOrWhyNot) {
  ClusterSnapshot snapshot;
  snapshot.nodes = {Node("n1", "g", 4000, 16 * kGi)};
  const std::vector<NodeGroup> groups = {Group("g", 0, 5, 1, 4000, 16 * kGi)};
  kube::CapacityBuffer good;
  good.namespace_ = "shop";
  good.name = "spare";
  good.pod_template = "chunk";
  good.replicas = 2;
  kube::CapacityBuffer missing = good;
  missing.name = "missing";
  kube::CapacityBuffer invalid = good;
  invalid.name = "invalid";
  invalid.pod_template.clear();  // neither podTemplateRef nor scalableRef
  kube::BufferChunk chunk;
  chunk.pod = Pod("chunk", 500, kGi);
  const std::vector<ObservedBuffer> observed = {
      {good, chunk},
      {missing, Status::NotFound("podtemplates \"chunk\" not found")},
      {invalid, Status::Invalid("names neither")}};
  BuffersPass pass = PlanBuffers(observed, groups, &snapshot);
  ASSERT_EQ(pass.buffers.size(), 3u);
  EXPECT_EQ(pass.buffers[0].replicas, 2);
  EXPECT_EQ(snapshot.pods.size(), 2u);
  EXPECT_EQ(pass.buffer_of_pod.size(), 2u);
  EXPECT_EQ(pass.buffers[1].not_ready_reason, "PodTemplateNotFound");
  EXPECT_EQ(pass.buffers[2].not_ready_reason, "InvalidSpec");
  EXPECT_EQ(pass.StatusPatches().size(), 3u) << "none has a status yet";
  ASSERT_EQ(pass.Lines().size(), 3u);
  EXPECT_EQ(pass.Lines()[0].rfind("shop/spare: 2 chunks", 0), 0u)
      << pass.Lines()[0];
}

}  // namespace
}  // namespace propscaler::nodescale

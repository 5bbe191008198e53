// One loop's pass over the ProvisioningRequests (plan/provisioning_requests/
// provreq_pass.h): the consuming pods taken out of the plan, each
// request's todo and line, the check-capacity batch's room, a request
// written and not seen again left alone, the counts by class and state.
#include "nodescale/plan/provisioning_requests/provreq_pass.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT
using Kind = ProvReqTodo::Kind;
using std::chrono::hours;
using std::chrono::minutes;

const TimePoint kNow = TimePoint() + hours(24 * 365);

kube::ProvisioningRequest Request(const std::string& name,
                                  const std::string& class_name) {
  kube::ProvisioningRequest request;
  request.namespace_ = "batch";
  request.name = name;
  request.uid = "uid-" + name;
  request.resource_version = "7";
  request.created = kNow - minutes(1);
  request.class_name = class_name;
  request.pod_sets = {{name + "-template", 2}};
  return request;
}

ProvReqPass Pass(const std::vector<kube::ProvisioningRequest>& requests,
                 const std::map<std::string, std::string>& acted = {},
                 CheckCapacityBatch batch = {}) {
  const ProvReqBackoff backoff(minutes(1), minutes(10), 100);
  return PlanProvisioningRequests(requests, {}, acted, backoff, {}, batch,
                                  kNow);
}

TEST(ProvReqPassTest, NewRequestsAreCheckedOrTakenForTheAtomicScaleUp) {
  const std::vector<kube::ProvisioningRequest> requests = {
      Request("a", kube::kCheckCapacityClass),
      Request("b", kube::kBestEffortAtomicClass),
      Request("c", "someone-elses")};
  const ProvReqPass pass = Pass(requests);
  ASSERT_EQ(pass.todo.size(), 3u);
  EXPECT_EQ(pass.todo[0].kind, Kind::kCheck);
  EXPECT_EQ(pass.todo[0].request, &requests[0]);
  EXPECT_EQ(
      pass.todo[0].line.rfind(
          "batch/a (" + std::string(kube::kCheckCapacityClass) + "): ", 0),
      0u)
      << pass.todo[0].line;
  EXPECT_EQ(pass.todo[1].kind, Kind::kAtomic);
  EXPECT_EQ(pass.todo[2].kind, Kind::kNothing);
  EXPECT_EQ(pass.counts.at({kube::kCheckCapacityClass, "pending"}), 1);
  EXPECT_EQ(pass.counts.at({"someone-elses", "unsupported"}), 1);
}

TEST(ProvReqPassTest, CheckCapacityRequestsBeyondTheBatchWait) {
  const std::vector<kube::ProvisioningRequest> requests = {
      Request("a", kube::kCheckCapacityClass),
      Request("b", kube::kCheckCapacityClass),
      Request("c", kube::kCheckCapacityClass)};
  const ProvReqPass pass = Pass(requests, {}, {.size = 2});
  ASSERT_EQ(pass.todo.size(), 3u);
  EXPECT_EQ(pass.todo[0].kind, Kind::kCheck);
  EXPECT_EQ(pass.todo[1].kind, Kind::kCheck);
  EXPECT_EQ(pass.todo[2].kind, Kind::kNothing);
  EXPECT_NE(pass.todo[2].line.find("; waits for the next loop"),
            std::string::npos);
  EXPECT_EQ(pass.counts.at({kube::kCheckCapacityClass, "pending"}), 3);
}

TEST(ProvReqPassTest, ARequestWrittenAndNotSeenAgainIsLeftAlone) {
  const std::vector<kube::ProvisioningRequest> requests = {
      Request("a", kube::kCheckCapacityClass)};
  ProvReqPass pass = Pass(requests, {{"uid-a", "7"}});
  ASSERT_EQ(pass.todo.size(), 1u);
  EXPECT_EQ(pass.todo[0].kind, Kind::kNothing);
  EXPECT_EQ(pass.todo[0].line, "batch/a: written, waiting to see it");
  EXPECT_TRUE(pass.counts.empty());
  // Once the watch brings a newer version, it is acted on again.
  pass = Pass(requests, {{"uid-a", "6"}});
  EXPECT_EQ(pass.todo[0].kind, Kind::kCheck);
}

TEST(ProvReqPassTest, ConsumingPodsLeaveThePlanAndScheduledOnesAreCounted) {
  PodList pods;
  PodState waiting = Pod("waits", 100, kGi);
  waiting.namespace_ = "batch";
  waiting.annotations = {
      {std::string(kube::kConsumeProvisioningRequestAnnotation), "a"}};
  PodState running = BoundPod("runs", "node-1", 100, kGi);
  running.namespace_ = "batch";
  running.annotations = {
      {std::string(kube::kDeprecatedConsumeAnnotation), "a"}};
  pods.push_back(waiting);
  pods.push_back(running);
  pods.push_back(Pod("other", 100, kGi));
  const ConsumingPods consuming = TakeOutConsumingPods(&pods);
  EXPECT_EQ(consuming.waiting.at("batch/waits"), "batch/a");
  EXPECT_EQ(consuming.scheduled.at("batch/a"), 1);
  ASSERT_EQ(pods.size(), 2u);  // the waiting consumer is out
  EXPECT_EQ(pods[0].name, "runs");
  EXPECT_EQ(pods[1].name, "other");
}

}  // namespace
}  // namespace propscaler::nodescale

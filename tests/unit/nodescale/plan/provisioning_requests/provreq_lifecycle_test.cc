// ProvisioningRequests' lifecycle, their validation and backoff, and
// check-capacity's all-or-nothing placement, against the cases of Cluster
// Autoscaler's processor_test.go, injector_test.go, pods_test.go and
// orchestrator_test.go (../shared/reference/provisioning-request.md,
// section 6).
#include "nodescale/plan/provisioning_requests/provreq_lifecycle.h"

#include <gtest/gtest.h>

#include <chrono>

#include "nodescale/plan/provisioning_requests/provreq_backoff.h"
#include "nodescale/plan/provisioning_requests/provreq_capacity.h"
#include "nodescale/plan/provisioning_requests/provreq_validation.h"
#include "nodescale/plan/scale_up/upcoming_nodes.h"
#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using Action = ProvReqVerdict::Action;
using namespace testing_util;  // NOLINT
using std::chrono::hours;
using std::chrono::minutes;

const TimePoint kNow = TimePoint() + hours(24 * 365);

kube::ProvisioningRequest Request(
    const std::string& class_name = kube::kCheckCapacityClass,
    TimePoint created = kNow - minutes(1)) {
  kube::ProvisioningRequest request;
  request.namespace_ = "batch";
  request.name = "job";
  request.uid = "uid-job";
  request.created = created;
  request.class_name = class_name;
  request.pod_sets = {{"job-template", 2}};
  return request;
}

kube::ProvisioningRequest With(kube::ProvisioningRequest request,
                               const std::string& type,
                               const std::string& status, TimePoint when) {
  request.conditions.push_back({type, status, "", "", when});
  return request;
}

ProvReqVerdict Classify(const kube::ProvisioningRequest& request,
                        Duration backoff = minutes(1), int64_t consumed = 0,
                        const ProvReqOptions& options = {}) {
  return ClassifyProvisioningRequest(request, kNow, backoff, consumed, options);
}

// processor_test.go.
TEST(ProvReqLifecycleTest, ProcessorCases) {
  // Created over 7 days ago and never provisioned: Failed, Expired.
  ProvReqVerdict v = Classify(
      Request(kube::kCheckCapacityClass, kNow - hours(7 * 24) - minutes(1)));
  ASSERT_EQ(v.action, Action::kWrite);
  ASSERT_EQ(v.conditions.size(), 1u);
  EXPECT_EQ(v.conditions[0].type, kube::kFailed);
  EXPECT_EQ(v.conditions[0].reason, "Expired");
  EXPECT_EQ(v.conditions[0].last_transition, kNow);
  // Provisioned a day ago: the booking expired.
  v = Classify(With(Request(), kube::kProvisioned, "True", kNow - hours(24)));
  ASSERT_EQ(v.action, Action::kWrite);
  EXPECT_EQ(v.conditions[0].type, kube::kBookingExpired);
  EXPECT_EQ(v.conditions[0].reason, "CapacityReservationTimeExpired");
  // Failed, or Provisioned, ten days ago: deleted.
  EXPECT_EQ(Classify(With(Request(), kube::kFailed, "True", kNow - hours(240)))
                .action,
            Action::kDelete);
  EXPECT_EQ(Classify(With(With(Request(), kube::kProvisioned, "True",
                               kNow - hours(240)),
                          kube::kBookingExpired, "True", kNow - hours(240)))
                .action,
            Action::kDelete);
}

// Booked: only Provisioned=True of a supported class, neither failed nor
// with its booking over.
TEST(ProvReqLifecycleTest, WhatIsBooked) {
  const kube::ProvisioningRequest provisioned =
      With(Request(), kube::kProvisioned, "True", kNow - minutes(5));
  ProvReqVerdict v = Classify(provisioned);
  EXPECT_EQ(v.action, Action::kBook);
  EXPECT_EQ(v.booked_pods, 2);
  EXPECT_EQ(Classify(Request()).action, Action::kCheck) << "new";
  EXPECT_EQ(Classify(With(provisioned, kube::kFailed, "True", kNow)).action,
            Action::kNone);
  EXPECT_EQ(
      Classify(With(provisioned, kube::kBookingExpired, "True", kNow)).action,
      Action::kNone);
  kube::ProvisioningRequest unknown = provisioned;
  unknown.class_name = "queued-provisioning.gke.io";
  EXPECT_EQ(Classify(unknown).action, Action::kUnsupported);
  // Just within the 10 minutes, and just past them.
  EXPECT_EQ(
      Classify(With(Request(), kube::kProvisioned, "True", kNow - minutes(10)))
          .action,
      Action::kBook);
  EXPECT_EQ(Classify(With(Request(), kube::kProvisioned, "True",
                          kNow - minutes(10) - std::chrono::seconds(1)))
                .action,
            Action::kWrite);
}

// The booking ends once its pods run in full (Cluster Autoscaler's master
// does the same; 1.36 books the full count until the 10 minutes are up);
// meanwhile only the room not yet consumed is held.
TEST(ProvReqLifecycleTest, ConsumedRoomIsNotBookedTwice) {
  const kube::ProvisioningRequest provisioned =
      With(Request(), kube::kProvisioned, "True", kNow - minutes(5));
  EXPECT_EQ(Classify(provisioned, minutes(1), 0).booked_pods, 2);
  EXPECT_EQ(Classify(provisioned, minutes(1), 1).booked_pods, 1);
  ProvReqVerdict v = Classify(provisioned, minutes(1), 2);
  ASSERT_EQ(v.action, Action::kWrite);
  EXPECT_EQ(v.conditions[0].type, kube::kBookingExpired);
  EXPECT_EQ(v.conditions[0].reason, "CapacityBookingConsumed");
}

// injector_test.go.
TEST(ProvReqLifecycleTest, InjectorCases) {
  EXPECT_EQ(
      Classify(With(Request(), kube::kProvisioned, "False", kNow - hours(1)))
          .action,
      Action::kCheck);
  ProvReqVerdict v =
      Classify(With(Request(), kube::kProvisioned, "False", kNow - minutes(1)),
               minutes(2));
  EXPECT_EQ(v.action, Action::kNone);
  ASSERT_TRUE(v.retry_at.has_value());
  EXPECT_EQ(*v.retry_at, kNow + minutes(1));
  EXPECT_EQ(
      Classify(With(Request(), kube::kProvisioned, "Unknown", kNow - hours(1)))
          .action,
      Action::kNone);
  // The processor instance must match.
  kube::ProvisioningRequest other = Request();
  other.parameters["processorInstance"] = "b";
  EXPECT_EQ(Classify(other, minutes(1), 0, {.processor_instance = "a"}).action,
            Action::kUnsupported);
  other.parameters["processorInstance"] = "a";
  EXPECT_EQ(Classify(other, minutes(1), 0, {.processor_instance = "a"}).action,
            Action::kCheck);
  EXPECT_EQ(Classify(other).action, Action::kUnsupported);
  // Best-effort-atomic is off in a processor instance.
  EXPECT_EQ(Classify(Request(kube::kBestEffortAtomicClass), minutes(1), 0,
                     {.processor_instance = "a"})
                .action,
            Action::kUnsupported);
}

TEST(ProvReqLifecycleTest, OutcomesOfACheck) {
  kube::ProvisioningRequest request = Request();
  std::vector<kube::ProvReqCondition> out = CheckOutcome(request, true, kNow);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].type, kube::kAccepted);
  EXPECT_EQ(out[1].type, kube::kProvisioned);
  EXPECT_EQ(out[1].status, "True");
  EXPECT_EQ(out[1].reason, "CapacityIsFound");
  out = CheckOutcome(request, false, kNow);
  EXPECT_EQ(out[1].type, kube::kProvisioned);
  EXPECT_EQ(out[1].status, "False");
  EXPECT_EQ(out[1].reason, "CapacityIsNotFound");
  // noRetry: failed for good (check-capacity only).
  request.parameters["noRetry"] = "true";
  out = CheckOutcome(request, false, kNow);
  EXPECT_EQ(out[1].type, kube::kFailed);
  EXPECT_EQ(out[1].reason, "CapacityIsNotFound");
  request.class_name = kube::kBestEffortAtomicClass;
  EXPECT_EQ(CheckOutcome(request, false, kNow)[1].type, kube::kProvisioned);
}

TEST(ProvReqValidationTest, NamesTheFieldAndValue) {
  const struct {
    std::function<void(kube::ProvisioningRequest*)> edit;
    std::string message;
  } cases[] = {
      {[](auto* r) { r->class_name.clear(); },
       "spec.provisioningClassName: required"},
      {[](auto* r) { r->class_name = "Check_Capacity"; },
       "spec.provisioningClassName: \"Check_Capacity\": must be a DNS "
       "subdomain"},
      {[](auto* r) { r->class_name = "x.kubernetes.io"; },
       "the kubernetes.io suffix is reserved"},
      {[](auto* r) { r->pod_sets.clear(); },
       "spec.podSets: has 0 items: must have 1 to 32"},
      {[](auto* r) {
         r->pod_sets.resize(33, {"t", 1});
       },
       "spec.podSets: has 33 items"},
      {[](auto* r) {
         r->pod_sets.push_back({"t", 0});
       },
       "spec.podSets[1].count: \"0\": must be at least 1"},
      {[](auto* r) {
         r->pod_sets.push_back({"", 1});
       },
       "spec.podSets[1].podTemplateRef.name: required"},
      {[](auto* r) { r->parameters["noRetry"] = std::string(256, 'x'); },
       "spec.parameters.noRetry: 256 characters: at most 255"},
  };
  EXPECT_TRUE(ValidateProvisioningRequest(Request()).ok());
  for (const auto& c : cases) {
    kube::ProvisioningRequest request = Request();
    c.edit(&request);
    Status status = ValidateProvisioningRequest(request);
    EXPECT_FALSE(status.ok()) << c.message;
    EXPECT_NE(status.message().find(c.message), std::string::npos)
        << status.message();
    EXPECT_NE(status.message().find("ProvisioningRequest batch/job"),
              std::string::npos)
        << status.message();
    // An invalid request of a served class fails with the message, and is
    // not checked; one of another class is another provisioner's.
    ProvReqVerdict v = Classify(request);
    if (request.class_name != kube::kCheckCapacityClass) {
      EXPECT_EQ(v.action, Action::kUnsupported);
      continue;
    }
    ASSERT_EQ(v.action, Action::kWrite) << c.message;
    EXPECT_EQ(v.conditions[0].type, kube::kFailed);
    EXPECT_EQ(v.conditions[0].reason, "InvalidSpec");
    EXPECT_EQ(v.conditions[0].message, status.message());
  }
}

TEST(ProvReqBackoffTest, DoublesToTheMaxAndForgetsTheOldest) {
  ProvReqBackoff backoff(minutes(1), minutes(10), 2);
  EXPECT_EQ(backoff.Of("a"), minutes(1));
  backoff.Failed("a");
  EXPECT_EQ(backoff.Of("a"), minutes(1));
  for (Duration want :
       {minutes(2), minutes(4), minutes(8), minutes(10), minutes(10)}) {
    backoff.Failed("a");
    EXPECT_EQ(backoff.Of("a"), want);
  }
  backoff.Failed("b");
  backoff.Failed("b");
  EXPECT_EQ(backoff.Of("b"), minutes(2));
  backoff.Failed("c");  // the cache holds two: "a", the oldest, goes
  EXPECT_EQ(backoff.Of("a"), minutes(1));
  EXPECT_EQ(backoff.Of("b"), minutes(2));
  backoff.Forget("b");
  EXPECT_EQ(backoff.Of("b"), minutes(1));
}

// pods_test.go: several podSets give <request>-<i>-<j>.
TEST(ProvReqCapacityTest, PodsAreNamedAsClusterAutoscalerNamesThem) {
  kube::ProvisioningRequest request = Request();
  request.pod_sets = {{"a", 2}, {"b", 1}};
  const std::vector<PodState> pods = ProvisioningRequestPods(
      request, {Pod("t1", 100, kGi), Pod("t2", 200, kGi)}, 1000);
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(pods[0].Key(), "batch/job-0-0");
  EXPECT_EQ(pods[1].Key(), "batch/job-0-1");
  EXPECT_EQ(pods[2].Key(), "batch/job-1-0");
  EXPECT_EQ(pods[2].requests.cpu_millis, 200);
  EXPECT_EQ(*pods[2].owner_kind, kProvisioningRequestKind);
  EXPECT_EQ(*pods[2].owner_name, "job");
  EXPECT_TRUE(pods[2].node_name.empty());
  EXPECT_EQ(ProvisioningRequestPods(
                request, {Pod("t1", 100, kGi), Pod("t2", 200, kGi)}, 2)
                .size(),
            2u);
}

// The pods come from the templates listed; a template not listed names
// itself and where it was looked for, a template that could not be read
// fails with its own error, and only a young request waits for its
// template (the two come by separate watches).
TEST(ProvReqCapacityTest, PodsComeFromTheListedTemplates) {
  kube::ProvisioningRequest request = Request();
  request.pod_sets = {{"a", 2}};
  kube::PodTemplateMap templates;
  templates["batch/a"] = {"batch", "a", "1", Pod("t1", 300, kGi), ""};
  Result<std::vector<PodState>> pods =
      RequestPodsFrom(request, templates, 1000, "the cluster");
  ASSERT_TRUE(pods.ok()) << pods.status().message();
  ASSERT_EQ(pods->size(), 2u);
  EXPECT_EQ((*pods)[1].requests.cpu_millis, 300);

  request.pod_sets = {{"a", 1}, {"gone", 1}};
  Result<std::vector<PodState>> missing =
      RequestPodsFrom(request, templates, 1000, "the cluster");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "PodTemplate batch/gone is not in the cluster");
  EXPECT_TRUE(AwaitsTemplates(missing.status(), request,
                              request.created + std::chrono::seconds(29)));
  EXPECT_FALSE(AwaitsTemplates(missing.status(), request,
                               request.created + kTemplateArrivalGrace));

  templates["batch/a"].error = "PodTemplate batch/a: template.spec: missing";
  Result<std::vector<PodState>> bad =
      RequestPodsFrom(request, templates, 1000, "the cluster");
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message(),
            "PodTemplate batch/a: template.spec: missing");
  EXPECT_FALSE(AwaitsTemplates(bad.status(), request, request.created))
      << "a template that cannot be read does not come later";
}

// All or nothing, and a batch never double-books: of three requests on
// room for two, the third finds none, and nothing of it stays placed.
TEST(ProvReqCapacityTest, AllOrNothingAndNoDoubleBooking) {
  const std::vector<NodeState> nodes = {Node("n1", "g", 1000, 4 * kGi),
                                        Node("n2", "g", 1000, 4 * kGi)};
  const PodList running = {BoundPod("web", "n1", 500, kGi)};
  BinPlacement placement(nodes, running);  // web is on n1
  kube::ProvisioningRequest request = Request();
  request.pod_sets = {{"t", 3}};
  // 3 x 500m: 500m left on n1, 1000m on n2.
  const std::vector<PodState> first =
      ProvisioningRequestPods(request, {Pod("t", 500, kGi)}, 1000);
  EXPECT_TRUE(PlaceAllOrNothing(&placement, first));
  request.name = "second";
  request.pod_sets = {{"t", 1}};
  const std::vector<PodState> second =
      ProvisioningRequestPods(request, {Pod("t", 500, kGi)}, 1000);
  EXPECT_FALSE(PlaceAllOrNothing(&placement, second)) << "no room left";
  // A request of two pods of which one would fit: none stays placed.
  BinPlacement fresh(nodes, running);
  request.name = "third";
  request.pod_sets = {{"t", 2}};
  const std::vector<PodState> third =
      ProvisioningRequestPods(request, {Pod("t", 800, kGi)}, 1000);
  EXPECT_FALSE(PlaceAllOrNothing(&fresh, third));
  const std::vector<PodState> one =
      ProvisioningRequestPods(Request(), {Pod("t", 1000, kGi)}, 1);
  EXPECT_TRUE(PlaceAllOrNothing(&fresh, one)) << "the 800m pod was taken off";
}

// Nodes still coming count: a group asked for 2 nodes of 4 cpu, 1
// registered, so 8 pods of 1 cpu fit (4 on the registered node, 4 on the
// coming one) where 9 do not; a group with nothing coming adds no room.
TEST(ProvReqCapacityTest, NodesStillComingCount) {
  ClusterSnapshot snapshot;
  snapshot.nodes = {Node("g-1", "g", 4000, 16 * kGi)};
  const std::vector<NodeGroup> groups = {
      Group("g", 0, 5, 2, 4000, 16 * kGi),
      Group("idle", 0, 5, 0, 4000, 16 * kGi)};
  const UpcomingNodes upcoming =
      UpcomingNodesOf(snapshot, groups, ScaleUpMemory{}, ScaleUpConfig{});
  ASSERT_EQ(upcoming.bins.size(), 1u);
  auto fits = [&](int count, const std::vector<Bin>& coming) {
    kube::ProvisioningRequest request = Request();
    request.pod_sets = {{"t", count}};
    std::vector<CapacityCheck> checks = {
        {ProvisioningRequestPods(request, {Pod("t", 1000, kGi)}, 1000), false}};
    CheckCapacity(snapshot.nodes, coming, snapshot.pods, &checks);
    return checks[0].fits;
  };
  EXPECT_TRUE(fits(8, upcoming.bins));
  EXPECT_FALSE(fits(9, upcoming.bins));
  EXPECT_FALSE(fits(5, {})) << "the registered node alone takes 4";
}

}  // namespace
}  // namespace propscaler::nodescale

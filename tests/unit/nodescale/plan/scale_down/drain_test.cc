// The drain's rules (plan/scale_down/drain.h): a draining node is deleted
// once empty, at any time, and failed only at its deadline; DaemonSet,
// mirror and finished pods stay with it.
#include "nodescale/plan/scale_down/drain.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

const TimePoint kT0 = TimePoint() + std::chrono::hours(1);

TEST(DrainTest, DeletesWhenEmptyAndFailsAtTheDeadline) {
  const TimePoint deadline = kT0 + minutes(10);
  EXPECT_EQ(NextDrainStep(0, deadline, kT0), DrainStep::kDelete);
  EXPECT_EQ(NextDrainStep(0, deadline, deadline + minutes(1)),
            DrainStep::kDelete);
  EXPECT_EQ(NextDrainStep(1, deadline, deadline - seconds(1)),
            DrainStep::kWait);
  EXPECT_EQ(NextDrainStep(1, deadline, deadline), DrainStep::kFail);
}

TEST(DrainTest, DaemonSetMirrorAndFinishedPodsStay) {
  PodState pod;
  pod.owner_kind = "ReplicaSet";
  EXPECT_TRUE(MovesWithDrain(pod));
  PodState daemon = pod;
  daemon.owner_kind = "DaemonSet";
  EXPECT_FALSE(MovesWithDrain(daemon));
  PodState mirror = pod;
  mirror.annotations = {{std::string(kMirrorPodAnnotation), "x"}};
  EXPECT_FALSE(MovesWithDrain(mirror));
  PodState finished = pod;
  finished.terminated = true;
  EXPECT_FALSE(MovesWithDrain(finished));
}

}  // namespace
}  // namespace propscaler::nodescale

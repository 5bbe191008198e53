// A disruption command's steps between its choice and the removal queue,
// pure.
#include "nodescale/plan/disruption/command_progress.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

const TimePoint kT0 = TimePoint() + std::chrono::hours(1);

DisruptionCommand Replace(int64_t count, bool needs_validation) {
  DisruptionCommand command;
  command.method = DisruptionMethod::kMultiNode;
  command.nodes = {"a", "b"};
  command.replacement = NewNodes{"small", count};
  command.needs_validation = needs_validation;
  return command;
}

TEST(CommandProgressTest, ConsolidationWaitsItsDelayThenIsValidated) {
  std::optional<InFlightCommand> in_flight =
      AwaitValidation(Replace(1, true), seconds(15), kT0);
  ASSERT_TRUE(in_flight.has_value());
  EXPECT_EQ(NextStep(*in_flight, 0, kT0 + seconds(14)), CommandStep::kWait);
  EXPECT_EQ(NextStep(*in_flight, 0, kT0 + seconds(15)), CommandStep::kValidate);
}

TEST(CommandProgressTest, DriftAndExpiryStartAtOnce) {
  EXPECT_FALSE(AwaitValidation(Replace(1, false), seconds(15), kT0));
}

// Two Ready in the group at launch, a replacement of two: removal once four
// are Ready, not when a third is.
TEST(CommandProgressTest, RemovalWaitsForEveryReplacementNodeToBeReady) {
  const InFlightCommand in_flight =
      AwaitReplacement(Replace(2, false), 2, minutes(15), kT0);
  EXPECT_EQ(NextStep(in_flight, 3, kT0 + minutes(1)), CommandStep::kWait);
  EXPECT_EQ(NextStep(in_flight, 4, kT0 + minutes(1)), CommandStep::kRemove);
}

TEST(CommandProgressTest, AReplacementNotReadyInTimeFailsTheCommand) {
  const InFlightCommand in_flight =
      AwaitReplacement(Replace(1, false), 0, minutes(15), kT0);
  EXPECT_EQ(NextStep(in_flight, 0, kT0 + minutes(15) - seconds(1)),
            CommandStep::kWait);
  EXPECT_EQ(NextStep(in_flight, 0, kT0 + minutes(15)), CommandStep::kFail);
  // Ready at the deadline still counts.
  EXPECT_EQ(NextStep(in_flight, 1, kT0 + minutes(15)), CommandStep::kRemove);
}

// A draining node: deleted as soon as no pod is left, failed when one still
// is at the deadline.
}  // namespace
}  // namespace propscaler::nodescale

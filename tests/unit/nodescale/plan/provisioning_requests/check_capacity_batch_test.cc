#include "nodescale/plan/provisioning_requests/check_capacity_batch.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

using std::chrono::seconds;

TEST(CheckCapacityBatchTest, WithoutBatchProcessingOneRequestALoop) {
  const CheckCapacityBatch batch;
  EXPECT_TRUE(batch.HasRoom(0));
  EXPECT_FALSE(batch.HasRoom(1));
}

TEST(CheckCapacityBatchTest, ABatchHoldsItsSize) {
  const CheckCapacityBatch batch{.size = 3};
  EXPECT_TRUE(batch.HasRoom(2));
  EXPECT_FALSE(batch.HasRoom(3));
  // A size below one still checks one.
  EXPECT_TRUE((CheckCapacityBatch{.size = 0}).HasRoom(0));
  EXPECT_FALSE((CheckCapacityBatch{.size = 0}).HasRoom(1));
}

TEST(CheckCapacityBatchTest, TheTimeboxStopsTheBatchAfterTheFirst) {
  const CheckCapacityBatch batch{.size = 5, .timebox = seconds(10)};
  EXPECT_TRUE(batch.MayCheck(0, seconds(60)));
  EXPECT_TRUE(batch.MayCheck(1, seconds(9)));
  EXPECT_FALSE(batch.MayCheck(1, seconds(10)));
  const CheckCapacityBatch none{.size = 5, .timebox = seconds(0)};
  EXPECT_TRUE(none.MayCheck(0, seconds(0)));
  EXPECT_FALSE(none.MayCheck(1, seconds(0)));
}

}  // namespace
}  // namespace propscaler::nodescale

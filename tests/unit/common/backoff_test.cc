#include "common/backoff.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

using std::chrono::milliseconds;

TEST(BackoffTest, DoublesWithJitterUpToTheCap) {
  Backoff backoff(milliseconds(100), milliseconds(1000), 0.5, /*seed=*/7);
  int64_t base = 100;
  for (int i = 0; i < 8; ++i) {
    const int64_t wait = backoff.Next().count();
    EXPECT_GE(wait, std::min<int64_t>(base, 1000)) << i;
    EXPECT_LE(wait, std::min<int64_t>(base * 3 / 2, 1000)) << i;
    base *= 2;
  }
  backoff.Reset();
  EXPECT_LE(backoff.Next().count(), 150);
}

}  // namespace
}  // namespace propscaler

#include "common/stop_on_signals.h"

#include <gtest/gtest.h>
#include <signal.h>

namespace propscaler {
namespace {

TEST(StopOnSignalsTest,
     AThreadWithoutStopSignalsHasThemBlockedAndTheCallerNot) {
  sigset_t before;
  pthread_sigmask(SIG_BLOCK, nullptr, &before);
  bool term_blocked = false, int_blocked = false;
  std::thread thread = ThreadWithoutStopSignals([&] {
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    term_blocked = sigismember(&mask, SIGTERM) == 1;
    int_blocked = sigismember(&mask, SIGINT) == 1;
  });
  thread.join();
  EXPECT_TRUE(term_blocked);
  EXPECT_TRUE(int_blocked);
  sigset_t mine;
  pthread_sigmask(SIG_BLOCK, nullptr, &mine);
  // The caller's own mask is as it was.
  EXPECT_EQ(sigismember(&mine, SIGTERM), sigismember(&before, SIGTERM));
  EXPECT_EQ(sigismember(&mine, SIGINT), sigismember(&before, SIGINT));
}

}  // namespace
}  // namespace propscaler

#include "common/stop_on_signals.h"

#include <glog/logging.h>
#include <signal.h>

#include <thread>
#include <utility>

namespace propscaler {

namespace {

sigset_t StopSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return signals;
}

}  // namespace

std::thread ThreadWithoutStopSignals(std::function<void()> body) {
  const sigset_t signals = StopSignals();
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &signals, &previous);
  std::thread thread(std::move(body));
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return thread;
}

void StopOnSignals(StopSignal* stop) {
  const sigset_t signals = StopSignals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals, stop] {
    int received = 0;
    sigwait(&signals, &received);
    LOG(INFO) << "received signal " << received << ", stopping";
    stop->Stop();
  }).detach();
}

}  // namespace propscaler

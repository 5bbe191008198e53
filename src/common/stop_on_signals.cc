#include "common/stop_on_signals.h"

#include <glog/logging.h>
#include <signal.h>

#include <thread>

namespace propscaler {

void StopOnSignals(StopSignal* stop) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals, stop] {
    int received = 0;
    sigwait(&signals, &received);
    LOG(INFO) << "received signal " << received << ", stopping";
    stop->Stop();
  }).detach();
}

}  // namespace propscaler

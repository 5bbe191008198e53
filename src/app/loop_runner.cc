#include "app/loop_runner.h"

#include <glog/logging.h>

#include <thread>

#include "app/shared_flags.h"
#include "common/stop_on_signals.h"
#include "server/health_server.h"

namespace propscaler {

int RunLoop(const Clock& clock, const HealthState* health,
            const LoopRun& loop) {
  if (FLAGS_once && loop.once) {
    Status status = loop.once();
    if (!status.ok()) LOG(ERROR) << "cycle failed: " << status.message();
    return status.ok() ? 0 : 1;
  }
  StopSignal stop(&clock);
  StopOnSignals(&stop);
  HealthServer health_server(health, loop.status_page);
  if (FLAGS_healthz_port != 0) {
    if (Status status = health_server.Start(FLAGS_healthz_port); !status.ok()) {
      LOG(ERROR) << status.message();
      return kExitUsage;
    }
  }
  for (const std::string& line : loop.start_lines) LOG(INFO) << line;
  std::thread elector;
  if (loop.elector != nullptr) {
    const kube::LeaderView view = loop.elector->View();
    LOG(INFO) << "leader election on lease " << view.lease << " as "
              << view.identity << ": acting once it holds the lease";
    elector = clock.StartThread([&] { loop.elector->Run(&stop); });
  }
  const int code = loop.run(&stop);
  stop.Stop();
  if (elector.joinable()) elector.join();
  health_server.Stop();
  return code;
}

}  // namespace propscaler

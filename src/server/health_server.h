// The HTTP endpoints on --healthz-port: /healthz (200 while the loop is
// alive, else 500) and /last-poll (200, or 500 with the last cycle's error),
// as cluster-proportional-autoscaler serves them; /metrics (Prometheus text
// format) and /status (an HTML page) when a page renderer is given. Nothing
// else is served.
#ifndef PROPSCALER_SERVER_HEALTH_SERVER_H_
#define PROPSCALER_SERVER_HEALTH_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "common/health_state.h"
#include "common/status.h"

namespace httplib {
class Server;
}

namespace propscaler {

class HealthServer {
 public:
  // `status_page` renders /status; null: no /status.
  HealthServer(const HealthState* state,
               std::function<std::string()> status_page = nullptr);
  ~HealthServer();

  // Binds 0.0.0.0:port (an error names the port) and serves on a thread.
  Status Start(int port);
  void Stop();

 private:
  const HealthState* state_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
};

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_HEALTH_SERVER_H_

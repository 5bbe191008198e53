#include "server/health_server.h"

#include <httplib.h>

#include "server/background_listener.h"
#include "server/metrics_text.h"
#include "server/process_metrics.h"

namespace propscaler {

HealthServer::HealthServer(const HealthState* state,
                           std::function<std::string()> status_page)
    : state_(state), server_(std::make_unique<httplib::Server>()) {
  DeclareProcessMetrics(&GlobalMetrics());
  server_->Get("/metrics",
               [](const httplib::Request&, httplib::Response& response) {
                 UpdateProcessMetrics(&GlobalMetrics());
                 response.set_content(RenderMetricsText(GlobalMetrics()),
                                      "text/plain; version=0.0.4");
               });
  if (status_page) {
    server_->Get("/status", [status_page](const httplib::Request&,
                                          httplib::Response& response) {
      response.set_content(status_page(), "text/html; charset=utf-8");
    });
  }
  server_->Get("/healthz", [this](const httplib::Request&,
                                  httplib::Response& response) {
    const std::optional<std::string> why = state_->Unhealthy();
    const std::string degraded = state_->Degraded();
    response.status = why ? 500 : 200;
    response.set_content(
        why ? *why + "\n"
            : (degraded.empty() ? "ok\n" : "ok, degraded: " + degraded + "\n"),
        "text/plain");
  });
  server_->Get("/last-poll", [this](const httplib::Request&,
                                    httplib::Response& response) {
    const std::optional<Status> last = state_->LastCycle();
    if (!last.has_value()) {
      response.set_content("no cycle has finished yet\n", "text/plain");
      return;
    }
    response.status = last->ok() ? 200 : 500;
    response.set_content(last->ok() ? "ok\n" : last->message() + "\n",
                         "text/plain");
  });
}

HealthServer::~HealthServer() { Stop(); }

Status HealthServer::Start(int port) {
  if (!server_->bind_to_port("0.0.0.0", port)) {
    return Status::Invalid("health server: cannot listen on port " +
                           std::to_string(port) + " (--healthz-port)");
  }
  thread_ = ListenInBackground(server_.get());
  return Status::Ok();
}

void HealthServer::Stop() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace propscaler

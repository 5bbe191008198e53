// What every mode talks to the API server with, built once from the client
// config and the flags, on the mode's clock: the HTTP client, the typed API
// over it, the loop's health state (stalled after five periods, two
// minutes at least) and the Event recorder (posting from its own thread).
#ifndef PROPSCALER_APP_API_SESSION_H_
#define PROPSCALER_APP_API_SESSION_H_

#include <algorithm>
#include <chrono>

#include "app/shared_flags.h"
#include "common/clock.h"
#include "common/health_state.h"
#include "kube/controllers/event_recorder.h"
#include "transport/api.h"
#include "transport/client_config.h"
#include "transport/http_client.h"

namespace propscaler {

struct ApiSession {
  ApiSession(const kube::ClientConfig& config, const Clock* clock,
             Duration period)
      : http(config, clock),
        api(&http, ApiOptionsFromFlags()),
        health(clock,
               std::max<Duration>(std::chrono::seconds(120), 5 * period)),
        events(&api, clock, "propscaler", std::chrono::minutes(10),
               kEventQueueLimit) {}

  // Events waiting for their POST (kube/controllers/event_recorder.h);
  // client-go's broadcaster keeps 1,000.
  static constexpr size_t kEventQueueLimit = 4096;

  kube::HttpClient http;
  kube::KubeApi api;
  HealthState health;
  kube::EventRecorder events;
};

}  // namespace propscaler

#endif  // PROPSCALER_APP_API_SESSION_H_

// The Kubernetes API endpoints (/api/..., /apis/...) on an httplib server:
// list, watch, get, create, update, merge patch and delete of every resource
// in resources.h, and the scale subresource of workloads. Authentication,
// accounting and faults happen before, in request_gate.h.
#ifndef PROPSCALER_TESTS_APISERVER_API_ROUTES_H_
#define PROPSCALER_TESTS_APISERVER_API_ROUTES_H_

#include <httplib.h>

#include <atomic>

#include "apiserver/list_options.h"
#include "apiserver/object_store.h"
#include "apiserver/watch_stream.h"

namespace propscaler::sim {

struct ApiRouteContext {
  ObjectStore* store = nullptr;
  WatchSettings watch;
  std::atomic<int>* open_watches = nullptr;  // watches being served now
  WatchListSupport watch_list = WatchListSupport::kSupported;
  // pods/resize (apiserver/pod_resize.h), served from Kubernetes 1.33.
  bool pod_resize = true;
};

// `context.store` and `context.open_watches` must outlive the server.
void InstallApiRoutes(httplib::Server& server, const ApiRouteContext& context);

// Whether a request is a watch (?watch=1 or ?watch=true).
bool IsWatchRequest(const httplib::Request& req);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_API_ROUTES_H_

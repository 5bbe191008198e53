// Control endpoints of the simulated server, for scripts driving the
// standalone binary (no token needed, not counted):
//   GET /sim/requests            request counts (RequestCounts::ToJson)
//   DELETE /sim/requests         reset them
//   POST /sim/faults             add a FaultRule (JSON, see fault_injector.h)
//   GET /sim/faults, DELETE /sim/faults
//   POST /sim/drop-watches       end every open watch
//   POST /sim/compact            forget the watch history
// and the server's own /healthz, /readyz, /livez and /version.
#ifndef PROPSCALER_TESTS_APISERVER_SIM_ROUTES_H_
#define PROPSCALER_TESTS_APISERVER_SIM_ROUTES_H_

#include <httplib.h>

#include "apiserver/fault_injector.h"
#include "apiserver/object_store.h"
#include "apiserver/request_counter.h"

namespace propscaler::sim {

struct SimRouteContext {
  ObjectStore* store = nullptr;
  RequestCounter* counter = nullptr;
  FaultInjector* faults = nullptr;
};

// The pointers must outlive the server.
void InstallSimRoutes(httplib::Server& server, const SimRouteContext& context);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_SIM_ROUTES_H_

// What happens to every API request before routing: it is counted, its
// bearer token checked (401 Status without it, when a token is required),
// and matching fault rules applied (a cut after N body bytes is applied
// after routing). /sim/* control endpoints and the health
// and version endpoints skip all of it (health and version are only
// exempt from the token).
#ifndef PROPSCALER_TESTS_APISERVER_REQUEST_GATE_H_
#define PROPSCALER_TESTS_APISERVER_REQUEST_GATE_H_

#include <httplib.h>

#include <string>

#include "apiserver/fault_injector.h"
#include "apiserver/request_counter.h"

namespace propscaler::sim {

struct RequestGateContext {
  RequestCounter* counter = nullptr;
  FaultInjector* faults = nullptr;
  std::string bearer_token;  // "" accepts every request
};

// Installs the pre-routing handler; the pointers must outlive the server.
void InstallRequestGate(httplib::Server& server,
                        const RequestGateContext& context);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_REQUEST_GATE_H_

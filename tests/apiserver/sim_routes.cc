#include "apiserver/sim_routes.h"

#include <string>

#include "apiserver/responses.h"

namespace propscaler::sim {
namespace {

constexpr char kVersion[] =
    R"({"major":"1","minor":"29","gitVersion":"v1.29.0-propscaler-sim",)"
    R"("platform":"linux/amd64"})";

std::string FaultsJson(const FaultInjector& faults) {
  std::string json = "[";
  for (const FaultRule& rule : faults.Rules()) {
    if (json.size() > 1) json += ',';
    json += rule.ToJson();
  }
  return json + "]";
}

void InstallHealth(httplib::Server& server) {
  for (const char* path : {"/healthz", "/readyz", "/livez"}) {
    server.Get(path, [](const httplib::Request&, httplib::Response& res) {
      res.set_content("ok", "text/plain");
    });
  }
  server.Get("/version", [](const httplib::Request&, httplib::Response& res) {
    WriteJson(res, 200, kVersion);
  });
}

void InstallRequestRoutes(httplib::Server& server, RequestCounter* counter) {
  server.Get("/sim/requests",
             [counter](const httplib::Request&, httplib::Response& res) {
               WriteJson(res, 200, counter->Snapshot().ToJson());
             });
  server.Delete("/sim/requests",
                [counter](const httplib::Request&, httplib::Response& res) {
                  counter->Reset();
                  WriteJson(res, 200, "{}");
                });
}

void InstallFaultRoutes(httplib::Server& server, FaultInjector* faults) {
  server.Post("/sim/faults",
              [faults](const httplib::Request& req, httplib::Response& res) {
                ApiResult<FaultRule> rule = FaultRule::FromJson(req.body);
                if (!rule.ok()) return WriteError(res, rule.error());
                faults->Add(*rule);
                WriteJson(res, 201, rule->ToJson());
              });
  server.Get("/sim/faults",
             [faults](const httplib::Request&, httplib::Response& res) {
               WriteJson(res, 200, FaultsJson(*faults));
             });
  server.Delete("/sim/faults",
                [faults](const httplib::Request&, httplib::Response& res) {
                  faults->Clear();
                  WriteJson(res, 200, "[]");
                });
}

void InstallStoreRoutes(httplib::Server& server, ObjectStore* store) {
  server.Post("/sim/drop-watches",
              [store](const httplib::Request&, httplib::Response& res) {
                store->DropWatches();
                WriteJson(res, 200, "{}");
              });
  server.Post("/sim/compact",
              [store](const httplib::Request&, httplib::Response& res) {
                store->CompactHistory();
                WriteJson(res, 200, "{}");
              });
}

}  // namespace

void InstallSimRoutes(httplib::Server& server, const SimRouteContext& context) {
  InstallHealth(server);
  InstallRequestRoutes(server, context.counter);
  InstallFaultRoutes(server, context.faults);
  InstallStoreRoutes(server, context.store);
}

}  // namespace propscaler::sim

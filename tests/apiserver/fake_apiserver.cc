#include "apiserver/fake_apiserver.h"

#include <httplib.h>

#include <algorithm>

#include "apiserver/api_routes.h"
#include "apiserver/eviction_route.h"
#include "apiserver/json_util.h"
#include "apiserver/node_file.h"
#include "apiserver/node_generator.h"
#include "apiserver/request_gate.h"
#include "apiserver/resources.h"
#include "apiserver/scale_subresource.h"
#include "apiserver/sim_routes.h"
#include "server/background_listener.h"

namespace propscaler::sim {

FakeApiServer::FakeApiServer() = default;

FakeApiServer::~FakeApiServer() { Stop(); }

Status FakeApiServer::Start(const FakeApiServerOptions& options) {
  if (server_) return Status::Internal("FakeApiServer already started");
  store_.SetHistorySize(options.history_size);
  if (Status s = LoadInitialNodes(options); !s.ok()) return s;
  if (Status s = MakeServer(options); !s.ok()) return s;
  InstallRoutes(options);
  host_ = options.host;
  port_ = options.port == 0 ? server_->bind_to_any_port(options.host)
                            : (server_->bind_to_port(options.host, options.port)
                                   ? options.port
                                   : -1);
  if (port_ <= 0) {
    server_.reset();
    return Status::Unavailable("cannot listen on " + options.host + ":" +
                               std::to_string(options.port));
  }
  listener_ = ListenInBackground(server_.get());
  return Status::Ok();
}

Status FakeApiServer::LoadInitialNodes(const FakeApiServerOptions& options) {
  std::vector<std::string> nodes;
  if (!options.nodes_file.empty()) {
    Result<std::vector<std::string>> loaded = ReadNodeFile(options.nodes_file);
    if (!loaded.ok()) return loaded.status();
    nodes = *std::move(loaded);
  }
  for (std::string& node : GenerateNodes("sim-node-", options.generate_nodes,
                                         options.generated_node_cores)) {
    nodes.push_back(std::move(node));
  }
  for (const std::string& node : nodes) {
    if (Status s = CreateNode(node); !s.ok()) return s;
  }
  return Status::Ok();
}

Status FakeApiServer::MakeServer(const FakeApiServerOptions& options) {
  bool tls = !options.tls_cert_file.empty() || !options.tls_key_file.empty();
  if (!tls) {
    server_ = std::make_unique<httplib::Server>();
  } else {
    const char* ca = options.client_ca_file.empty()
                         ? nullptr
                         : options.client_ca_file.c_str();
    auto ssl = std::make_unique<httplib::SSLServer>(
        options.tls_cert_file.c_str(), options.tls_key_file.c_str(), ca);
    if (!ssl->is_valid()) {
      return Status::Invalid(
          "cannot load TLS certificate " + options.tls_cert_file + " / key " +
          options.tls_key_file +
          (ca ? " / client CA " + options.client_ca_file : std::string()));
    }
    server_ = std::move(ssl);
    scheme_ = "https";
  }
  server_->set_keep_alive_timeout(options.keep_alive_timeout.count());
  server_->set_keep_alive_max_count(options.keep_alive_max_count);
  // As Go's net/http: without it a kept-alive connection waits out the
  // client's delayed ACK (~40 ms) between a response's header and body.
  server_->set_tcp_nodelay(true);
  int threads = options.threads;
  server_->new_task_queue = [threads] {
    return new httplib::ThreadPool(threads);
  };
  return Status::Ok();
}

void FakeApiServer::InstallRoutes(const FakeApiServerOptions& options) {
  InstallRequestGate(
      *server_, RequestGateContext{&counter_, &faults_, options.bearer_token});
  InstallSimRoutes(*server_, SimRouteContext{&store_, &counter_, &faults_});
  ApiRouteContext api;
  api.store = &store_;
  api.watch.default_timeout = options.default_watch_timeout;
  api.watch.bookmark_interval = options.bookmark_interval;
  api.open_watches = &open_watches_;
  api.watch_list = options.watch_list;
  api.pod_resize = options.pod_resize;
  InstallEvictionRoute(*server_, &store_);
  InstallApiRoutes(*server_, api);
}

void FakeApiServer::Stop() {
  if (!server_) return;
  store_.Shutdown();
  server_->stop();
  if (listener_.joinable()) listener_.join();
  server_.reset();
}

std::string FakeApiServer::url() const {
  return scheme_ + "://" + host_ + ":" + std::to_string(port_);
}

}  // namespace propscaler::sim

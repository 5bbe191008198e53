// A simulated Kubernetes API server, in process, for end-to-end tests and
// (through main.cc) as the standalone `propscaler-apiserver`.
//
// It serves the endpoints propscaler uses over HTTP/1.1 (or HTTPS) with JSON
// as a real kube-apiserver answers them: nodes (list with selectors and
// paging, watch, create, get, update, merge patch, delete), configmaps,
// workloads and their scale subresource, events, leases and pods. Tests
// change the cluster and read its state through the C++ methods below;
// those go through the same store as HTTP requests (they are not counted).
//
// Thread-safe. Start() once; Stop() (or the destructor) ends open watches
// and joins the server's threads.
#ifndef PROPSCALER_TESTS_APISERVER_FAKE_APISERVER_H_
#define PROPSCALER_TESTS_APISERVER_FAKE_APISERVER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apiserver/fault_injector.h"
#include "apiserver/list_options.h"
#include "apiserver/object_store.h"
#include "apiserver/request_counter.h"
#include "apiserver/store_objects.h"
#include "common/status.h"

namespace httplib {
class Server;
}

namespace propscaler::sim {

struct FakeApiServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port, see FakeApiServer::port()
  // HTTPS when both are set; with client_ca_file, clients must present a
  // certificate signed by it.
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string client_ca_file;
  std::string bearer_token;  // required on API requests when set
  std::string nodes_file;    // initial nodes (see node_file.h)
  int generate_nodes = 0;    // and this many generated ones (node_generator.h)
  int generated_node_cores = 0;  // 0: mixed instance types
  size_t history_size = 10000;   // watch events kept
  std::chrono::seconds default_watch_timeout{300};
  std::chrono::milliseconds bookmark_interval{10000};
  int threads = 64;  // each open watch holds one
  // Idle keep-alive connections are closed after this long; Stop() waits
  // for them, so it is short.
  std::chrono::seconds keep_alive_timeout{1};
  // Requests one kept-alive connection serves before the server closes it
  // (httplib's default is 5; kube-apiserver has no such limit).
  int keep_alive_max_count = 100000;
  // Serve WatchLists (sendInitialEvents) as Kubernetes 1.32+ does, or
  // refuse them as kube-apiserver 1.20 does.
  WatchListSupport watch_list = WatchListSupport::kSupported;
  // Serve pods/resize (apiserver/pod_resize.h) as Kubernetes 1.33+ does, or
  // answer it 404 as earlier releases do.
  bool pod_resize = true;
};

class FakeApiServer {
 public:
  FakeApiServer();
  ~FakeApiServer();
  FakeApiServer(const FakeApiServer&) = delete;
  FakeApiServer& operator=(const FakeApiServer&) = delete;

  // Loads the initial nodes, binds and starts serving in the background.
  Status Start(const FakeApiServerOptions& options);
  void Stop();

  int port() const { return port_; }
  // "http://127.0.0.1:PORT" or "https://..."
  std::string url() const;

  // The test API of store_objects.h on this server's store.
  Status CreateNode(const std::string& node_json) {
    return sim::CreateNode(store_, node_json);
  }
  Status UpdateNode(const std::string& node_json) {
    return sim::UpdateNode(store_, node_json);
  }
  Status PatchNode(const std::string& name, const std::string& merge_patch) {
    return sim::PatchNode(store_, name, merge_patch);
  }
  Status DeleteNode(const std::string& name) {
    return sim::DeleteNode(store_, name);
  }
  std::vector<std::string> NodeNames() const { return sim::NodeNames(store_); }
  std::optional<std::string> GetObject(const std::string& path) const {
    return sim::GetObject(store_, path);
  }
  Status CreateObject(const std::string& collection_path,
                      const std::string& object_json) {
    return sim::CreateObject(store_, collection_path, object_json);
  }
  Status PutConfigMap(const std::string& ns, const std::string& name,
                      const std::map<std::string, std::string>& data) {
    return sim::PutConfigMap(store_, ns, name, data);
  }
  std::optional<std::map<std::string, std::string>> ConfigMapData(
      const std::string& ns, const std::string& name) const {
    return sim::ConfigMapData(store_, ns, name);
  }
  Status CreateWorkload(const std::string& kind, const std::string& ns,
                        const std::string& name, int64_t replicas) {
    return sim::CreateWorkload(store_, kind, ns, name, replicas);
  }
  Result<int64_t> GetReplicas(const std::string& kind, const std::string& ns,
                              const std::string& name) const {
    return sim::GetReplicas(store_, kind, ns, name);
  }
  Status SetReplicas(const std::string& kind, const std::string& ns,
                     const std::string& name, int64_t replicas) {
    return sim::SetReplicas(store_, kind, ns, name, replicas);
  }
  std::vector<std::string> Events(const std::string& ns) const {
    return sim::Events(store_, ns);
  }

  RequestCounts Requests() const { return counter_.Snapshot(); }
  void ResetRequestCounts() { counter_.Reset(); }
  // Recent requests with their arrival times (see RequestCounter::LogSince).
  std::vector<LoggedRequest> RequestLog(
      std::chrono::steady_clock::time_point since) const {
    return counter_.LogSince(since);
  }
  void AddFault(FaultRule rule) { faults_.Add(std::move(rule)); }
  void ClearFaults() { faults_.Clear(); }
  // The fault rules left, with their remaining counts.
  std::vector<FaultRule> Faults() const { return faults_.Rules(); }

  // Ends every open watch (clients see a normal end of stream).
  void DropWatches() { store_.DropWatches(); }
  // Forgets the watch history: watches and continue tokens from before now
  // get 410 Expired.
  void CompactHistory() { store_.CompactHistory(); }
  int64_t resource_version() const { return store_.resource_version(); }
  int open_watches() const { return open_watches_.load(); }

  ObjectStore& store() { return store_; }

 private:
  Status LoadInitialNodes(const FakeApiServerOptions& options);
  Status MakeServer(const FakeApiServerOptions& options);
  void InstallRoutes(const FakeApiServerOptions& options);

  ObjectStore store_{10000};
  RequestCounter counter_;
  FaultInjector faults_;
  std::atomic<int> open_watches_{0};
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  int port_ = 0;
  std::string scheme_ = "http";
  std::string host_;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_FAKE_APISERVER_H_

// A real Kubernetes control plane for the real-server tests ("envtest"):
// Debian's etcd and the kube-apiserver v1.20.2 of ../shared/envtest, on
// loopback ports, with TLS (a CA made with openssl), RBAC, a static admin
// token (group system:masters) and service-account token signing, so tests
// can request short-lived service-account tokens (TokenRequest) and run
// propscaler under exactly the RBAC of a manifest.
//
// The apiserver binary is unpacked from its .xz into `unpack_dir` once and
// checked against the sha256 shipped beside it. One cluster per test run;
// tests isolate themselves with a namespace each.
#ifndef PROPSCALER_TESTS_ENVTEST_REAL_CLUSTER_H_
#define PROPSCALER_TESTS_ENVTEST_REAL_CLUSTER_H_

#include <memory>
#include <string>
#include <vector>

#include "apiserver/test_certs.h"
#include "common/status.h"
#include "e2e/process.h"
#include "transport/http_client.h"

namespace propscaler::envtest {

struct RealClusterOptions {
  std::string envtest_dir;  // holds kube-apiserver-v1.20.2.xz and its sha256
  std::string unpack_dir;   // where the binary is unpacked
  // More flags for each, e.g. a bigger etcd quota or an audit log for a
  // benchmark.
  std::vector<std::string> etcd_args;
  std::vector<std::string> apiserver_args;
  // Every request's metadata in an audit log (audit_log()), so tests can
  // count what the server refused.
  bool audit = false;
};

class RealCluster {
 public:
  static Result<std::unique_ptr<RealCluster>> Start(RealClusterOptions options);
  ~RealCluster();

  const std::string& url() const { return url_; }
  const std::string& ca_file() const { return certs_.server_ca.cert_file; }

  // A request as the cluster admin; any HTTP status is a response.
  Result<kube::HttpResponse> Admin(
      const std::string& method, const std::string& path,
      const std::string& body = "",
      const std::string& content_type = "application/json") const;

  // The cluster admin's HTTP client, for propscaler's own kube::KubeApi.
  const kube::HttpClient& admin_http() const { return *admin_; }

  // Stops the kube-apiserver (SIGTERM, then SIGKILL after 3 s) and starts
  // it again on the same etcd and port: its watch cache starts afresh, as
  // after an upgrade or a crash.
  Status RestartApiServer();
  // The two halves of a restart, with the server down in between: every
  // request is refused (connection refused) until StartApiServer().
  void StopApiServer();
  Status StartApiServer();

  // Stops etcd (SIGTERM), keeps it down for `down`, and starts it again
  // on the same data and port: the API server loses it meanwhile, and keeps
  // its watch cache. Fails unless kube-apiserver's /healthz/etcd reported
  // etcd gone while it was down (a fault that took effect).
  Status RestartEtcd(std::chrono::seconds down);
  // Compacts etcd's history up to its current revision, as the API server
  // does every 5 minutes: watches from an older resourceVersion then get
  // 410 Gone.
  Status CompactEtcd();
  // Issues a new serving certificate from the same CA over the old files,
  // as `kubeadm certs renew` does. The kube-apiserver loads it when it
  // restarts, or when it next checks the files (v1.20: every minute);
  // connections open before go on with the old one. With
  // `wait_until_served`, waits (up to 90 s) until the running server
  // presents it.
  Status ReplaceServingCert(bool wait_until_served);
  // Sends `signal` to the kube-apiserver (SIGSTOP, SIGCONT: a paused
  // server).
  void SignalApiServer(int signal) { apiserver_->Signal(signal); }
  int apiserver_pid() const { return apiserver_->pid(); }

  // For failure messages.
  std::string ApiServerLog() const;
  // The audit log's path (one JSON event a line); empty without `audit`.
  std::string audit_log() const;

 private:
  RealCluster() = default;
  Status Unpack();
  Status MakeServiceAccountKeys();
  Status StartEtcd();
  Status WaitForReady(const std::string& what, std::chrono::seconds timeout,
                      const std::function<bool()>& ready);

  RealClusterOptions options_;
  std::string apiserver_binary_;
  sim::TestCerts certs_;
  e2e::TempDir dir_;
  int etcd_port_ = 0;
  int apiserver_port_ = 0;
  std::string url_;
  std::string admin_token_;
  std::unique_ptr<e2e::Process> etcd_;
  std::unique_ptr<e2e::Process> apiserver_;
  std::unique_ptr<kube::HttpClient> admin_;
};

}  // namespace propscaler::envtest

#endif  // PROPSCALER_TESTS_ENVTEST_REAL_CLUSTER_H_

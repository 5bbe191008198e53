#include "envtest/real_cluster.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace propscaler::envtest {
namespace {

namespace fs = std::filesystem;

constexpr char kApiServerXz[] = "kube-apiserver-v1.20.2.xz";
constexpr char kApiServerSha[] = "kube-apiserver.sha256";

Status RunQuietly(const std::string& command) {
  const std::string quiet = "(" + command + ") >/dev/null 2>&1";
  if (std::system(quiet.c_str()) != 0) {
    return Status::Internal("command failed: " + command);
  }
  return Status::Ok();
}

// What `command` writes to stdout, if it exits 0.
Result<std::string> OutputOf(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return Status::Internal("cannot run " + command);
  std::string out;
  char chunk[4096];
  for (size_t n; (n = fread(chunk, 1, sizeof chunk, pipe)) > 0;) {
    out.append(chunk, n);
  }
  if (pclose(pipe) != 0) return Status::Internal("command failed: " + command);
  return out;
}

// The first word of `sha256sum FILE`'s output.
Result<std::string> Sha256Of(const std::string& file) {
  Result<std::string> out = OutputOf("sha256sum '" + file + "'");
  if (!out.ok()) return out.status();
  if (out->size() < 64) return Status::Internal("sha256sum: " + *out);
  return out->substr(0, 64);
}

Result<std::string> ExpectedSha256(const std::string& sha_file) {
  std::ifstream in(sha_file);
  std::string sum;
  if (!(in >> sum)) return Status::NotFound("cannot read " + sha_file);
  return sum;
}

// The path of `name` on PATH.
Result<std::string> OnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "/usr/bin" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::error_code ec;
    const fs::path candidate = fs::path(dir) / name;
    if (!dir.empty() && fs::exists(candidate, ec)) return candidate.string();
  }
  return Status::NotFound(name + " is not on PATH (apt-get install " +
                          (name == "etcd" ? "etcd-server" : name) + ")");
}

std::string RandomToken() {
  std::random_device random;
  std::ostringstream out;
  for (int i = 0; i < 4; ++i) out << std::hex << random();
  return out.str();
}

}  // namespace

Result<std::unique_ptr<RealCluster>> RealCluster::Start(
    RealClusterOptions options) {
  std::unique_ptr<RealCluster> cluster(new RealCluster());
  cluster->options_ = std::move(options);
  cluster->admin_token_ = RandomToken();
  Result<sim::TestCerts> certs = sim::MakeTestCerts();
  if (!certs.ok()) return certs.status();
  cluster->certs_ = *certs;
  for (auto step : {&RealCluster::Unpack, &RealCluster::MakeServiceAccountKeys,
                    &RealCluster::StartEtcd, &RealCluster::StartApiServer}) {
    if (Status s = ((*cluster).*step)(); !s.ok()) return s;
  }
  kube::ClientConfig admin;
  admin.server = cluster->url_;
  admin.ca_file = cluster->ca_file();
  admin.token = cluster->admin_token_;
  cluster->admin_ =
      std::make_unique<kube::HttpClient>(admin, &RealClock::Instance());
  return cluster;
}

RealCluster::~RealCluster() {
  apiserver_.reset();
  etcd_.reset();
}

Status RealCluster::Unpack() {
  const fs::path xz = fs::path(options_.envtest_dir) / kApiServerXz;
  const fs::path sha = fs::path(options_.envtest_dir) / kApiServerSha;
  if (!fs::exists(xz)) {
    return Status::NotFound(
        xz.string() +
        " is missing: the real-server stage needs ../shared/envtest beside "
        "the project (its build-kube-apiserver.sh rebuilds the binary)");
  }
  Result<std::string> expected = ExpectedSha256(sha.string());
  if (!expected.ok()) return expected.status();
  fs::create_directories(options_.unpack_dir);
  apiserver_binary_ = options_.unpack_dir + "/kube-apiserver";
  if (fs::exists(apiserver_binary_)) {
    Result<std::string> sum = Sha256Of(apiserver_binary_);
    if (sum.ok() && *sum == *expected) return Status::Ok();
  }
  // Named by the process: two harnesses started at once unpack side by side
  // and the last rename wins with the same bytes.
  const std::string partial =
      apiserver_binary_ + ".partial." + std::to_string(getpid());
  if (Status s = RunQuietly("xz -dc '" + xz.string() + "' > '" + partial + "'");
      !s.ok()) {
    return s.WithContext("unpacking " + xz.string() +
                         " (apt-get install xz-utils)");
  }
  Result<std::string> sum = Sha256Of(partial);
  if (!sum.ok()) return sum.status();
  if (*sum != *expected) {
    return Status::Internal(xz.string() + " unpacks to sha256 " + *sum +
                            ", but " + sha.string() + " says " + *expected);
  }
  std::error_code error;
  fs::permissions(partial, fs::perms::owner_all, fs::perm_options::add, error);
  if (!error) fs::rename(partial, apiserver_binary_, error);
  if (error) {
    const std::string why = error.message();
    fs::remove(partial, error);
    return Status::Internal("installing " + apiserver_binary_ + " from " +
                            partial + ": " + why);
  }
  return Status::Ok();
}

Status RealCluster::MakeServiceAccountKeys() {
  const std::string key = dir_.path() + "/sa.key";
  Status s = RunQuietly("openssl genrsa -out " + key + " 2048");
  if (s.ok()) {
    s = RunQuietly("openssl rsa -in " + key + " -pubout -out " + dir_.path() +
                   "/sa.pub");
  }
  dir_.Write(
      "tokens.csv",
      admin_token_ + ",envtest-admin,envtest-admin,\"system:masters\"\n");
  return s;
}

Status RealCluster::WaitForReady(const std::string& what,
                                 std::chrono::seconds timeout,
                                 const std::function<bool()>& ready) {
  if (e2e::WaitUntil(ready, timeout)) return Status::Ok();
  return Status::Unavailable(what + " was not ready within " +
                             std::to_string(timeout.count()) + "s");
}

Status RealCluster::StartEtcd() {
  Result<std::string> etcd = OnPath("etcd");
  if (!etcd.ok()) return etcd.status();
  if (etcd_port_ == 0) etcd_port_ = e2e::FreePort();
  const std::string client = "http://127.0.0.1:" + std::to_string(etcd_port_);
  const std::string peer =
      "http://127.0.0.1:" + std::to_string(e2e::FreePort());
  std::vector<std::string> args = {"--data-dir=" + dir_.path() + "/etcd",
                                   "--listen-client-urls=" + client,
                                   "--advertise-client-urls=" + client,
                                   "--listen-peer-urls=" + peer,
                                   "--initial-advertise-peer-urls=" + peer,
                                   "--initial-cluster=default=" + peer,
                                   "--unsafe-no-fsync"};
  args.insert(args.end(), options_.etcd_args.begin(), options_.etcd_args.end());
  etcd_ = std::make_unique<e2e::Process>(*etcd, args);
  kube::ClientConfig config;
  config.server = client;
  kube::HttpClient http(config, &RealClock::Instance());
  return WaitForReady("etcd", std::chrono::seconds(30), [&] {
    Result<kube::HttpResponse> health = http.Do({.path = "/health"});
    return health.ok() && health->body.find("\"true\"") != std::string::npos;
  });
}

Status RealCluster::StartApiServer() {
  if (apiserver_port_ == 0) apiserver_port_ = e2e::FreePort();
  url_ = "https://127.0.0.1:" + std::to_string(apiserver_port_);
  const std::string& dir = dir_.path();
  std::vector<std::string> args = {
      "--etcd-servers=http://127.0.0.1:" + std::to_string(etcd_port_),
      "--bind-address=127.0.0.1",
      "--advertise-address=127.0.0.1",
      "--secure-port=" + std::to_string(apiserver_port_),
      "--insecure-port=0",
      "--tls-cert-file=" + certs_.server.cert_file,
      "--tls-private-key-file=" + certs_.server.key_file,
      "--client-ca-file=" + certs_.client_ca.cert_file,
      "--token-auth-file=" + dir + "/tokens.csv",
      "--authorization-mode=RBAC",
      "--service-account-issuer=https://"
      "kubernetes.default.svc.cluster.local",
      "--service-account-key-file=" + dir + "/sa.pub",
      "--service-account-signing-key-file=" + dir + "/sa.key",
      "--service-cluster-ip-range=10.0.0.0/24"};
  if (options_.audit) {
    dir_.Write("audit-policy.yaml",
               "apiVersion: audit.k8s.io/v1\nkind: Policy\n"
               "omitStages: [\"RequestReceived\"]\n"
               "rules:\n- level: Metadata\n");
    args.push_back("--audit-policy-file=" + dir + "/audit-policy.yaml");
    args.push_back("--audit-log-path=" + audit_log());
  }
  args.insert(args.end(), options_.apiserver_args.begin(),
              options_.apiserver_args.end());
  apiserver_ = std::make_unique<e2e::Process>(apiserver_binary_, args);
  kube::ClientConfig config;
  config.server = url_;
  config.ca_file = ca_file();
  config.token = admin_token_;
  kube::HttpClient http(config, &RealClock::Instance());
  Status ready = WaitForReady("kube-apiserver", std::chrono::seconds(60), [&] {
    Result<kube::HttpResponse> readyz = http.Do({.path = "/readyz"});
    return readyz.ok() && readyz->status == 200;
  });
  if (!ready.ok()) return ready.WithContext(apiserver_->Report());
  return Status::Ok();
}

namespace {

// SIGTERM, and SIGKILL once `grace` has passed.
void Stop(e2e::Process* process, std::chrono::seconds grace) {
  process->Signal(SIGTERM);
  if (!process->WaitForExit(grace).has_value()) {
    process->Signal(SIGKILL);
    process->WaitForExit(std::chrono::seconds(10));
  }
}

}  // namespace

Status RealCluster::RestartApiServer() {
  // A graceful stop waits for open watches for up to a minute; after a few
  // seconds it is a crash, which is a restart too.
  StopApiServer();
  return StartApiServer();
}

void RealCluster::StopApiServer() {
  Stop(apiserver_.get(), std::chrono::seconds(3));
}

Status RealCluster::ReplaceServingCert(bool wait_until_served) {
  if (Status s = sim::ReissueServerCert(certs_); !s.ok()) return s;
  if (!wait_until_served) return Status::Ok();
  const std::string fingerprint = " | openssl x509 -noout -fingerprint -sha256";
  Result<std::string> issued =
      OutputOf("cat " + certs_.server.cert_file + fingerprint);
  if (!issued.ok()) return issued.status();
  const std::string served =
      "openssl s_client -connect 127.0.0.1:" + std::to_string(apiserver_port_) +
      " </dev/null 2>/dev/null" + fingerprint;
  return WaitForReady("the new serving certificate", std::chrono::seconds(90),
                      [&] {
                        Result<std::string> now = OutputOf(served);
                        if (now.ok() && *now == *issued) return true;
                        // A TLS handshake a second, not one every 20 ms.
                        std::this_thread::sleep_for(std::chrono::seconds(1));
                        return false;
                      });
}

Status RealCluster::RestartEtcd(std::chrono::seconds down) {
  Stop(etcd_.get(), std::chrono::seconds(10));
  const auto until = std::chrono::steady_clock::now() + down;
  bool noticed = false;
  while (std::chrono::steady_clock::now() < until) {
    if (!noticed) {
      Result<kube::HttpResponse> health = Admin("GET", "/healthz/etcd");
      noticed = health.ok() && health->status != 200;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (Status started = StartEtcd(); !started.ok()) return started;
  if (!noticed) {
    return Status::Internal(
        "kube-apiserver's /healthz/etcd answered 200 throughout the " +
        std::to_string(down.count()) + " s etcd was down");
  }
  return Status::Ok();
}

Status RealCluster::CompactEtcd() {
  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(etcd_port_);
  kube::HttpClient http(config, &RealClock::Instance());
  // Any key's range answers with the store's current revision.
  Result<kube::HttpResponse> range =
      http.Do({.method = "POST",
               .path = "/v3/kv/range",
               .body = R"({"key":"AA=="})",
               .content_type = "application/json"});
  if (!range.ok()) return range.status().WithContext("etcd range");
  const std::string marker = "\"revision\":\"";
  const size_t at = range->body.find(marker);
  if (at == std::string::npos) {
    return Status::Internal("etcd range: no revision in " + range->body);
  }
  const size_t from = at + marker.size();
  const std::string revision =
      range->body.substr(from, range->body.find('"', from) - from);
  Result<kube::HttpResponse> compacted =
      http.Do({.method = "POST",
               .path = "/v3/kv/compaction",
               .body = "{\"revision\":\"" + revision + "\",\"physical\":true}",
               .content_type = "application/json"});
  if (!compacted.ok()) return compacted.status().WithContext("etcd compaction");
  if (compacted->status != 200) {
    return Status::Internal("etcd compaction at " + revision + ": HTTP " +
                            std::to_string(compacted->status) + ": " +
                            compacted->body);
  }
  return Status::Ok();
}

Result<kube::HttpResponse> RealCluster::Admin(
    const std::string& method, const std::string& path, const std::string& body,
    const std::string& content_type) const {
  kube::HttpRequest request;
  request.method = method;
  request.path = path;
  request.body = body;
  if (!body.empty()) request.content_type = content_type;
  return admin_->Do(request);
}

std::string RealCluster::ApiServerLog() const {
  return apiserver_ ? apiserver_->Output() : "";
}

std::string RealCluster::audit_log() const {
  return options_.audit ? dir_.path() + "/audit.log" : "";
}

}  // namespace propscaler::envtest

#include "transport/http_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "apiserver/fake_apiserver.h"
#include "apiserver/node_generator.h"
#include "common/metrics.h"
#include "transport/api.h"

namespace propscaler::kube {
namespace {

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::FakeApiServerOptions options;
    options.bearer_token = "token-2";
    ASSERT_TRUE(server_.Start(options).ok());
    dir_ = std::filesystem::temp_directory_path() /
           ("propscaler-http-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void WriteToken(const std::string& token) {
    std::ofstream(dir_ / "token") << token << "\n";
  }

  // The server, and the token as a string or as the file WriteToken writes.
  ClientConfig WithToken() const {
    ClientConfig config;
    config.server = server_.url();
    config.token = "token-2";
    return config;
  }
  ClientConfig WithTokenFile() const {
    ClientConfig config;
    config.server = server_.url();
    config.token_file = (dir_ / "token").string();
    return config;
  }

  sim::FakeApiServer server_;
  std::filesystem::path dir_;
};

TEST_F(HttpClientTest, RereadsRotatedTokenFile) {
  WriteToken("token-1");
  HttpClient http(WithTokenFile(), &RealClock::Instance(),
                  std::chrono::seconds(0));
  KubeApi api(&http);
  Result<std::string> before = api.Call({.path = "/api/v1/nodes"});
  ASSERT_FALSE(before.ok());
  EXPECT_EQ(before.status().code(), StatusCode::kUnauthenticated);

  WriteToken("token-2");  // the kubelet rotated the projected token
  Result<std::string> after = api.Call({.path = "/api/v1/nodes"});
  EXPECT_TRUE(after.ok()) << after.status().message();
}

double Counted(const char* metric) { return GlobalMetrics().Value(metric); }

TEST_F(HttpClientTest, RequestsShareOneKeptAliveConnection) {
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http);
  const double before = Counted("propscaler_api_connections_total");
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(api.Call({.path = "/api/v1/nodes"}).ok());
  }
  EXPECT_EQ(Counted("propscaler_api_connections_total") - before, 1);
}

// As kube-apiserver: a list over 128 KiB comes gzip'd to a client that
// accepts it, a small one as it is.
TEST_F(HttpClientTest, BigResponsesArriveGzipped) {
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(server_
                    .CreateNode(sim::MakeNodeJson(
                        {.name = "node-" + std::to_string(i), .index = i}))
                    .ok());
  }
  HttpClient http(WithToken(), &RealClock::Instance());
  const double before = Counted("propscaler_api_received_bytes_total");
  Result<HttpResponse> big = http.Do({.path = "/api/v1/nodes"});
  ASSERT_TRUE(big.ok());
  ASSERT_EQ(big->status, 200);
  ASSERT_GT(big->body.size(), 128u * 1024);
  EXPECT_NE(big->body.find("\"node-299\""), std::string::npos);
  const double wire = Counted("propscaler_api_received_bytes_total") - before;
  EXPECT_LT(wire, static_cast<double>(big->body.size()) / 8) << wire;

  const double small_before = Counted("propscaler_api_received_bytes_total");
  Result<HttpResponse> small = http.Do({.path = "/api/v1/nodes/node-0"});
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(Counted("propscaler_api_received_bytes_total") - small_before,
            static_cast<double>(small->body.size()));
}

TEST_F(HttpClientTest, CachesTheTokenWithinTheInterval) {
  WriteToken("token-2");
  HttpClient http(WithTokenFile(), &RealClock::Instance());
  KubeApi api(&http);
  ASSERT_TRUE(api.Call({.path = "/api/v1/nodes"}).ok());
  std::filesystem::remove(dir_ / "token");  // a rewrite in progress
  EXPECT_TRUE(api.Call({.path = "/api/v1/nodes"}).ok());
}

TEST_F(HttpClientTest, UnauthorizedRereadsTheTokenFileAtOnce) {
  WriteToken("token-1");
  HttpClient http(WithTokenFile(), &RealClock::Instance(),
                  std::chrono::hours(1));
  KubeApi api(&http);
  ASSERT_EQ(api.Call({.path = "/api/v1/nodes"}).status().code(),
            StatusCode::kUnauthenticated);
  // The file still holds the refused token: it is not sent twice.
  EXPECT_EQ(server_.Requests().Count("GET /api/v1/nodes"), 1);
  server_.ResetRequestCounts();
  WriteToken("token-2");
  // The periodic re-read is an hour away; the 401 makes it happen now.
  Result<std::string> after = api.Call({.path = "/api/v1/nodes"});
  EXPECT_TRUE(after.ok()) << after.status().message();
  EXPECT_EQ(server_.Requests().Count("GET /api/v1/nodes"), 2);
}

TEST_F(HttpClientTest, SilentServerHitsTheIdleTimeout) {
  sim::FaultRule hang;
  hang.path_prefix = "/api/v1/nodes";
  hang.code = 0;
  hang.delay = std::chrono::milliseconds(4000);
  server_.AddFault(hang);
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http, {.idle_timeout = std::chrono::seconds(1)});
  const auto start = std::chrono::steady_clock::now();
  Result<std::string> hung = api.Call({.path = "/api/v1/nodes"});
  ASSERT_FALSE(hung.ok());
  EXPECT_EQ(hung.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(hung.status().message().find("idle timeout"), std::string::npos)
      << hung.status().message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

// kube-apiserver v1.20 sends a quiet watch nothing (no bookmark) until near
// its timeoutSeconds: once the server has accepted a watch, its silence is
// not taken for a dead stream, so quiet watches are not renewed every idle
// timeout. (A watch the server never answers still hits it: the e2e
// ConnectionFaultTest.HungWatchIsAbandonedAndRestarted.)
TEST_F(HttpClientTest, AcceptedQuietWatchOutlastsTheIdleTimeout) {
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http, {.idle_timeout = std::chrono::seconds(1)});
  const auto start = std::chrono::steady_clock::now();
  int lines = 0;
  Status status = api.Watch(
      {"/api/v1/nodes", "", ""}, "0", 3,
      [&](std::string_view) { return ++lines > 0; }, nullptr);
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(lines, 0);  // silent: no node, no bookmark within 3 s
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(2500));
}

TEST_F(HttpClientTest, RetryAfterHoldsBackCallsToThatPath) {
  sim::FaultRule throttle;
  throttle.path_prefix = "/api/v1/nodes";
  throttle.code = 429;
  throttle.retry_after_seconds = 1;
  server_.AddFault(throttle);
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http);
  Result<std::string> throttled = api.Call({.path = "/api/v1/nodes?limit=1"});
  EXPECT_EQ(throttled.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(throttled.status().message().find("Retry-After 1s"),
            std::string::npos);
  EXPECT_GT(api.RetryAfterLeft("/api/v1/nodes").count(), 500);
  server_.ResetRequestCounts();
  Result<std::string> held = api.Call({.path = "/api/v1/nodes"});
  EXPECT_FALSE(held.ok());
  EXPECT_NE(held.status().message().find("not sent"), std::string::npos);
  EXPECT_EQ(server_.Requests().total, 0);
  EXPECT_TRUE(api.Call({.path = "/api/v1/namespaces/a/configmaps"}).ok());
  std::this_thread::sleep_for(api.RetryAfterLeft("/api/v1/nodes"));
  EXPECT_TRUE(api.Call({.path = "/api/v1/nodes"}).ok());
}

TEST_F(HttpClientTest, MapsHttpErrorsToStatusCodes) {
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http);
  Result<ConfigMap> missing = api.GetConfigMap("ns", "absent");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(
                "GET /api/v1/namespaces/ns/configmaps/absent: HTTP 404"),
            std::string::npos)
      << missing.status().message();

  ConfigMap config_map;
  config_map.name = "cm";
  config_map.namespace_ = "ns";
  Result<ConfigMap> created = api.CreateConfigMap(config_map);
  ASSERT_TRUE(created.ok()) << created.status().message();
  Result<ConfigMap> again = api.CreateConfigMap(config_map);
  EXPECT_EQ(again.status().code(), StatusCode::kConflict);

  ASSERT_TRUE(api.UpdateConfigMap(*created).ok());
  Result<ConfigMap> stale = api.UpdateConfigMap(*created);
  EXPECT_EQ(stale.status().code(), StatusCode::kConflict);
}

TEST_F(HttpClientTest, RefusedConnectionIsUnavailable) {
  ClientConfig config;
  config.server = "http://127.0.0.1:1";
  HttpClient http(config, &RealClock::Instance());
  Result<HttpResponse> response = http.Do({.path = "/api/v1/nodes"});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(response.status().message().find("http://127.0.0.1:1/api/v1/nodes"),
            std::string::npos);
}

TEST(InClusterConfigTest, ReadsServiceAccountFiles) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("propscaler-sa-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "token") << "abc";
  std::ofstream(dir / "namespace") << "kube-system";
  std::ofstream(dir / "ca.crt") << "-----BEGIN CERTIFICATE-----\n";
  setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1", 1);
  setenv("KUBERNETES_SERVICE_PORT", "443", 1);
  Result<ClientConfig> config = LoadInClusterConfig(dir.string());
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->server, "https://10.0.0.1:443");
  EXPECT_EQ(config->token_file, (dir / "token").string());
  EXPECT_EQ(config->ca_file, (dir / "ca.crt").string());
  EXPECT_EQ(config->namespace_, "kube-system");

  unsetenv("KUBERNETES_SERVICE_HOST");
  Result<ClientConfig> outside = LoadInClusterConfig(dir.string());
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.status().message().find("--kubeconfig"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A watch tells its caller when the server accepted it (200), before any
// event: that is when a reflector's copy stops being stale. A refused watch
// never does.
TEST_F(HttpClientTest, WatchSaysWhenTheServerAcceptedIt) {
  HttpClient http(WithToken(), &RealClock::Instance());
  KubeApi api(&http);
  std::vector<std::string> seen;
  Status status = api.Watch(
      {"/api/v1/nodes", "", ""}, "0", 1,
      [&](std::string_view) {
        seen.push_back("line");
        return false;  // the first event (a bookmark at the latest) is enough
      },
      nullptr, [&] { seen.push_back("open"); });
  EXPECT_TRUE(status.ok()) << status.message();
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen[0], "open");
  EXPECT_EQ(std::count(seen.begin(), seen.end(), "open"), 1);

  ClientConfig wrong = WithToken();
  wrong.token = "token-9";
  HttpClient refused_http(wrong, &RealClock::Instance());
  KubeApi refused(&refused_http);
  bool opened = false;
  Status denied = refused.Watch(
      {"/api/v1/nodes", "", ""}, "0", 1, [](std::string_view) { return true; },
      nullptr, [&] { opened = true; });
  EXPECT_EQ(denied.code(), StatusCode::kUnauthenticated);
  EXPECT_FALSE(opened);
}

}  // namespace
}  // namespace propscaler::kube

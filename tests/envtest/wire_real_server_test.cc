// What goes over the wire to the real kube-apiserver, seen from
// propscaler's HTTP client (its counters): big responses gzip'd, small ones
// not (the rule tests/apiserver copies), and one connection for many
// requests.
#include "common/metrics.h"
#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

double Counted(const char* metric) { return GlobalMetrics().Value(metric); }

class WireRealServerTest : public RealServerTest {};

TEST_F(WireRealServerTest, BigListsComeGzippedSmallOnesNot) {
  AddNodes(0, 400);
  const std::string path = "/api/v1/nodes?labelSelector=envtest-ns%3D" + ns();
  double before = Counted("propscaler_api_received_bytes_total");
  Result<kube::HttpResponse> big = cluster().Admin("GET", path);
  ASSERT_TRUE(big.ok());
  ASSERT_EQ(big->status, 200);
  ASSERT_GT(big->body.size(), 128u * 1024);
  const double wire = Counted("propscaler_api_received_bytes_total") - before;
  EXPECT_LT(wire, static_cast<double>(big->body.size()) / 8)
      << wire << " bytes on the wire for " << big->body.size();

  before = Counted("propscaler_api_received_bytes_total");
  Result<kube::HttpResponse> small =
      cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
  ASSERT_TRUE(small.ok());
  ASSERT_EQ(small->status, 200);
  EXPECT_EQ(Counted("propscaler_api_received_bytes_total") - before,
            static_cast<double>(small->body.size()));
}

TEST_F(WireRealServerTest, ManyRequestsOneConnection) {
  AddNodes(0, 1);
  const double before = Counted("propscaler_api_connections_total");
  for (int i = 0; i < 50; ++i) {
    Result<kube::HttpResponse> got =
        cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got->status, 200);
  }
  EXPECT_LE(Counted("propscaler_api_connections_total") - before, 1);
}

// kube-apiserver offers HTTP/2 over TLS (ALPN) and libcurl takes it: each
// response is counted by the protocol it came in.
TEST_F(WireRealServerTest, ResponsesComeOverHttp2) {
  AddNodes(0, 1);
  const MetricLabels h2 = {{"protocol", "HTTP/2"}};
  const double before =
      GlobalMetrics().Value("propscaler_api_responses_total", h2);
  Result<kube::HttpResponse> got =
      cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->status, 200);
  EXPECT_EQ(
      GlobalMetrics().Value("propscaler_api_responses_total", h2) - before, 1);
}

// kube-apiserver 1.20 refuses a WatchList request with 422 and the message
// the simulated server's WatchListSupport::kBefore copies; propscaler then
// lists in pages (the fallback every real-server test runs through).
TEST_F(WireRealServerTest, WatchListIsRefusedBeforeKubernetes127) {
  AddNodes(0, 1);
  Result<kube::HttpResponse> got = cluster().Admin(
      "GET",
      "/api/v1/nodes?watch=1&allowWatchBookmarks=true&sendInitialEvents=true"
      "&resourceVersionMatch=NotOlderThan&timeoutSeconds=5");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->status, 422) << got->body;
  EXPECT_NE(got->body.find("resourceVersionMatch: Forbidden: "
                           "resourceVersionMatch is forbidden for watch"),
            std::string::npos)
      << got->body;
}

}  // namespace
}  // namespace propscaler::envtest

// The health port survives garbage and serves nothing but its endpoints.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <random>

#include "e2e/fault_fixture.h"

namespace propscaler::e2e {
namespace {

using std::chrono::seconds;

// Connects to 127.0.0.1:port, sends `bytes`, reads until the peer closes or
// a second passes, and closes.
void SendRaw(int port, const std::string& bytes) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) ==
      0) {
    (void)!send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    char buffer[4096];
    while (recv(fd, buffer, sizeof(buffer), 0) > 0) {
    }
  }
  close(fd);
}

std::vector<std::string> Garbage() {
  std::mt19937 random(42);
  std::string noise(64 * 1024, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  return {
      noise,
      std::string(1 << 20, 'A'),
      "GET /" + std::string(100000, 'a') + " HTTP/1.1\r\n\r\n",
      "GET /healthz HTTP/1.1\r\n" + std::string(200000, 'x') + ": y\r\n\r\n",
      "POST /last-poll HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\nabc",
      "GET /healthz HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "\r\n\r\n\r\n",
      "GET /../../../../etc/passwd HTTP/1.0\r\n\r\n",
      std::string("GET /healthz\0 HTTP/1.1\r\n\r\n", 26),
  };
}

class HealthPortTest : public FaultTest {};

TEST_F(HealthPortTest, SurvivesGarbageAndServesOnlyItsEndpoints) {
  auto propscaler = StartConverged();
  ASSERT_TRUE(WaitForLastPoll(200, "ok", seconds(3)));
  for (const std::string& bytes : Garbage()) SendRaw(health_port_, bytes);
  ASSERT_TRUE(propscaler->Running()) << propscaler->Report();
  httplib::Result healthz = HealthGet(health_port_, "/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 200);
  EXPECT_EQ(LastPollCode(), 200);
  for (const char* path : {"/", "/debug/pprof", "/etc/passwd", "/api/v1/nodes",
                           "/healthz/../kubeconfig", "/flags"}) {
    httplib::Result result = HealthGet(health_port_, path);
    ASSERT_TRUE(result) << path;
    EXPECT_EQ(result->status, 404) << path;
  }
  // The loop was never disturbed.
  AddNodes(1);
  EXPECT_TRUE(WaitForReplicas(5, seconds(3))) << propscaler->Report();
}

}  // namespace
}  // namespace propscaler::e2e

// The harness of the fault end-to-end tests: the replica cluster of
// replica_fixture.h (four 4-core nodes, one replica per node), propscaler
// started with a 1 s poll period, a health port and a 1 s idle timeout
// against a server that sends watch bookmarks every 300 ms, and helpers that
// watch the target's replicas and the server's request log while a fault is
// on.
#ifndef PROPSCALER_TESTS_E2E_FAULT_FIXTURE_H_
#define PROPSCALER_TESTS_E2E_FAULT_FIXTURE_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/replica_fixture.h"

namespace propscaler::e2e {

inline constexpr char kNodesPath[] = "/api/v1/nodes";
inline constexpr char kConfigMapsPath[] =
    "/api/v1/namespaces/kube-system/configmaps";
inline constexpr char kScalePath[] =
    "/apis/apps/v1/namespaces/kube-system/deployments/coredns/scale";

// A fault rule: `method` as FaultRule takes it, `code` 0 for delay or cut
// only, `count` < 0 for ever.
sim::FaultRule Fault(const std::string& method, const std::string& path_prefix,
                     int code, int count = -1);

// Samples the target's replicas every few milliseconds on a thread, so a
// test can tell whether they ever left a range while a fault was on.
class ReplicaSampler {
 public:
  explicit ReplicaSampler(const sim::FakeApiServer* server);
  ~ReplicaSampler();
  int64_t min() const { return min_.load(); }
  int64_t max() const { return max_.load(); }

 private:
  const sim::FakeApiServer* server_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> min_;
  std::atomic<int64_t> max_;
  std::thread thread_;
};

class FaultTest : public ReplicaClusterTest {
 protected:
  static constexpr auto kPollPeriod = std::chrono::seconds(1);

  void SetUp() override;

  // Starts propscaler and waits until it has scaled to `want`.
  std::unique_ptr<Process> StartConverged(
      int64_t want = 4, std::vector<std::string> extra_args = {});

  // /last-poll's status code and body (0 and "" when it does not answer).
  int LastPollCode();
  std::string LastPollBody();
  // Waits until /last-poll answers `code` with a body containing `text`.
  bool WaitForLastPoll(int code, const std::string& text,
                       std::chrono::milliseconds timeout);

  // Requests to `verb_and_path` ("PATCH /apis/...") since `since`.
  int64_t RequestsSince(std::chrono::steady_clock::time_point since,
                        const std::string& verb_and_path) const;
  std::vector<std::chrono::steady_clock::time_point> RequestTimes(
      std::chrono::steady_clock::time_point since,
      const std::string& verb_and_path) const;

  int health_port_ = 0;
};

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_FAULT_FIXTURE_H_

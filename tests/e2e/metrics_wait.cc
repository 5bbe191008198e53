#include "e2e/metrics_wait.h"

#include "e2e/process.h"
#include "e2e/replica_fixture.h"

namespace propscaler::e2e {

::testing::AssertionResult WaitForMetrics(int port,
                                          const std::vector<std::string>& parts,
                                          std::chrono::milliseconds timeout) {
  std::string page;
  std::string missing;
  const bool found = WaitUntil(
      [&] {
        auto response = HealthGet(port, "/metrics");
        page = response && response->status == 200 ? response->body : "";
        missing.clear();
        for (const std::string& part : parts) {
          if (page.find(part) == std::string::npos) missing += part + "\n";
        }
        return missing.empty();
      },
      timeout);
  if (found) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "missing from /metrics after " << timeout.count() << " ms:\n"
         << missing << "last page read:\n"
         << page;
}

}  // namespace propscaler::e2e

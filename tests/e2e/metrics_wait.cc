#include "e2e/metrics_wait.h"

#include <httplib.h>

#include "e2e/process.h"

namespace propscaler::e2e {

::testing::AssertionResult WaitForMetrics(int port,
                                          const std::vector<std::string>& parts,
                                          std::chrono::milliseconds timeout) {
  std::string page;
  std::string missing;
  const bool found = WaitUntil(
      [&] {
        httplib::Client client("127.0.0.1", port);
        client.set_connection_timeout(std::chrono::seconds(2));
        auto response = client.Get("/metrics");
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

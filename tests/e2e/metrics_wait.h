// Polls propscaler's /metrics until every expected line shows. A loop sets
// its counters and gauges one after the other, so a single read taken when
// one of them appears may not show the rest of the same iteration yet.
#ifndef PROPSCALER_TESTS_E2E_METRICS_WAIT_H_
#define PROPSCALER_TESTS_E2E_METRICS_WAIT_H_

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace propscaler::e2e {

// On failure, names the missing parts and shows the last page read.
::testing::AssertionResult WaitForMetrics(int port,
                                          const std::vector<std::string>& parts,
                                          std::chrono::milliseconds timeout);

}  // namespace propscaler::e2e

#endif  // PROPSCALER_TESTS_E2E_METRICS_WAIT_H_

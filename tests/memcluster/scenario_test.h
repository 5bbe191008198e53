// The base of the loops' virtual-time scenario tests: a virtual clock, the
// in-memory cluster on it, the stop signal, health state and Event recorder
// a loop runs with, and call counts.
#ifndef PROPSCALER_TESTS_MEMCLUSTER_SCENARIO_TEST_H_
#define PROPSCALER_TESTS_MEMCLUSTER_SCENARIO_TEST_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/clock.h"
#include "common/health_state.h"
#include "common/stop_signal.h"
#include "kube/controllers/event_recorder.h"
#include "memcluster/memory_cluster.h"

namespace propscaler::memcluster {

class ScenarioTest : public ::testing::Test {
 protected:
  // Client calls named `call` so far (faulted ones included).
  int64_t Calls(const std::string& call) { return cluster_.Calls()[call]; }

  VirtualClock clock_;
  MemoryCluster cluster_{&clock_};
  StopSignal stop_{&clock_};
  HealthState health_{&clock_, std::chrono::minutes(2)};
  kube::EventRecorder events_{&cluster_.client(), &clock_, "propscaler"};
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_SCENARIO_TEST_H_

// The fixture of vertical mode's scenario tests: the whole loop
// (VerticalParts) against the in-memory cluster in virtual time, with nodes
// added and removed by name ("node-N").
#ifndef PROPSCALER_TESTS_MEMCLUSTER_VERTICAL_SCENARIO_H_
#define PROPSCALER_TESTS_MEMCLUSTER_VERTICAL_SCENARIO_H_

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "apiserver/node_generator.h"
#include "apiserver/store_objects.h"
#include "app/vertical_parts.h"
#include "memcluster/scenario_test.h"

namespace propscaler::memcluster {

class VerticalScenario : public ScenarioTest {
 protected:
  void TearDown() override {
    if (loop_.joinable()) {
      stop_.Stop();
      clock_.WaitFor(std::chrono::hours(1), [this] { return exited_.load(); });
      loop_.join();
    }
  }

  void AddNodes(int first, int count) {
    for (int i = first; i < first + count; ++i) {
      sim::NodeShape shape;
      shape.name = "node-" + std::to_string(i);
      shape.index = i;
      ASSERT_TRUE(cluster_.AddNode(shape).ok());
    }
  }

  void RemoveNodes(int first, int count) {
    for (int i = first; i < first + count; ++i) {
      ASSERT_TRUE(
          sim::DeleteNode(cluster_.store(), "node-" + std::to_string(i)).ok());
    }
  }

  // The loop with options_, on its own thread until TearDown.
  void Start() {
    autoscaler_ = std::make_unique<VerticalParts>(
        VerticalWatches::Clients::Of(&cluster_.client()),
        VerticalAutoscaler::Clients::Of(&cluster_.client()), &clock_, options_,
        &health_, &events_, &board_);
    loop_ = clock_.StartThread([this] {
      autoscaler_->Run(&stop_);
      exited_ = true;
      clock_.Notify();
    });
  }

  VerticalStatusBoard board_;
  VerticalOptions options_;
  std::unique_ptr<VerticalParts> autoscaler_;
  std::thread loop_;
  std::atomic<bool> exited_{false};
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_VERTICAL_SCENARIO_H_

// Changes a simulated cluster step by step so that a demo viewer sees the
// autoscaler react: adds up to `max_extra_nodes` nodes one at a time,
// cordons the newest, then removes the extra nodes one at a time, and
// starts over. Each step returns one line for the log, e.g.
// "sim: added node sim-node-7 (5 nodes, 20 cores)".
//
// Not thread-safe; one caller drives it (the server itself is).
#ifndef PROPSCALER_TESTS_APISERVER_CLUSTER_CHURN_H_
#define PROPSCALER_TESTS_APISERVER_CLUSTER_CHURN_H_

#include <string>
#include <vector>

#include "apiserver/fake_apiserver.h"

namespace propscaler::sim {

class ClusterChurn {
 public:
  // New nodes get `cpu_cores` cores (0: 4).
  ClusterChurn(FakeApiServer* server, int cpu_cores, int max_extra_nodes = 3);

  // Applies the next change; returns its log line (or the error).
  std::string Step();

 private:
  std::string AddNode();
  std::string CordonNewest();
  std::string RemoveNewest();
  // "(5 nodes, 20 cores)", with the schedulable count when some are cordoned.
  std::string Summary() const;

  FakeApiServer* server_;
  int cpu_cores_;
  int max_extra_nodes_;
  int next_index_ = 0;                    // of the next node's name
  std::vector<std::string> extra_nodes_;  // added by us, oldest first
  bool removing_ = false;
};

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_CLUSTER_CHURN_H_

// One measured run of the real propscaler binary against the in-process
// simulated API server: start to first correct scale, peak memory after the
// list and after an hour of node heartbeats, reaction to a node turning
// Ready, and requests at rest. Times of requests come from the server's
// request log, so they are what the server saw.
//
// The cluster must hold `nodes` generated Ready nodes (sim-node-1..N), the
// Deployment kube-system/coredns and a ConfigMap asking for one replica per
// schedulable node (see scale_harness.cc); a run leaves it as it found it.
#ifndef PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_
#define PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "apiserver/fake_apiserver.h"
#include "common/status.h"

namespace propscaler::bench {

inline constexpr char kNamespace[] = "kube-system";
inline constexpr char kConfigMap[] = "coredns-autoscaler";
inline constexpr char kDeployment[] = "coredns";

struct ScaleRunOptions {
  int nodes = 0;
  std::string binary;      // propscaler
  std::string kubeconfig;  // for the server
  std::vector<std::string> extra_args;
  std::vector<std::string> env;  // NAME=VALUE added to propscaler's
  int heartbeat_rounds = 12;     // status updates per node: an hour at 5 min
  int reaction_trials = 100;
  // Wait between the scale-down PATCH of a trial and turning the node Ready
  // again: a node becoming Ready after a quiet spell, not a burst.
  std::chrono::milliseconds reaction_quiet{500};
  std::chrono::seconds steady_window{60};
};

struct ScaleRunResult {
  double list_send_seconds = 0;    // a client that only receives the pages
  double first_scale_seconds = 0;  // propscaler start -> correct PATCH
  int64_t peak_rss_after_list_kib = 0;
  int64_t rss_after_list_kib = 0;
  int64_t anon_after_list_kib = 0;  // heap and stacks, not libraries
  int64_t file_after_list_kib = 0;  // the binary and its libraries
  int64_t peak_rss_after_events_kib = 0;
  int64_t rss_after_events_kib = 0;
  int64_t anon_after_events_kib = 0;
  int64_t heartbeat_events = 0;
  double heartbeat_cpu_seconds = 0;  // propscaler's, while they streamed
  int64_t relists = 0;               // node lists after the first one
  std::vector<double> reaction_ms;   // Ready committed -> PATCH arrived
  std::chrono::seconds steady_window{0};
  std::map<std::string, int64_t> steady_requests;  // in the window
  int64_t steady_total = 0;
};

Result<ScaleRunResult> RunScale(sim::FakeApiServer* server,
                                const ScaleRunOptions& options);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_

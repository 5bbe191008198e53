// One measured run of the real propscaler binary against a bench cluster
// (the simulated API server or the real one): start to first correct scale
// (its first scale write, which must be of the right value),
// bytes received for it, peak memory after the list and after an hour of
// node heartbeats, reaction to a node turning Ready, and requests and new
// connections at rest. Times of requests come from the server's record of
// them, so they are what the server saw.
//
// The cluster must hold `nodes` generated Ready nodes (bench_cluster.h); a
// run leaves it as it found it.
#ifndef PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_
#define PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "harness/bench_cluster.h"

namespace propscaler::bench {

struct ScaleRunOptions {
  int nodes = 0;
  std::string binary;  // propscaler
  // When set: this cluster-proportional-autoscaler binary is measured instead
  // of propscaler, under `rbac`, with the same target, ConfigMap and
  // namespace, started as a pod starts it (an in-cluster client: the
  // service account's files bind-mounted over /run in a mount namespace of
  // its own, which needs root). It reports no wire figures and serves its
  // health on :8080, which must be free.
  std::string cpa_binary;
  std::string rbac = "ours";  // see BenchCluster::PropscalerKubeconfig
  std::vector<std::string> extra_args;
  std::vector<std::string> env;  // NAME=VALUE added to propscaler's
  int heartbeat_rounds = 12;     // status updates per node: an hour at 5 min
  int writer_threads = 8;        // sending them in parallel
  int reaction_trials = 100;
  // Wait between the scale-down PATCH of a trial and turning the node Ready
  // again: a node becoming Ready after a quiet spell, not a burst.
  std::chrono::milliseconds reaction_quiet{500};
  // Up to this much more, at random: a client that polls (CPA, every 10 s)
  // then meets the change at a random point of its period, not always just
  // after a poll.
  std::chrono::milliseconds reaction_quiet_jitter{0};
  std::chrono::seconds steady_window{60};
};

struct ScaleRunResult {
  double list_send_seconds = 0;  // a client that only receives the pages
  // The same for one list of any version (resourceVersion=0) in protobuf:
  // the server answers from its watch cache, whole, as it answers
  // propscaler's and client-go's first list.
  double cache_send_seconds = 0;
  int64_t list_bytes = 0;  // the pages' JSON, as they inflate
  // What propscaler had received on the wire (gzip'd where the server
  // compressed) and the connections it had opened by its first scale; -1
  // for CPA, which does not count them.
  int64_t first_scale_wire_bytes = 0;
  int64_t first_scale_connections = 0;
  // Start -> the first scale write, which must set the replicas the nodes
  // ask for (for propscaler a run fails otherwise): the first correct
  // scale.
  double first_scale_seconds = 0;
  // What the first write set (from a watch on the target), and the scale
  // writes the server had received when the target reached its value (1
  // when the first was right; a write of the old value changes nothing the
  // watch sees, so it shows here).
  int64_t first_scale_replicas = -1;
  int64_t scale_writes_to_target = 0;
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
  int64_t steady_connections = 0;  // opened in the window: handshakes
};

Result<ScaleRunResult> RunScale(BenchCluster* cluster,
                                const ScaleRunOptions& options);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_SCALE_RUN_H_

// The process metrics every Prometheus client library exposes (the names of
// client_golang's process collector), read from /proc at each scrape,
// propscaler_build_info{version,revision}, and malloc's heap in use and
// free (propscaler_heap_in_use_bytes, propscaler_heap_free_bytes).
#ifndef PROPSCALER_SERVER_PROCESS_METRICS_H_
#define PROPSCALER_SERVER_PROCESS_METRICS_H_

#include <string_view>

#include "common/metrics.h"
#include "common/status.h"

namespace propscaler {

struct ProcessSample {
  double cpu_seconds = 0;  // user and system
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double start_time_seconds = 0;  // since the Unix epoch
};

// From the text of /proc/self/stat, the wall-clock time at boot (the start
// of the clock its starttime counts on), the clock ticks a second and the
// page size. Pure.
Result<ProcessSample> ParseProcessSample(std::string_view self_stat,
                                         double boot_wall_clock_seconds,
                                         long ticks_per_second, long page_size);

// Declares the process metrics and sets propscaler_build_info.
void DeclareProcessMetrics(Metrics* metrics);
// Reads /proc and the fd limit now into the process metrics; what cannot
// be read keeps its last value.
void UpdateProcessMetrics(Metrics* metrics);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_PROCESS_METRICS_H_

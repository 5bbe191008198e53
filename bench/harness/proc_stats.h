// Memory and CPU figures of a running process, read from /proc/PID: what
// the scale harness reports for the propscaler it started.
#ifndef PROPSCALER_BENCH_HARNESS_PROC_STATS_H_
#define PROPSCALER_BENCH_HARNESS_PROC_STATS_H_

#include <sys/types.h>

#include <cstdint>

#include "common/status.h"

namespace propscaler::bench {

struct ProcStats {
  int64_t peak_rss_kib = 0;  // VmHWM: the high-water mark since start
  int64_t rss_kib = 0;       // VmRSS: resident now
  int64_t rss_anon_kib = 0;  // RssAnon: of which heap and stacks
  int64_t rss_file_kib = 0;  // RssFile: of which the binary and libraries
  double cpu_seconds = 0;    // user + system time so far
};

Result<ProcStats> ReadProcStats(pid_t pid);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_PROC_STATS_H_

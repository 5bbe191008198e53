#include "server/process_metrics.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <string>
#include <vector>

#include "common/files.h"
#include "common/free_heap_pages.h"
#include "server/build_revision.h"

namespace propscaler {
namespace {

constexpr char kCpu[] = "process_cpu_seconds_total";
constexpr char kResident[] = "process_resident_memory_bytes";
constexpr char kVirtual[] = "process_virtual_memory_bytes";
constexpr char kStart[] = "process_start_time_seconds";
constexpr char kOpenFds[] = "process_open_fds";
constexpr char kMaxFds[] = "process_max_fds";
constexpr char kHeapInUse[] = "propscaler_heap_in_use_bytes";
constexpr char kHeapFree[] = "propscaler_heap_free_bytes";

std::vector<std::string_view> Fields(std::string_view text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t start = text.find_first_not_of(" \n", at);
    if (start == std::string_view::npos) break;
    const size_t end = std::min(text.find_first_of(" \n", start), text.size());
    out.push_back(text.substr(start, end - start));
    at = end;
  }
  return out;
}

bool ToNumber(std::string_view text, double* out) {
  int64_t value = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return false;
  *out = static_cast<double>(value);
  return true;
}

// The wall-clock time the kernel's boot clock started from, read now: the
// process's start (ticks on that clock) plus this is when it started. Not
// /proc/stat's btime: whole seconds, so up to a second early.
double BootWallClockSeconds() {
  timespec wall{}, since_boot{};
  clock_gettime(CLOCK_REALTIME, &wall);
  clock_gettime(CLOCK_BOOTTIME, &since_boot);
  const auto seconds = [](const timespec& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
  };
  return seconds(wall) - seconds(since_boot);
}

double OpenFds() {
  std::error_code error;
  double count = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end;
       !error && it != end; it.increment(error)) {
    ++count;
  }
  return count;
}

}  // namespace

Result<ProcessSample> ParseProcessSample(std::string_view self_stat,
                                         double boot_wall_clock_seconds,
                                         long ticks_per_second,
                                         long page_size) {
  // The command (field 2) is in parentheses and may hold spaces and
  // parentheses itself: the fields after it start at the last ')'.
  const size_t paren = self_stat.rfind(')');
  if (paren == std::string_view::npos || ticks_per_second <= 0) {
    return Status::Invalid("/proc/self/stat: no \")\" after the command");
  }
  const std::vector<std::string_view> fields =
      Fields(self_stat.substr(paren + 1));
  // Fields 14, 15, 22, 23 and 24 of proc(5), from field 3 on.
  constexpr size_t kUtime = 11, kStime = 12, kStartTime = 19, kVsize = 20,
                   kRss = 21;
  if (fields.size() <= kRss) {
    return Status::Invalid(
        "/proc/self/stat: " + std::to_string(fields.size() + 2) +
        " fields, want at least 24");
  }
  double utime = 0, stime = 0, start = 0, vsize = 0, rss = 0;
  for (auto [index, out] : {std::pair{kUtime, &utime},
                            {kStime, &stime},
                            {kStartTime, &start},
                            {kVsize, &vsize},
                            {kRss, &rss}}) {
    if (!ToNumber(fields[index], out)) {
      return Status::Invalid("/proc/self/stat: field " +
                             std::to_string(index + 3) + " \"" +
                             std::string(fields[index]) + "\" is not a number");
    }
  }
  const double ticks = static_cast<double>(ticks_per_second);
  return ProcessSample{(utime + stime) / ticks,
                       rss * static_cast<double>(page_size), vsize,
                       boot_wall_clock_seconds + start / ticks};
}

void DeclareProcessMetrics(Metrics* metrics) {
  metrics->DeclareCounter(kCpu,
                          "Total user and system CPU time spent in "
                          "seconds.");
  metrics->DeclareGauge(kResident, "Resident memory size in bytes.");
  metrics->DeclareGauge(kVirtual, "Virtual memory size in bytes.");
  metrics->DeclareGauge(kStart,
                        "Start time of the process since unix epoch "
                        "in seconds.");
  metrics->DeclareGauge(kOpenFds, "Number of open file descriptors.");
  metrics->DeclareGauge(kMaxFds, "Maximum number of open file descriptors.");
  metrics->DeclareGauge(kHeapInUse,
                        "Bytes of malloc's heap in use: live blocks and the "
                        "threads' caches of freed ones.");
  metrics->DeclareGauge(kHeapFree,
                        "Bytes free inside malloc's heap: given back to the "
                        "system after each cycle, or in pieces smaller than "
                        "a page.");
  metrics->DeclareGauge("propscaler_build_info",
                        "Always 1: the version and the source revision "
                        "propscaler was built from.");
  metrics->Set("propscaler_build_info",
               {{"version", PROPSCALER_VERSION},
                {"revision", std::string(BuildRevision())}},
               1);
}

void UpdateProcessMetrics(Metrics* metrics) {
  Result<std::string> self_stat = ReadFile("/proc/self/stat");
  // Read once, so that the start time stays put if the wall clock is set.
  static const double boot = BootWallClockSeconds();
  if (self_stat.ok()) {
    Result<ProcessSample> sample = ParseProcessSample(
        *self_stat, boot, sysconf(_SC_CLK_TCK), sysconf(_SC_PAGESIZE));
    if (sample.ok()) {
      metrics->Set(kCpu, {}, sample->cpu_seconds);
      metrics->Set(kResident, {}, sample->resident_bytes);
      metrics->Set(kVirtual, {}, sample->virtual_bytes);
      metrics->Set(kStart, {}, sample->start_time_seconds);
    }
  }
  metrics->Set(kOpenFds, {}, OpenFds());
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    metrics->Set(kMaxFds, {}, static_cast<double>(limit.rlim_cur));
  }
  const HeapUsage heap = MeasureHeap();
  metrics->Set(kHeapInUse, {}, heap.in_use_bytes);
  metrics->Set(kHeapFree, {}, heap.free_bytes);
}

}  // namespace propscaler

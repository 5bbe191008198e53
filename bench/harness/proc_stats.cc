#include "harness/proc_stats.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace propscaler::bench {
namespace {

// The value in kB of a "Name:   123 kB" line of /proc/PID/status.
int64_t StatusField(const std::string& status, const std::string& name) {
  const size_t at = status.find("\n" + name + ":");
  if (at == std::string::npos) return -1;
  return std::atoll(status.c_str() + at + name.size() + 2);
}

// utime and stime, fields 14 and 15 of /proc/PID/stat, counted after the
// command name (which may hold spaces) ends with ')'.
double CpuSeconds(const std::string& stat) {
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  int64_t ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i >= 14) ticks += std::atoll(field.c_str());
  }
  return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

Result<ProcStats> ReadProcStats(pid_t pid) {
  const std::string dir = "/proc/" + std::to_string(pid);
  const std::string status = "\n" + ReadAll(dir + "/status");
  const std::string stat = ReadAll(dir + "/stat");
  ProcStats stats{StatusField(status, "VmHWM"), StatusField(status, "VmRSS"),
                  StatusField(status, "RssAnon"),
                  StatusField(status, "RssFile"), 0};
  if (stats.peak_rss_kib < 0 || stat.find(')') == std::string::npos) {
    return Status::NotFound("no /proc figures for process " +
                            std::to_string(pid));
  }
  stats.cpu_seconds = CpuSeconds(stat);
  return stats;
}

}  // namespace propscaler::bench

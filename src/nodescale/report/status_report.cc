#include "nodescale/report/status_report.h"

#include <sstream>

#include "common/utc_time.h"

namespace propscaler::nodescale {
namespace {

// "small +3 (to 5)" of "small +3 (to 5) at 2026-...".
std::string WithoutTime(const std::string& text) {
  const size_t at = text.rfind(" at ");
  return at == std::string::npos ? text : text.substr(0, at);
}

}  // namespace

void RecordHistory(const StatusReport& report, const StatusReport& shown,
                   History* history) {
  const TimePoint now = report.time;
  history->Record("pending pods", now, report.pending_pods);
  int64_t target = 0;
  int64_t ready = 0;
  for (const GroupStatus& group : report.groups) {
    target += group.target;
    ready += group.ready;
  }
  history->Record("target", now, target);
  history->Record("ready", now, ready);
  for (size_t i = 0; i < report.groups.size() && i < kChartedGroups; ++i) {
    const GroupStatus& group = report.groups[i];
    history->Record(kGroupTargetSeries + group.name, now, group.target);
    history->Record(kGroupNodesSeries + group.name, now,
                    group.ready + group.unready + group.not_started);
  }
  if (report.last_scale_up != shown.last_scale_up &&
      report.last_scale_up != "never") {
    history->Mark(now, "scale-up: " + WithoutTime(report.last_scale_up));
  }
  if (report.last_scale_down != shown.last_scale_down &&
      report.last_scale_down != "never") {
    history->Mark(now, "removed: " + WithoutTime(report.last_scale_down));
  }
  history->Trim(now);
}

std::string RenderStatus(const StatusReport& report) {
  std::ostringstream out;
  out << "Cluster-wide:\n  Health: " << report.health
      << "\n  LastProbeTime: " << FormatMicroTime(report.time)
      << "\n  ScaleUp: " << report.last_scale_up
      << "\n  ScaleDown: " << report.last_scale_down << "\n\nNodeGroups:\n";
  for (const GroupStatus& group : report.groups) {
    out << "  Name: " << group.name << "\n    Health: ready=" << group.ready
        << " unready=" << group.unready << " notStarted=" << group.not_started
        << " upcoming=" << group.upcoming << " target=" << group.target
        << " minSize=" << group.min << " maxSize=" << group.max
        << "\n    Backoff: ";
    if (group.backoff_until != TimePoint()) {
      out << "until " << FormatMicroTime(group.backoff_until);
    } else {
      out << "none";
    }
    out << "\n";
  }
  if (!report.disruption_commands.empty() ||
      !report.disruption_blocked.empty()) {
    out << "\nDisruption:\n  Commands:\n";
    for (const std::string& line : report.disruption_commands) {
      out << "    " << line << "\n";
    }
    out << "  Blocked:\n";
    for (const std::string& line : report.disruption_blocked) {
      out << "    " << line << "\n";
    }
  }
  if (!report.buffers.empty()) {
    out << "\nCapacityBuffers:\n";
    for (const std::string& line : report.buffers) out << "  " << line << "\n";
  }
  if (!report.provisioning_requests.empty()) {
    out << "\nProvisioningRequests:\n";
    for (const std::string& line : report.provisioning_requests) {
      out << "  " << line << "\n";
    }
  }
  return out.str();
}

Status WriteStatusConfigMap(const kube::ConfigMapClient& api,
                            const std::string& ns, const std::string& name,
                            const std::string& text,
                            const std::string& updated) {
  Result<kube::ConfigMap> current = api.GetConfigMap(ns, name);
  if (!current.ok() && current.status().code() != StatusCode::kNotFound) {
    return current.status().WithContext("reading configmap " + ns + "/" + name +
                                        " to write the status");
  }
  kube::ConfigMap desired = current.ok() ? *current : kube::ConfigMap{name, ns};
  desired.data["status"] = text;
  desired.annotations[kLastUpdatedAnnotation] = updated;
  Result<kube::ConfigMap> written = current.ok() ? api.UpdateConfigMap(desired)
                                                 : api.CreateConfigMap(desired);
  return written.status().WithContext("writing configmap " + ns + "/" + name);
}

}  // namespace propscaler::nodescale

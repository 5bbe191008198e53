#include "nodescale/run/status_report.h"

#include <sstream>

#include "common/utc_time.h"

namespace propscaler::nodescale {

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

// Node-scale mode's status: the report /status shows as text (health, each
// group's min/max/target/ready/upcoming/backoff, the last scale-up and
// scale-down), and the status ConfigMap's write (create or update) at the
// edge, which holds Cluster Autoscaler's YAML (ca_status.h). The write
// reads the ConfigMap fresh each time and caches nothing, so it needs no
// runtime::WatchedObject (its key is propscaler's own; the update carries
// the version read and keeps the other keys and annotations).
#ifndef PROPSCALER_NODESCALE_REPORT_STATUS_REPORT_H_
#define PROPSCALER_NODESCALE_REPORT_STATUS_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/history.h"
#include "common/status.h"
#include "kube/client/client.h"
#include "nodescale/report/ca_status.h"

namespace propscaler::nodescale {

inline constexpr char kStatusConfigMap[] = "propscaler-status";
// Cluster Autoscaler's annotation: when the status was last written.
inline constexpr char kLastUpdatedAnnotation[] =
    "cluster-autoscaler.kubernetes.io/last-updated";

// --write-status-configmap and --status-config-map-name.
struct StatusConfigMapOptions {
  bool write = true;
  std::string name = kStatusConfigMap;
};

struct GroupStatus {
  std::string name;
  int64_t min = 0;
  int64_t max = 0;
  int64_t target = 0;
  int64_t ready = 0;
  int64_t unready = 0;      // not Ready, and not coming (node_health.h)
  int64_t not_started = 0;  // registered, not Ready yet
  int64_t upcoming = 0;
  TimePoint backoff_until;  // epoch: not backed off (now)
};

struct StatusReport {
  TimePoint time;
  std::string health;  // "Healthy", or what is wrong
  std::vector<GroupStatus> groups;
  int64_t pending_pods = 0;  // pending and marked unschedulable
  std::string last_scale_up = "never";
  std::string last_scale_down = "never";
  // Karpenter-style disruption: commands in flight and candidates held back.
  std::vector<std::string> disruption_commands;
  std::vector<std::string> disruption_blocked;
  // CapacityBuffers: "namespace/name: what it holds, or why not".
  std::vector<std::string> buffers;
  // ProvisioningRequests: "namespace/name (class): where it stands".
  std::vector<std::string> provisioning_requests;
  // What Cluster Autoscaler's status is built from; nullopt when the
  // cluster could not be read (nothing is written then, as CA).
  std::optional<CaStatusInput> ca;
  // Kept across reports by the board (RecordHistory): for the pictures.
  History history;
};

// The series of the pictures: pending pods, all groups' target and ready
// nodes, and the first kChartedGroups groups' targets ("target <group>")
// and registered nodes ("nodes <group>").
inline constexpr size_t kChartedGroups = 8;
inline constexpr char kGroupTargetSeries[] = "target ";
inline constexpr char kGroupNodesSeries[] = "nodes ";
// `report`'s numbers into `history`, a mark at a new scale-up or removal
// (`shown` is the report before it).
void RecordHistory(const StatusReport& report, const StatusReport& shown,
                   History* history);

std::string RenderStatus(const StatusReport& report);

// Creates or updates ConfigMap `ns`/`name` with key "status" holding
// `text`, annotated as last updated at `updated`.
Status WriteStatusConfigMap(const kube::ConfigMapClient& api,
                            const std::string& ns, const std::string& name,
                            const std::string& text,
                            const std::string& updated);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_REPORT_STATUS_REPORT_H_

// A node group as the providers describe it (the node groups file, Cluster
// API's MachineDeployments) and the pool whose disruption policy it
// follows: node-scale mode's own domain, plain structs.
#ifndef PROPSCALER_NODESCALE_DOMAIN_NODE_GROUP_H_
#define PROPSCALER_NODESCALE_DOMAIN_NODE_GROUP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "kube/model/node_template.h"

namespace propscaler::nodescale {

using kube::NodeTemplate;

// One of a pool's disruption budgets, as Karpenter's NodePool declares it
// (spec.disruption.budgets[]): `nodes` is a count ("3") or a percentage
// ("10%"), `reasons` a subset of Empty, Drifted, Underutilized (none: all),
// `schedule` a cron in UTC with `duration` (both or neither). The decoder
// checks the shape; the cron is parsed when the budget is evaluated, and an
// invalid one allows no disruption at all
// (nodescale/plan/disruption/disruption_budget.h).
struct DisruptionBudget {
  std::string nodes = "10%";
  std::vector<std::string> reasons;
  std::string schedule;
  Duration duration{};
  bool operator==(const DisruptionBudget&) const = default;
};

enum class ConsolidationPolicy { kWhenEmpty, kWhenEmptyOrUnderutilized };

// A pool groups node groups under one disruption policy, as Karpenter's
// NodePool groups instance types. The defaults are Karpenter's.
struct NodePool {
  std::string name;
  ConsolidationPolicy consolidation_policy =
      ConsolidationPolicy::kWhenEmptyOrUnderutilized;
  // nullopt: Never (no emptiness or consolidation; drift still acts).
  std::optional<Duration> consolidate_after = Duration(0);
  std::vector<DisruptionBudget> budgets = {DisruptionBudget{}};
  // nullopt: Never.
  std::optional<Duration> expire_after = std::chrono::hours(720);
  // GKE's active migration: replace nodes of lower-priority groups by the
  // highest-priority group that can take their pods again.
  bool migrate_to_preferred = false;
  bool operator==(const NodePool&) const = default;
};

// The pool of groups that name none, with Karpenter's defaults.
inline constexpr std::string_view kDefaultPoolName = "default";

// A group's own values of node-scale flags (Cluster Autoscaler's
// per-NodeGroup autoscaling options); unset: the flag's.
struct NodeGroupOptions {
  std::optional<double> scale_down_utilization_threshold;
  std::optional<Duration> scale_down_unneeded_time;
  std::optional<Duration> scale_down_unready_time;
  std::optional<Duration> max_node_provision_time;
  std::optional<Duration> max_node_startup_time;
  bool operator==(const NodeGroupOptions&) const = default;
};

struct NodeGroup {
  std::string name;
  std::string pool;                         // empty: the default pool
  std::string capacity_type = "on-demand";  // or "spot"
  int64_t min_size = 0;
  int64_t max_size = 0;
  int64_t target_size = 0;
  std::optional<double> price;  // per node and hour; used by the price expander
  std::optional<NodeTemplate> declared_template;
  NodeGroupOptions options;
  // Its machines are being replaced (a Cluster API MachineDeployment rolling
  // out): as in Cluster Autoscaler, none of its nodes is a scale-down
  // candidate meanwhile.
  bool rolling_out = false;
  // Non-empty: no longer offered, and why (a NodePool's requirements no
  // longer admit it). Its nodes have drifted; it never grows.
  std::string retired;
};

// The max_size of a NodePool's candidate: its NodePool's limits bound it,
// not a size of its own.
inline constexpr int64_t kNoGroupMax = int64_t{1} << 40;

// The group of that name; null when there is none.
const NodeGroup* FindGroup(const std::vector<NodeGroup>& groups,
                           std::string_view name);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_NODE_GROUP_H_

// Which taints say something about one node's state rather than about the
// nodes of its group, as Cluster Autoscaler sorts them:
// - startup taints (prefix startup-taint.cluster-autoscaler.kubernetes.io/,
//   the deprecated ignore-taint.cluster-autoscaler.kubernetes.io/, prefixes
//   from --startup-taint-prefix, keys from --startup-taint and the
//   deprecated --ignore-taint): the node is still starting, so it is not
//   Ready (node_health.h);
// - status taints (prefix status-taint.cluster-autoscaler.kubernetes.io/,
//   keys from --status-taint): the node is healthy and keeps the taint, so
//   pods that do not tolerate it go elsewhere;
// - both, and the node lifecycle controller's, the cloud controller's and
//   CA's own marks, are left out of a template made from a live node
//   (CA's SanitizeTaints). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_TAINT_KINDS_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_TAINT_KINDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

inline constexpr std::string_view kStartupTaintPrefix =
    "startup-taint.cluster-autoscaler.kubernetes.io/";
inline constexpr std::string_view kIgnoreTaintPrefix =
    "ignore-taint.cluster-autoscaler.kubernetes.io/";
inline constexpr std::string_view kStatusTaintPrefix =
    "status-taint.cluster-autoscaler.kubernetes.io/";

struct TaintKinds {
  // Besides kStartupTaintPrefix and kIgnoreTaintPrefix.
  std::vector<std::string> startup_prefixes;
  std::vector<std::string> startup_keys;
  // Besides kStatusTaintPrefix.
  std::vector<std::string> status_keys;
};

bool IsStartupTaint(const Taint& taint, const TaintKinds& kinds);
bool IsStatusTaint(const Taint& taint, const TaintKinds& kinds);
// One node's state, not its group's: left out of templates.
bool IsNodeStateTaint(const Taint& taint, const TaintKinds& kinds);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_TAINT_KINDS_H_

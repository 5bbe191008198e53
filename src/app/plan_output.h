// The text output of `propscaler plan`: the table of replicas over cluster
// sizes, and the counts and replicas of one node list.
#ifndef PROPSCALER_APP_PLAN_OUTPUT_H_
#define PROPSCALER_APP_PLAN_OUTPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "app/node_list_counts.h"
#include "replicas/params.h"
#include "replicas/plan_table.h"
#include "vertical/vertical_config.h"
#include "vertical/vertical_plan.h"

namespace propscaler {

// A heading naming the params and the range, then one line per row of
// PlanSteps with the change ("+1") and the bound that decides it.
std::string PlanTableText(const Params& params, const PlanRange& range,
                          const std::vector<PlanRow>& steps);

struct NodeListPlan {
  std::string file;
  std::string nodelabels;  // empty: every node counts
  NodeListCounts counts;
  int64_t replicas = 0;
  PlanBound bound = PlanBound::kNone;
  std::string excluded_taints;  // --exclude-node-taints; empty: none
};

// The counts of the node list (all and schedulable), which of them the
// params use, and the replicas.
std::string NodeListPlanText(const Params& params, const NodeListPlan& plan);

// Vertical mode's: the config, the range, then one line per anchor row of
// the plan with each configured resource as it would be written.
std::string VerticalPlanTableText(const VerticalConfig& config,
                                  const VerticalPlan& plan);

}  // namespace propscaler

#endif  // PROPSCALER_APP_PLAN_OUTPUT_H_

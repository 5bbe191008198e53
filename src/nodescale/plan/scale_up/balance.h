// --balance-similar-node-groups: groups whose templates are alike (each
// allocatable amount within 5%, equal labels ignoring zone, region, hostname
// and node-group labels, equal taints) share a scale-up, so that their sizes
// stay as even as their maximums allow, as CA balances zones. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SCALE_UP_BALANCE_H_
#define PROPSCALER_NODESCALE_PLAN_SCALE_UP_BALANCE_H_

#include <cstdint>
#include <vector>

#include "nodescale/plan/simulation/node_templates.h"

namespace propscaler::nodescale {

bool SimilarTemplates(const NodeTemplate& a, const NodeTemplate& b);

struct GroupSize {
  int64_t target_size = 0;
  int64_t max_size = 0;
};

// Splits `delta` new nodes across `groups`, one node at a time to the
// smallest group below its max (earlier groups win ties). The result is
// per group, in input order; it sums to less than `delta` only when every
// group reaches its max.
std::vector<int64_t> SplitIncrease(int64_t delta,
                                   const std::vector<GroupSize>& groups);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SCALE_UP_BALANCE_H_

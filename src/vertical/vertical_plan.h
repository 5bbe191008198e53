// What a vertical config gives over a range of cluster sizes, for
// `propscaler plan --vertical-config`: every configured container resource
// at every size from 1 to N nodes of a given CPU (each node's cores
// counted), and the rows a person reads. Pure; the same arithmetic as the
// loop.
#ifndef PROPSCALER_VERTICAL_VERTICAL_PLAN_H_
#define PROPSCALER_VERTICAL_VERTICAL_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "vertical/vertical_config.h"

namespace propscaler {

struct VerticalPlanColumn {
  std::string container;
  std::string side;  // "requests" or "limits"
  std::string resource;
  int64_t max_millis = 0;  // the config's max; 0: none

  // "coredns requests.memory".
  std::string ToString() const;
};

struct VerticalPlanRow {
  int64_t nodes = 0;
  int64_t cores = 0;
  std::vector<int64_t> millis;  // one per column
  bool operator==(const VerticalPlanRow&) const = default;
};

struct VerticalPlan {
  int64_t cpu_millis_per_node = 4000;
  std::vector<VerticalPlanColumn> columns;
  std::vector<VerticalPlanRow> rows;  // 1..max_nodes
};

VerticalPlan VerticalPlanCurve(const VerticalConfig& config,
                               int64_t cpu_millis_per_node, int64_t max_nodes);

// The sizes a table shows: 1, 2, 5, 10, 20, 50, ... and the last; plus the
// first size at which a column reaches its max.
std::vector<VerticalPlanRow> VerticalPlanAnchors(const VerticalPlan& plan);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_PLAN_H_

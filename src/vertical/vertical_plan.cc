#include "vertical/vertical_plan.h"

#include <limits>

#include "common/quantity.h"
#include "vertical/vertical_arithmetic.h"

namespace propscaler {
namespace {

int64_t CoresOf(int64_t nodes, int64_t cpu_millis_per_node) {
  const __int128 millis =
      static_cast<__int128>(nodes) * static_cast<__int128>(cpu_millis_per_node);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  return MilliToUnitsRoundUp(millis > kMax ? kMax
                                           : static_cast<int64_t>(millis));
}

bool IsAnchor(int64_t nodes) {
  for (int64_t decade = 1; decade <= nodes; decade *= 10) {
    if (nodes == decade || nodes == 2 * decade || nodes == 5 * decade) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::string VerticalPlanColumn::ToString() const {
  return container + " " + side + "." + resource;
}

VerticalPlan VerticalPlanCurve(const VerticalConfig& config,
                               int64_t cpu_millis_per_node, int64_t max_nodes) {
  VerticalPlan plan;
  plan.cpu_millis_per_node = cpu_millis_per_node;
  std::vector<const ResourceScale*> scales;
  for (const auto& [container, scale] : config) {
    for (const auto& [side, resources] :
         {std::pair<std::string, const std::map<std::string, ResourceScale>*>{
              "requests", &scale.requests},
          {"limits", &scale.limits}}) {
      for (const auto& [resource, resource_scale] : *resources) {
        plan.columns.push_back(
            {container, side, resource, resource_scale.max_millis.value_or(0)});
        scales.push_back(&resource_scale);
      }
    }
  }
  for (int64_t nodes = 1; nodes <= max_nodes; ++nodes) {
    VerticalPlanRow row{nodes, CoresOf(nodes, cpu_millis_per_node), {}};
    for (const ResourceScale* scale : scales) {
      row.millis.push_back(ScaledMillis(*scale, {row.nodes, row.cores}));
    }
    plan.rows.push_back(std::move(row));
  }
  return plan;
}

std::vector<VerticalPlanRow> VerticalPlanAnchors(const VerticalPlan& plan) {
  std::vector<VerticalPlanRow> anchors;
  if (plan.rows.empty()) return anchors;
  // The first size at which each column is at its max.
  std::vector<int64_t> capped(plan.columns.size(), 0);
  for (size_t c = 0; c < plan.columns.size(); ++c) {
    if (plan.columns[c].max_millis <= 0) continue;
    for (const VerticalPlanRow& row : plan.rows) {
      if (row.millis[c] != plan.columns[c].max_millis) continue;
      capped[c] = row.nodes;
      break;
    }
  }
  for (const VerticalPlanRow& row : plan.rows) {
    bool keep = IsAnchor(row.nodes) || row.nodes == plan.rows.back().nodes;
    for (int64_t at : capped) keep |= row.nodes == at;
    if (keep) anchors.push_back(row);
  }
  return anchors;
}

}  // namespace propscaler

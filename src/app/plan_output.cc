#include "app/plan_output.h"

#include <iomanip>
#include <sstream>
#include <variant>

#include "common/quantity_format.h"
#include "replicas/params_summary.h"

namespace propscaler {
namespace {

std::string ChangeText(int64_t change) {
  if (change == 0) return "";
  return (change > 0 ? "+" : "") + std::to_string(change);
}

// As it is written, and memory also in binary units when that reads better:
// "74448896 (71Mi)".
std::string ReadableQuantity(int64_t millis, const std::string& resource) {
  const QuantityFormat format = CpvaFormatOf(resource);
  const std::string written = FormatMilliQuantity(millis, format);
  if (format == QuantityFormat::kBinarySI) return written;
  const std::string binary =
      FormatMilliQuantity(millis, QuantityFormat::kBinarySI);
  return binary.size() < written.size() ? written + " (" + binary + ")"
                                        : written;
}

}  // namespace

std::string PlanTableText(const Params& params, const PlanRange& range,
                          const std::vector<PlanRow>& steps) {
  std::ostringstream out;
  out << "params: " << SummarizeParams(params) << "\n"
      << "cluster: 1 to " << range.max_nodes << " nodes of "
      << FormatCores(range.cpu_millis_per_node) << " cores"
      << (range.pods_per_node
              ? " and " + std::to_string(*range.pods_per_node) + " counted pods"
              : std::string())
      << ", all schedulable; rows where replicas change, and anchors\n\n"
      << std::setw(8) << "nodes" << std::setw(10) << "cores";
  if (range.pods_per_node) out << std::setw(10) << "pods";
  out << std::setw(10) << "replicas" << std::setw(8) << "change"
      << "  bound\n";
  for (const PlanRow& row : steps) {
    std::ostringstream line;
    line << std::setw(8) << row.nodes << std::setw(10) << row.cores;
    if (range.pods_per_node) line << std::setw(10) << row.pods;
    line << std::setw(10) << row.replicas << std::setw(8)
         << ChangeText(row.change) << "  " << PlanBoundName(row.bound);
    std::string text = line.str();
    while (text.back() == ' ') text.pop_back();
    out << text << "\n";
  }
  return out.str();
}

std::string NodeListPlanText(const Params& params, const NodeListPlan& plan) {
  const ClusterCounts& c = plan.counts.counts;
  std::ostringstream out;
  out << "params: " << SummarizeParams(params) << "\n"
      << "nodes: " << plan.file << ": " << plan.counts.listed << " listed";
  if (!plan.nodelabels.empty()) {
    out << ", " << c.total_nodes << " match --nodelabels=" << plan.nodelabels;
  }
  out << "\n"
      << "counted: " << c.total_nodes << " nodes, " << c.total_cores
      << " cores\n"
      << "schedulable: " << c.schedulable_nodes << " nodes, "
      << c.schedulable_cores << " cores";
  if (!plan.excluded_taints.empty()) {
    out << " (not tainted " << plan.excluded_taints << ")";
  }
  out << "\n"
      << "uses: "
      << (IncludesUnschedulable(params) ? "counted (includeUnschedulableNodes)"
                                        : "schedulable")
      << "\n"
      << "replicas: " << plan.replicas;
  if (plan.bound != PlanBound::kNone) {
    out << " (" << PlanBoundName(plan.bound) << ")";
  }
  out << "\n";
  return out.str();
}

std::string VerticalPlanTableText(const VerticalConfig& config,
                                  const VerticalPlan& plan) {
  std::ostringstream out;
  out << "config: " << DescribeVerticalConfig(config) << "\n"
      << "cluster: 1 to " << plan.rows.size() << " nodes of "
      << FormatCores(plan.cpu_millis_per_node)
      << " cores, every node counted; values as they are written\n\n"
      << std::setw(8) << "nodes" << std::setw(10) << "cores";
  std::vector<size_t> widths;
  for (const VerticalPlanColumn& column : plan.columns) {
    const std::string name = column.ToString();
    widths.push_back(std::max<size_t>(name.size(), 18) + 2);
    out << std::setw(static_cast<int>(widths.back())) << name;
  }
  out << "\n";
  for (const VerticalPlanRow& row : VerticalPlanAnchors(plan)) {
    out << std::setw(8) << row.nodes << std::setw(10) << row.cores;
    for (size_t c = 0; c < row.millis.size(); ++c) {
      out << std::setw(static_cast<int>(widths[c]))
          << ReadableQuantity(row.millis[c], plan.columns[c].resource);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace propscaler

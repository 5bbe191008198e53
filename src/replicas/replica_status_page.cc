#include "replicas/replica_status_page.h"

#include <algorithm>
#include <sstream>

#include "common/markup_escape.h"
#include "replicas/params_svg.h"
#include "runtime/history_chart.h"
#include "runtime/status_html.h"

namespace propscaler {
namespace {

using runtime::Ago;
using runtime::Card;
using runtime::FormatPageTime;

void RenderParams(std::ostringstream& out,
                  const std::map<std::string, std::string>& data) {
  if (data.empty()) {
    out << "<p class=bad>none yet: nothing is scaled</p>";
    return;
  }
  for (const auto& [key, value] : data) {
    out << "<pre>" << EscapeMarkup(key) << ": " << EscapeMarkup(value)
        << "</pre>";
  }
}

void RenderTargets(std::ostringstream& out, const ReplicaStatus& status) {
  out << "<h2>Targets</h2><table><tr><th>target</th><th>desired</th>"
         "<th>current</th><th>state</th></tr>";
  for (const auto& [name, target] : status.targets) {
    out << "<tr><td>" << EscapeMarkup(name)
        << (target.via.empty() ? "" : " (" + EscapeMarkup(target.via) + ")")
        << "</td><td class=num>" << target.desired << "</td><td class=num>"
        << target.current << "</td><td>"
        << (target.error.empty()
                ? std::string("<span class=ok>in sync</span>")
                : "<span class=bad>" + EscapeMarkup(target.error) + "</span>")
        << "</td></tr>";
  }
  out << "</table>";
}

void RenderDecisions(std::ostringstream& out, const ReplicaStatus& status,
                     std::chrono::system_clock::time_point now) {
  out << "<h2>Last decisions</h2>";
  if (status.decisions.empty()) {
    out << "<p>no scaling yet</p>";
    return;
  }
  out << "<table><tr><th>time</th><th>target</th><th>from</th><th>to</th>"
         "<th>nodes</th><th>cores</th><th>cause</th></tr>";
  for (const ScaleDecision& decision : status.decisions) {
    out << "<tr><td>" << FormatPageTime(decision.time) << " ("
        << Ago(decision.time, now) << ")</td><td>"
        << EscapeMarkup(decision.target) << "</td><td class=num>"
        << decision.from << "</td><td class=num>" << decision.to
        << "</td><td class=num>" << decision.counts.schedulable_nodes << "/"
        << decision.counts.total_nodes << "</td><td class=num>"
        << decision.counts.schedulable_cores << "/"
        << decision.counts.total_cores << "</td><td>"
        << EscapeMarkup(decision.cause) << "</td></tr>";
  }
  out << "</table>";
}

void RenderHistory(std::ostringstream& out, const ReplicaStatus& status,
                   std::chrono::system_clock::time_point now) {
  out << "<h2>Over time</h2>";
  runtime::HistoryChart replicas{.title = "Replicas", .marks = true};
  for (const auto& [name, target] : status.targets) {
    replicas.lines.push_back({kReplicasSeries + name, name});
  }
  out << runtime::HistoryChartSvg(status.history, replicas, now)
      << runtime::HistoryChartSvg(
             status.history,
             {.title = "Nodes", .lines = {{"nodes"}, {"schedulable nodes"}}},
             now)
      << runtime::HistoryChartSvg(
             status.history,
             {.title = "Cores", .lines = {{"cores"}, {"schedulable cores"}}},
             now);
}

// The curve at this cluster's cores per node, up to four times its size,
// with the cluster's own point: its counted nodes and the first target's
// desired replicas.
void RenderCurve(std::ostringstream& out, const ReplicaStatus& status) {
  Result<Params> params = ParseParams(status.params_in_force);
  if (!params.ok()) return;
  const bool all = IncludesUnschedulable(*params);
  const ClusterCounts& counts = status.counts;
  const int64_t nodes = all ? counts.total_nodes : counts.schedulable_nodes;
  const int64_t cores = all ? counts.total_cores : counts.schedulable_cores;
  PlanRange range{
      .cpu_millis_per_node =
          nodes > 0 ? std::max<int64_t>(1000, cores * 1000 / nodes) : 4000,
      .max_nodes = std::clamp<int64_t>(4 * nodes, 20, 5000)};
  if (counts.pods && nodes > 0) range.pods_per_node = *counts.pods / nodes;
  std::optional<StepPoint> here;
  if (!status.targets.empty() && status.targets.begin()->second.desired >= 0) {
    here = StepPoint{nodes, status.targets.begin()->second.desired};
  }
  out << "<h2>Where the cluster sits on the params</h2>"
      << PlanSvg(*params, range, PlanCurve(*params, range), here);
}

}  // namespace

std::string RenderReplicaStatusPage(const ReplicaStatus& status,
                                    std::chrono::system_clock::time_point now,
                                    const runtime::PageHead& head) {
  std::ostringstream out;
  runtime::RenderHead(out,
                      "params from configmap " +
                          EscapeMarkup(status.namespace_) + "/" +
                          EscapeMarkup(status.configmap),
                      status.last_cycle, status.last_cycle_error, head);
  out << "<h2>Cluster</h2>";
  Card(out, "nodes", status.counts.total_nodes);
  Card(out, "schedulable nodes", status.counts.schedulable_nodes);
  Card(out, "cores", status.counts.total_cores);
  Card(out, "schedulable cores", status.counts.schedulable_cores);
  RenderTargets(out, status);
  out << "<h2>Params in force</h2>";
  RenderParams(out, status.params_in_force);
  if (!status.rejected_reason.empty()) {
    out << "<h2>Last rejected params</h2><p class=bad>"
        << EscapeMarkup(status.rejected_reason) << "</p>";
    RenderParams(out, status.rejected_params);
  }
  RenderHistory(out, status, now);
  RenderCurve(out, status);
  RenderDecisions(out, status, now);
  runtime::RenderEnd(out);
  return out.str();
}

}  // namespace propscaler

#include "vertical/vertical_status_page.h"

#include <functional>
#include <sstream>

#include "common/markup_escape.h"
#include "common/quantity_format.h"
#include "runtime/history_chart.h"
#include "runtime/status_html.h"

namespace propscaler {
namespace {

using runtime::Ago;
using runtime::Card;
using runtime::FormatPageTime;

std::string CurrentValue(const VerticalStatus& status,
                         const std::string& container, const std::string& side,
                         const std::string& resource) {
  for (const kube::ContainerResources& c : status.current) {
    if (c.name != container) continue;
    const kube::ResourceList& list = side == "limits" ? c.limits : c.requests;
    auto it = list.find(resource);
    return it == list.end() ? "(unset)" : it->second;
  }
  return "(no such container)";
}

// Each configured resource as computed: container, "requests" or
// "limits", resource, value in thousandths.
void ForEachComputed(
    const VerticalStatus& status,
    const std::function<void(const std::string&, const std::string&,
                             const std::string&, int64_t)>& visit) {
  for (const auto& [container, computed] : status.computed) {
    for (const auto& [side, values] :
         {std::pair<std::string, const std::map<std::string, int64_t>*>{
              "requests", &computed.requests},
          {"limits", &computed.limits}}) {
      for (const auto& [resource, millis] : *values) {
        visit(container, side, resource, millis);
      }
    }
  }
}

void RenderComputed(std::ostringstream& out, const VerticalStatus& status) {
  out << "<h2>Containers</h2><table><tr><th>container</th><th>resource</th>"
         "<th>computed</th><th>current</th></tr>";
  ForEachComputed(
      status, [&](const std::string& container, const std::string& side,
                  const std::string& resource, int64_t millis) {
        out << "<tr><td>" << EscapeMarkup(container) << "</td><td>" << side
            << "." << EscapeMarkup(resource) << "</td><td class=num>"
            << FormatMilliQuantity(millis, CpvaFormatOf(resource))
            << "</td><td class=num>"
            << EscapeMarkup(CurrentValue(status, container, side, resource))
            << "</td></tr>";
      });
  out << "</table>";
  for (const std::string& held : status.held) {
    out << "<p>" << EscapeMarkup(held) << "</p>";
  }
}

void RenderResizes(std::ostringstream& out, const VerticalStatus& status,
                   std::chrono::system_clock::time_point now) {
  out << "<h2>Last changes</h2>";
  if (status.decisions.empty()) {
    out << "<p>no change yet</p>";
    return;
  }
  out << "<table><tr><th>time</th><th>changes</th><th>nodes</th>"
         "<th>cores</th><th>cause</th></tr>";
  for (const ResizeDecision& decision : status.decisions) {
    std::string changes =
        decision.pod.empty() ? "" : "pod " + EscapeMarkup(decision.pod) + ":";
    for (const ResourceChange& change : decision.changes) {
      changes +=
          (changes.empty() ? "" : "<br>") + EscapeMarkup(change.ToString());
    }
    out << "<tr><td>" << FormatPageTime(decision.time) << " ("
        << Ago(decision.time, now) << ")</td><td>" << changes
        << "</td><td class=num>" << decision.counts.nodes
        << "</td><td class=num>" << decision.counts.cores << "</td><td>"
        << EscapeMarkup(decision.cause) << "</td></tr>";
  }
  out << "</table>";
}

// Nodes and cores, then one chart per resource with each container's
// requests and limits of it.
void RenderHistory(std::ostringstream& out, const VerticalStatus& status,
                   std::chrono::system_clock::time_point now) {
  out << "<h2>Over time</h2>"
      << runtime::HistoryChartSvg(
             status.history,
             {.title = "Nodes and cores", .lines = {{"nodes"}, {"cores"}}},
             now);
  std::map<std::string, runtime::HistoryChart> by_resource;
  ForEachComputed(
      status, [&](const std::string& container, const std::string& side,
                  const std::string& resource, int64_t) {
        runtime::HistoryChart& chart = by_resource[resource];
        chart.title = resource + " (" + ResourceChartUnit(resource) + ")";
        chart.marks = true;
        chart.lines.push_back({ResourceSeries(container, side, resource)});
      });
  for (const auto& [resource, chart] : by_resource) {
    out << runtime::HistoryChartSvg(status.history, chart, now);
  }
}

}  // namespace

std::string RenderVerticalStatusPage(const VerticalStatus& status,
                                     std::chrono::system_clock::time_point now,
                                     const runtime::PageHead& head) {
  std::ostringstream out;
  runtime::RenderHead(out,
                      "vertical mode: " + EscapeMarkup(status.target) +
                          " in namespace " + EscapeMarkup(status.namespace_),
                      status.last_cycle, status.last_cycle_error, head);
  out << "<h2>Cluster</h2>";
  Card(out, "nodes", status.counts.nodes);
  Card(out, "cores", status.counts.cores);
  out << "<p>counting " << EscapeMarkup(status.counting) << "</p>";
  out << "<h2>Config in force</h2><p>from "
      << EscapeMarkup(status.config_source) << "</p><pre>"
      << EscapeMarkup(status.config_in_force.empty() ? "none yet"
                                                     : status.config_in_force)
      << "</pre>";
  if (!status.config_error.empty()) {
    out << "<p class=bad>" << EscapeMarkup(status.config_error) << "</p>";
  }
  RenderComputed(out, status);
  out << "<p>resizing by " << EscapeMarkup(status.resize_method) << "</p>";
  if (!status.in_place.empty()) {
    out << "<p>in place: " << EscapeMarkup(status.in_place) << "</p>";
  }
  if (!status.in_place_fallback.empty()) {
    out << "<p class=bad>" << EscapeMarkup(status.in_place_fallback) << "</p>";
  }
  RenderHistory(out, status, now);
  RenderResizes(out, status, now);
  runtime::RenderEnd(out);
  return out.str();
}

}  // namespace propscaler

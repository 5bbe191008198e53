#include "nodescale/report/status_page.h"

#include <sstream>
#include <vector>

#include "common/markup_escape.h"
#include "runtime/history_chart.h"
#include "runtime/status_html.h"

namespace propscaler::nodescale {
namespace {

void RenderHistory(std::ostringstream& out, const StatusReport& report) {
  out << "<h2>Over time</h2>"
      << runtime::HistoryChartSvg(report.history,
                                  {.title = "Pending pods",
                                   .lines = {{"pending pods"}},
                                   .marks = true},
                                  report.time)
      << runtime::HistoryChartSvg(report.history,
                                  {.title = "Nodes, all groups",
                                   .lines = {{"target"}, {"ready"}},
                                   .marks = true},
                                  report.time);
  runtime::HistoryChart targets{.title = "Each group: target and nodes",
                                .marks = true};
  for (size_t i = 0; i < report.groups.size() && i < kChartedGroups; ++i) {
    const std::string& name = report.groups[i].name;
    targets.lines.push_back({kGroupTargetSeries + name, name + " target"});
    targets.lines.push_back({kGroupNodesSeries + name, name + " nodes"});
  }
  out << runtime::HistoryChartSvg(report.history, targets, report.time);
  if (report.groups.size() > kChartedGroups) {
    out << "<p>the first " << kChartedGroups << " of " << report.groups.size()
        << " groups are drawn; the others count in the totals</p>";
  }
  if (report.history.marks().empty()) return;
  out << "<h3>Scale-ups and removals</h3><ul>";
  for (auto mark = report.history.marks().rbegin();
       mark != report.history.marks().rend(); ++mark) {
    out << "<li>" << runtime::FormatPageTime(mark->time) << " "
        << EscapeMarkup(mark->label) << "</li>";
  }
  out << "</ul>";
}

}  // namespace

std::string RenderStatusPage(const StatusReport& report,
                             const runtime::PageHead& head) {
  std::ostringstream out;
  runtime::RenderHead(out, "node-scale mode", report.time,
                      report.health == "Healthy" ? "" : report.health, head);
  out << "<h2>Node groups</h2><table><tr><th>group</th><th>min</th>"
         "<th>max</th><th>target</th><th>ready</th><th>unready</th>"
         "<th>not started</th><th>upcoming</th>"
         "<th>backed off until</th></tr>";
  for (const GroupStatus& group : report.groups) {
    out << "<tr><td>" << EscapeMarkup(group.name) << "</td>";
    for (int64_t n : {group.min, group.max, group.target, group.ready,
                      group.unready, group.not_started, group.upcoming}) {
      out << "<td class=num>" << n << "</td>";
    }
    out << "<td>"
        << (group.backoff_until.time_since_epoch().count() == 0
                ? std::string("-")
                : runtime::FormatPageTime(group.backoff_until))
        << "</td></tr>";
  }
  out << "</table><p>last scale-up: " << EscapeMarkup(report.last_scale_up)
      << "<br>last scale-down: " << EscapeMarkup(report.last_scale_down)
      << "</p>";
  RenderHistory(out, report);
  out << "<h2>Disruption</h2>";
  auto list = [&out](const char* title, const std::vector<std::string>& lines) {
    out << "<h3>" << title << "</h3>";
    if (lines.empty()) {
      out << "<p>none</p>";
      return;
    }
    out << "<ul>";
    for (const std::string& line : lines) {
      out << "<li>" << EscapeMarkup(line) << "</li>";
    }
    out << "</ul>";
  };
  list("Commands in flight", report.disruption_commands);
  list("Candidates held back", report.disruption_blocked);
  out << "<h2>CapacityBuffers</h2>";
  list("Buffers", report.buffers);
  if (!report.provisioning_requests.empty()) {
    out << "<h2>ProvisioningRequests</h2>";
    list("Requests", report.provisioning_requests);
  }
  runtime::RenderEnd(out);
  return out.str();
}

}  // namespace propscaler::nodescale

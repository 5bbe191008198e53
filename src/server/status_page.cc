#include "server/status_page.h"

#include <sstream>

#include "common/markup_escape.h"
#include "common/quantity_format.h"
#include "common/utc_time.h"

namespace propscaler {
namespace {

constexpr char kStyle[] = R"(
body{font-family:system-ui,sans-serif;margin:2em;color:#1b1f24;background:#fafbfc}
h1{font-size:1.4em;margin-bottom:0}
.sub{color:#57606a;margin-top:.2em}
h2{font-size:1.1em;margin-top:1.6em}
table{border-collapse:collapse;min-width:28em}
th,td{border:1px solid #d0d7de;padding:.35em .7em;text-align:left}
th{background:#eef1f4}
td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #d0d7de;padding:.6em;white-space:pre-wrap}
.ok{color:#1a7f37}.bad{color:#cf222e}
.card{display:inline-block;border:1px solid #d0d7de;background:#fff;padding:.6em 1em;margin:.3em .6em .3em 0;border-radius:6px}
.card b{font-size:1.5em;display:block}
)";

std::string FormatTime(std::chrono::system_clock::time_point time) {
  if (time.time_since_epoch().count() == 0) return "never";
  return FormatUtc(time, "%Y-%m-%d %H:%M:%S UTC");
}

std::string Ago(std::chrono::system_clock::time_point time,
                std::chrono::system_clock::time_point now) {
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(now - time).count();
  return std::to_string(seconds) + "s ago";
}

void Card(std::ostringstream& out, const std::string& label, int64_t value) {
  out << "<div class=card><b>" << value << "</b>" << EscapeMarkup(label)
      << "</div>";
}

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
    out << "<tr><td>" << EscapeMarkup(name) << "</td><td class=num>"
        << target.desired << "</td><td class=num>" << target.current
        << "</td><td>"
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
    out << "<tr><td>" << FormatTime(decision.time) << " ("
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

std::string DescribeLeader(const kube::LeaderView& leader) {
  const std::string lease = " (lease " + EscapeMarkup(leader.lease) + ")";
  if (leader.leader) return "<span class=ok>leader</span>" + lease;
  return "standby: " +
         (leader.holder.empty() ? std::string("no leader yet")
                                : EscapeMarkup(leader.holder) + " leads") +
         lease;
}

void RenderHead(std::ostringstream& out, const std::string& subtitle,
                std::chrono::system_clock::time_point last_cycle,
                const std::string& last_error,
                const std::optional<kube::LeaderView>& leader) {
  out << "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
         "<meta http-equiv=refresh content=5>"
         "<title>propscaler status</title><style>"
      << kStyle << "</style></head><body><h1>propscaler</h1><p class=sub>"
      << subtitle << " &middot; last cycle " << FormatTime(last_cycle) << " "
      << (last_error.empty() ? std::string("<span class=ok>ok</span>")
                             : "<span class=bad>failed: " +
                                   EscapeMarkup(last_error) + "</span>");
  if (leader.has_value()) {
    out << "<br>" << DescribeLeader(*leader) << " &middot; this replica "
        << EscapeMarkup(leader->identity);
  }
  out << "</p>";
}

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

void RenderComputed(std::ostringstream& out, const VerticalStatus& status) {
  out << "<h2>Containers</h2><table><tr><th>container</th><th>resource</th>"
         "<th>computed</th><th>current</th></tr>";
  for (const auto& [container, computed] : status.computed) {
    for (const auto& [side, values] :
         {std::pair<std::string, const std::map<std::string, int64_t>*>{
              "requests", &computed.requests},
          {"limits", &computed.limits}}) {
      for (const auto& [resource, millis] : *values) {
        out << "<tr><td>" << EscapeMarkup(container) << "</td><td>" << side
            << "." << EscapeMarkup(resource) << "</td><td class=num>"
            << FormatMilliQuantity(millis, CpvaFormatOf(resource))
            << "</td><td class=num>"
            << EscapeMarkup(CurrentValue(status, container, side, resource))
            << "</td></tr>";
      }
    }
  }
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
    std::string changes;
    for (const ResourceChange& change : decision.changes) {
      changes +=
          (changes.empty() ? "" : "<br>") + EscapeMarkup(change.ToString());
    }
    out << "<tr><td>" << FormatTime(decision.time) << " ("
        << Ago(decision.time, now) << ")</td><td>" << changes
        << "</td><td class=num>" << decision.counts.nodes
        << "</td><td class=num>" << decision.counts.cores << "</td><td>"
        << EscapeMarkup(decision.cause) << "</td></tr>";
  }
  out << "</table>";
}

}  // namespace

std::string RenderVerticalStatusPage(
    const VerticalStatus& status, std::chrono::system_clock::time_point now,
    const std::optional<kube::LeaderView>& leader) {
  std::ostringstream out;
  RenderHead(out,
             "vertical mode: " + EscapeMarkup(status.target) +
                 " in namespace " + EscapeMarkup(status.namespace_),
             status.last_cycle, status.last_cycle_error, leader);
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
  RenderResizes(out, status, now);
  out << "</body></html>\n";
  return out.str();
}

std::string RenderNodeScaleStatusPage(
    const nodescale::StatusReport& report,
    const std::optional<kube::LeaderView>& leader) {
  std::ostringstream out;
  RenderHead(out, "node-scale mode", report.time,
             report.health == "Healthy" ? "" : report.health, leader);
  out << "<h2>Node groups</h2><table><tr><th>group</th><th>min</th>"
         "<th>max</th><th>target</th><th>ready</th><th>upcoming</th>"
         "<th>backed off until</th></tr>";
  for (const nodescale::GroupStatus& group : report.groups) {
    out << "<tr><td>" << EscapeMarkup(group.name) << "</td>";
    for (int64_t n :
         {group.min, group.max, group.target, group.ready, group.upcoming}) {
      out << "<td class=num>" << n << "</td>";
    }
    out << "<td>"
        << (group.backoff_until.time_since_epoch().count() == 0
                ? std::string("-")
                : FormatTime(group.backoff_until))
        << "</td></tr>";
  }
  out << "</table><p>last scale-up: " << EscapeMarkup(report.last_scale_up)
      << "<br>last scale-down: " << EscapeMarkup(report.last_scale_down)
      << "</p><h2>Disruption</h2>";
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
  out << "</body></html>\n";
  return out.str();
}

std::string RenderStatusPage(const ReplicaStatus& status,
                             std::chrono::system_clock::time_point now,
                             const std::optional<kube::LeaderView>& leader) {
  std::ostringstream out;
  RenderHead(out,
             "params from configmap " + EscapeMarkup(status.namespace_) + "/" +
                 EscapeMarkup(status.configmap),
             status.last_cycle, status.last_cycle_error, leader);
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
  RenderDecisions(out, status, now);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace propscaler

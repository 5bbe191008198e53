#include "runtime/status_html.h"

#include "common/markup_escape.h"
#include "common/utc_time.h"

namespace propscaler::runtime {
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
.ok{color:#1a7f37}.bad{color:#cf222e}.wait{color:#9a6700;background:#fff8c5;padding:0 .3em;border-radius:4px}
.card{display:inline-block;border:1px solid #d0d7de;background:#fff;padding:.6em 1em;margin:.3em .6em .3em 0;border-radius:6px}
.card b{font-size:1.5em;display:block}
)";

std::string DescribeLeader(const kube::LeaderView& leader) {
  const std::string lease = " (lease " + EscapeMarkup(leader.lease) + ")";
  if (leader.leader) return "<span class=ok>leader</span>" + lease;
  return "standby: " +
         (leader.holder.empty() ? std::string("no leader yet")
                                : EscapeMarkup(leader.holder) + " leads") +
         lease;
}

std::string DescribeOutcome(const std::string& last_error,
                            const std::string& waiting) {
  if (!waiting.empty()) {
    return "<span class=wait>waiting: " + EscapeMarkup(waiting) + "</span>";
  }
  if (last_error.empty()) return "<span class=ok>ok</span>";
  return "<span class=bad>failed: " + EscapeMarkup(last_error) + "</span>";
}

}  // namespace

std::string FormatPageTime(std::chrono::system_clock::time_point time) {
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

void RenderHead(std::ostringstream& out, const std::string& subtitle,
                std::chrono::system_clock::time_point last_cycle,
                const std::string& last_error, const PageHead& head) {
  out << "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
         "<meta http-equiv=refresh content=5>"
         "<title>propscaler status</title><style>"
      << kStyle << "</style></head><body><h1>propscaler</h1><p class=sub>"
      << subtitle << " &middot; last cycle " << FormatPageTime(last_cycle)
      << " " << DescribeOutcome(last_error, head.waiting);
  if (!head.degraded.empty()) {
    out << "<br><span class=wait>degraded: " << EscapeMarkup(head.degraded)
        << "</span>";
  }
  if (head.leader.has_value()) {
    out << "<br>" << DescribeLeader(*head.leader) << " &middot; this replica "
        << EscapeMarkup(head.leader->identity);
  }
  out << "</p>";
}

void RenderEnd(std::ostringstream& out) { out << "</body></html>\n"; }

}  // namespace propscaler::runtime

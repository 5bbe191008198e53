// The pieces every mode's /status page is made of: the page's head (title,
// the last cycle's outcome, who leads), its end, the time formats and the
// number cards. Each mode renders its own page with them (replicas/,
// vertical/, nodescale/run/); server/ only serves what app/ hands it.
#ifndef PROPSCALER_RUNTIME_STATUS_HTML_H_
#define PROPSCALER_RUNTIME_STATUS_HTML_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "kube/controllers/leader_election.h"

namespace propscaler::runtime {

// "2026-11-27 17:59:33 UTC", or "never" for the epoch.
std::string FormatPageTime(std::chrono::system_clock::time_point time);
// "12s ago".
std::string Ago(std::chrono::system_clock::time_point time,
                std::chrono::system_clock::time_point now);
// A number with its label, in a card.
void Card(std::ostringstream& out, const std::string& label, int64_t value);

// What every mode's page heads with besides its own numbers: who leads
// (when leader election is on) and what the loop waits for (empty: it
// cycles; HealthState::Waiting).
struct PageHead {
  std::optional<kube::LeaderView> leader;
  std::string waiting;
  std::string degraded;  // what the loop serves without (HealthState)
};

// The document's start up to the subtitle line (`subtitle` is markup), which
// says when the last cycle ran and how it ended: ok (green), failed (red,
// `last_error`), or, while `head.waiting` says so, waiting (amber) with the
// reason; and who leads.
void RenderHead(std::ostringstream& out, const std::string& subtitle,
                std::chrono::system_clock::time_point last_cycle,
                const std::string& last_error, const PageHead& head);
void RenderEnd(std::ostringstream& out);

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_STATUS_HTML_H_

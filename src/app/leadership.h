// A mode's leader election as its loop and /status see it: the elector when
// election is on (run beside the loop by app/loop_runner.h), whether this
// process may act now (always, without election) and who leads.
#ifndef PROPSCALER_APP_LEADERSHIP_H_
#define PROPSCALER_APP_LEADERSHIP_H_

#include <functional>
#include <optional>

#include "app/leader_election_flags.h"
#include "common/clock.h"
#include "kube/client/client.h"
#include "kube/controllers/leader_election.h"

namespace propscaler {

class Leadership {
 public:
  Leadership(const kube::LeaseClient* api, const Clock* clock,
             const LeaderElectionSettings& settings) {
    if (settings.enabled) elector_.emplace(api, settings.config, clock);
  }

  bool MayAct() const { return !elector_ || elector_->IsLeader(); }
  std::function<bool()> MayActFunction() const {
    return [this] { return MayAct(); };
  }
  // Null without election.
  kube::LeaderElector* elector() { return elector_ ? &*elector_ : nullptr; }
  // Nullopt without election.
  std::optional<kube::LeaderView> View() const {
    if (!elector_) return std::nullopt;
    return elector_->View();
  }

 private:
  std::optional<kube::LeaderElector> elector_;
};

}  // namespace propscaler

#endif  // PROPSCALER_APP_LEADERSHIP_H_

#include "replicas/target_scales.h"

namespace propscaler {

TargetScales::TargetScales(const kube::ScaleClient* client, const Clock* clock,
                           std::string ns,
                           const std::vector<kube::ScaleTarget>& targets,
                           OnChange on_change) {
  for (const kube::ScaleTarget& target : targets) {
    runtime::WatchedObject<kube::Scale>::Options options{
        .name = target.name,
        .what = target.ToString() + " in namespace " + ns,
        .grant_hint = "Grant list and watch on the " + target.ApiKind() +
                      " to undo other writers' changes within a second and "
                      "read nothing at rest",
        .changed_cause = "replicas of " + target.ToString() + " changed",
        .differs =
            [](const kube::Scale& before, const kube::Scale& after) {
              return before.spec_replicas != after.spec_replicas;
            },
    };
    watched_[target.ToString()] =
        std::make_unique<runtime::WatchedObject<kube::Scale>>(
            clock, client->TargetNamed(ns, target),
            [client, ns, target] { return client->GetScale(ns, target); },
            std::move(options), on_change);
  }
}

void TargetScales::Start(StopSignal* stop) {
  for (auto& [key, watched] : watched_) watched->Start(stop);
}

void TargetScales::Join() {
  for (auto& [key, watched] : watched_) watched->Join();
}

runtime::WatchedObject<kube::Scale>& TargetScales::Of(
    const kube::ScaleTarget& target) {
  return *watched_.at(target.ToString());
}

Result<kube::Scale> TargetScales::Read(const kube::ScaleTarget& target) {
  return Of(target).Read();
}

Result<kube::Scale> TargetScales::ReadFresh(const kube::ScaleTarget& target) {
  return Of(target).ReadFresh();
}

void TargetScales::Wrote(const kube::ScaleTarget& target,
                         const kube::Scale& written) {
  Of(target).Wrote(written);
}

}  // namespace propscaler

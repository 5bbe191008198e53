#include "replicas/target_scales.h"

namespace propscaler {

TargetScales::TargetScales(const kube::ScaleClient* client, const Clock* clock,
                           std::string ns,
                           const std::vector<kube::ScaleTarget>& targets,
                           SelectedTargetStore* selected, OnChange on_change)
    : client_(client), namespace_(ns), named_(targets), selected_(selected) {
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

std::vector<kube::ScaleTarget> TargetScales::Targets() const {
  std::vector<kube::ScaleTarget> targets = named_;
  if (selected_ == nullptr) return targets;
  for (kube::ScaleTarget& target : selected_->Targets()) {
    if (watched_.count(target.ToString()) == 0) {
      targets.push_back(std::move(target));
    }
  }
  return targets;
}

runtime::WatchedObject<kube::Scale>* TargetScales::Of(
    const kube::ScaleTarget& target) {
  auto it = watched_.find(target.ToString());
  return it == watched_.end() ? nullptr : it->second.get();
}

Result<kube::Scale> TargetScales::Read(const kube::ScaleTarget& target) {
  if (auto* watched = Of(target)) return watched->Read();
  std::optional<kube::Scale> selected =
      selected_ != nullptr ? selected_->Read(target.name) : std::nullopt;
  if (!selected.has_value()) {
    return Status::NotFound(target.ToString() + " in namespace " + namespace_ +
                            " is no longer selected by --target-selector");
  }
  return *selected;
}

Result<kube::Scale> TargetScales::ReadFresh(const kube::ScaleTarget& target) {
  if (auto* watched = Of(target)) return watched->ReadFresh();
  return client_->GetScale(namespace_, target);
}

void TargetScales::Wrote(const kube::ScaleTarget& target,
                         const kube::Scale& written) {
  if (auto* watched = Of(target)) {
    watched->Wrote(written);
  } else if (selected_ != nullptr) {
    selected_->Wrote(written);
  }
}

}  // namespace propscaler

#include "replicas/selected_target_store.h"

#include <utility>

#include "kube/model/resource_version.h"

namespace propscaler {
namespace {

std::string JoinCauses(const std::vector<std::string>& causes) {
  std::string joined;
  for (const std::string& cause : causes) {
    joined += (joined.empty() ? "" : "; ") + cause;
  }
  return joined;
}

}  // namespace

SelectedTargetStore::SelectedTargetStore(kube::TargetSelector selector)
    : selector_(std::move(selector)) {}

std::string SelectedTargetStore::Ref(const std::string& name) const {
  return selector_.Named(name).ToString();
}

std::vector<kube::ScaleTarget> SelectedTargetStore::Targets() const {
  MutexLock lock(&mutex_);
  std::vector<kube::ScaleTarget> targets;
  for (const auto& [name, scale] : selected_) {
    targets.push_back(selector_.Named(name));
  }
  return targets;
}

std::optional<kube::Scale> SelectedTargetStore::Read(
    const std::string& name) const {
  MutexLock lock(&mutex_);
  auto it = selected_.find(name);
  if (it == selected_.end()) return std::nullopt;
  return it->second;
}

void SelectedTargetStore::Wrote(const kube::Scale& written) {
  MutexLock lock(&mutex_);
  auto it = selected_.find(written.name);
  if (it == selected_.end()) return;
  if (kube::CompareResourceVersions(written.resource_version,
                                    it->second.resource_version) ==
      kube::VersionOrder::kNewer) {
    it->second = written;
  }
}

std::string SelectedTargetStore::Replace(std::vector<kube::Scale> items) {
  std::map<std::string, kube::Scale> listed;
  for (kube::Scale& item : items) listed[item.name] = std::move(item);
  MutexLock lock(&mutex_);
  std::vector<std::string> causes;
  for (const auto& [name, scale] : listed) {
    auto known = selected_.find(name);
    if (known == selected_.end()) {
      causes.push_back(Ref(name) + " selected by --target-selector");
    } else if (known->second.spec_replicas != scale.spec_replicas) {
      causes.push_back("replicas of " + Ref(name) + " changed");
    }
  }
  for (const auto& [name, scale] : selected_) {
    if (listed.count(name) == 0)
      causes.push_back(Ref(name) + " gone or no longer selected");
  }
  selected_ = std::move(listed);
  return JoinCauses(causes);
}

std::string SelectedTargetStore::Upsert(const kube::Scale& item) {
  MutexLock lock(&mutex_);
  auto known = selected_.find(item.name);
  if (known == selected_.end()) {
    selected_[item.name] = item;
    return Ref(item.name) + " selected by --target-selector";
  }
  if (kube::CompareResourceVersions(item.resource_version,
                                    known->second.resource_version) ==
      kube::VersionOrder::kOlder) {
    return "";  // the copy is newer already (a write's answer)
  }
  const bool changed = known->second.spec_replicas != item.spec_replicas;
  known->second = item;
  return changed ? "replicas of " + Ref(item.name) + " changed" : "";
}

std::string SelectedTargetStore::Remove(const kube::Scale& item) {
  MutexLock lock(&mutex_);
  if (selected_.erase(item.name) == 0) return "";
  return Ref(item.name) + " gone or no longer selected";
}

kube::ReflectorSink<kube::Scale> SelectedTargetStore::Sink(OnChange on_change) {
  auto notify = [on_change](const std::string& cause) {
    if (!cause.empty()) on_change(cause);
  };
  return {[this, notify](std::vector<kube::Scale> items) {
            notify(Replace(std::move(items)));
          },
          [this, notify](const kube::Scale& item) { notify(Upsert(item)); },
          [this, notify](const kube::Scale& item) { notify(Remove(item)); }};
}

}  // namespace propscaler

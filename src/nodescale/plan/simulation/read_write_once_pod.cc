#include "nodescale/plan/simulation/read_write_once_pod.h"

#include <algorithm>
#include <map>

#include "nodescale/plan/simulation/volume_needs.h"

namespace propscaler::nodescale {
ClaimKeys ReadWriteOncePodClaims(const kube::VolumeObjects& objects) {
  ClaimKeys out;
  for (const auto& [key, claim] : objects.claims) {
    if (std::ranges::find(claim->access_modes, kReadWriteOncePod) !=
        claim->access_modes.end()) {
      out.insert(key);
    }
  }
  return out;
}

int64_t MarkReadWriteOncePodConflicts(const ClaimKeys& claims, PodList* pods) {
  if (claims.empty()) return 0;
  std::map<std::string, std::string, std::less<>> user_of;  // claim -> pod
  for (const PodState& pod : *pods) {
    if (pod.node_name.empty() || pod.terminated) continue;
    for (const kube::PodClaim& claim : pod.claims) {
      std::string key = kube::ClaimKeyOf(pod, claim);
      if (claims.contains(key)) user_of.emplace(std::move(key), pod.Key());
    }
  }
  if (user_of.empty()) return 0;
  int64_t newly_nowhere = 0;
  for (size_t i = 0; i < pods->size(); ++i) {
    const PodState& pod = (*pods)[i];
    if (!IsPending(pod)) continue;
    for (const kube::PodClaim& claim : pod.claims) {
      auto user = user_of.find(kube::ClaimKeyOf(pod, claim));
      if (user == user_of.end()) continue;
      newly_nowhere += FitsNowhere(pod) ? 0 : 1;
      std::vector<kube::VolumeNeed> needs = pod.volume_needs.get();
      needs.push_back(
          {"node has pod using PersistentVolumeClaim with the same name and "
           "ReadWriteOncePod access mode",
           {},
           "claim \"" + kube::ClaimNameOf(pod, claim) + "\", used by pod \"" +
               user->second + "\""});
      pods->Mutable(i).volume_needs = std::move(needs);
      break;
    }
  }
  return newly_nowhere;
}

}  // namespace propscaler::nodescale

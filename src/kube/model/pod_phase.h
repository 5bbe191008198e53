// A Pod's status.phase, in one byte: the live store keeps it for each pod
// (Karpenter's pods_state labels pods by it).
#ifndef PROPSCALER_KUBE_MODEL_POD_PHASE_H_
#define PROPSCALER_KUBE_MODEL_POD_PHASE_H_

#include <cstdint>
#include <string_view>

namespace propscaler::kube {

// kUnset: the status names none (a pod just created); a phase the API does
// not define reads as kUnknown.
enum class PodPhase : uint8_t {
  kUnset,
  kPending,
  kRunning,
  kSucceeded,
  kFailed,
  kUnknown,
};

PodPhase ParsePodPhase(std::string_view phase);
// As the API spells it ("Running"); "" for kUnset.
std::string_view PodPhaseName(PodPhase phase);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_POD_PHASE_H_

#include "kube/model/pod_phase.h"

#include <array>
#include <utility>

namespace propscaler::kube {
namespace {

constexpr std::array<std::pair<PodPhase, std::string_view>, 6> kNames = {{
    {PodPhase::kUnset, ""},
    {PodPhase::kPending, "Pending"},
    {PodPhase::kRunning, "Running"},
    {PodPhase::kSucceeded, "Succeeded"},
    {PodPhase::kFailed, "Failed"},
    {PodPhase::kUnknown, "Unknown"},
}};

}  // namespace

PodPhase ParsePodPhase(std::string_view phase) {
  for (const auto& [value, name] : kNames) {
    if (name == phase) return value;
  }
  return PodPhase::kUnknown;
}

std::string_view PodPhaseName(PodPhase phase) {
  for (const auto& [value, name] : kNames) {
    if (value == phase) return name;
  }
  return "Unknown";
}

}  // namespace propscaler::kube

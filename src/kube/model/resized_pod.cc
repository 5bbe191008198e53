#include "kube/model/resized_pod.h"

namespace propscaler::kube {

const char* ResizeStateName(ResizeState state) {
  switch (state) {
    case ResizeState::kNone:
      return "None";
    case ResizeState::kInProgress:
      return "InProgress";
    case ResizeState::kDeferred:
      return "Deferred";
    case ResizeState::kInfeasible:
      return "Infeasible";
    case ResizeState::kError:
      return "Error";
    case ResizeState::kRefused:
      return "Refused";
  }
  return "None";
}

}  // namespace propscaler::kube

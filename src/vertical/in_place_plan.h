// What in-place resize does next (--resize=in-place), given what the
// arithmetic computed and the target's pods. Pure.
//
// Pods are resized one at a time, by name: while one pod's resize is under
// way (accepted but not yet applied by its kubelet) nothing else starts.
// A pod whose resize the kubelet put off (Deferred), cannot fit on its node
// (Infeasible) or failed (Error), or the API server refused (Refused, set
// by the caller), stops the walk: the caller falls back to
// replacing pods. Otherwise the first pod whose resources moved beyond the
// threshold (vertical/resize_plan.h, the same rules as the template) is
// resized. Terminating and finished pods are left alone.
#ifndef PROPSCALER_VERTICAL_IN_PLACE_PLAN_H_
#define PROPSCALER_VERTICAL_IN_PLACE_PLAN_H_

#include <map>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kube/model/resized_pod.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_arithmetic.h"

namespace propscaler {

struct InPlacePlan {
  enum class Step {
    kNothing,   // every pod is sized (or its change is held)
    kWait,      // a pod's resize is under way
    kResize,    // resize `pod` with `changes`
    kFallBack,  // `pod`'s resize was refused or put off: replace pods
  };
  Step step = Step::kNothing;
  std::string pod;                      // kWait, kResize, kFallBack
  std::string uid;                      // kResize
  std::string resource_version;         // kResize: as read
  std::vector<ResourceChange> changes;  // kResize
  kube::ResizeState state = kube::ResizeState::kNone;  // kFallBack
  std::string message;  // kFallBack: the kubelet's words, if any
  // Pods with a change to make, the one resized now included.
  int pods_to_resize = 0;
  std::vector<std::string> held;  // decreases waiting, once each
  DecreaseHistory history;
};

InPlacePlan PlanInPlace(
    const std::map<std::string, ComputedResources>& computed,
    const std::vector<kube::ResizedPod>& pods, const ResizePolicy& policy,
    const DecreaseHistory& history, TimePoint now);

// Whether the kubelet has yet to apply what `pod`'s spec asks: a resize in
// progress, a spec generation the kubelet has not observed (1.34+), or,
// where generations are not reported, a resource `computed` names whose
// applied value differs from the asked one by more than 1% (a resource it
// does not report counts as applied).
bool ResizeUnderWay(const kube::ResizedPod& pod,
                    const std::map<std::string, ComputedResources>& computed);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_IN_PLACE_PLAN_H_

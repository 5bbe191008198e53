// Equivalence classes of pods: pods with the same scheduling-relevant spec
// (namespace, requests, labels, node selector and affinity, tolerations,
// pod affinity and anti-affinity, spreads, host ports, volumes) fit the
// same nodes, so predicates are checked once per class rather than once
// per pod, as CA's equivalence groups do. Pods of one controller are one
// class as far as their specs are alike; so are alike pods of no
// controller (CA makes each its own). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_POD_CLASSES_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_POD_CLASSES_H_

#include <cstddef>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct PodClass {
  const PodState* representative = nullptr;
  std::vector<size_t> members;  // indices into the input, ascending
};

struct PodClasses {
  std::vector<PodClass> classes;
  std::vector<size_t> class_of;  // per input pod
};

// Classes in order of their first member.
PodClasses ClassifyPods(const std::vector<const PodState*>& pods);

bool SameSchedulingSpec(const PodState& a, const PodState& b);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_POD_CLASSES_H_

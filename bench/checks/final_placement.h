// What the plan checks judge over a plan's final placement: the nodes it
// leaves (the existing ones, then its new ones) and where each pod ends up,
// and the constraints between pods that hold whatever order the pods
// landed in. Pure.
#ifndef PROPSCALER_BENCH_CHECKS_FINAL_PLACEMENT_H_
#define PROPSCALER_BENCH_CHECKS_FINAL_PLACEMENT_H_

#include <cstddef>
#include <string>
#include <vector>

#include "checks/plan_checks.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::bench {

inline constexpr size_t kNone = static_cast<size_t>(-1);

// The nodes a plan leaves, each with its labels and, for the hostname, its
// own name; and each snapshot pod's node (kNone: on none the plan names).
struct Hosts {
  std::vector<const Labels*> labels;
  std::vector<std::string> names;
  std::vector<size_t> of_pod;

  std::string DomainOf(size_t host, const std::string& key) const;
  // Adds a node; its index.
  size_t Add(const Labels* node_labels, std::string name);
};

// The existing nodes, and the pods bound to them.
Hosts ExistingHosts(const nodescale::ClusterSnapshot& snapshot);

// Required pod anti-affinity: no other pod its term selects in its domain
// (the other way round is the other pod's own check, or a term of a pod
// that selects it). Pods on no node are not judged.
void CheckAntiAffinities(const nodescale::ClusterSnapshot& snapshot,
                         const Hosts& hosts, Failures* failures);

// Required pod affinity of the pods `planned` says the plan placed (on
// a node of `hosts`), judged whatever order they landed in: a pod lands
// where a pod its term selects already is, unless none is anywhere and the
// term selects the pod itself. So each term's holders are in domains with
// a selected pod that is bound or planned without the term, and in at most
// one domain besides (the first holder's) when no selected pod is bound
// and the term selects its holders. A term that selects a planned pod on
// no known node is not judged.
void CheckAffinitiesAtTheEnd(const nodescale::ClusterSnapshot& snapshot,
                             const Hosts& hosts,
                             const std::vector<bool>& planned,
                             Failures* failures);

// Whether `pod` is selected by a term of `owner`'s (its namespaces, or the
// owner's namespace when it names none).
bool TermSelects(const LabelSelector& selector,
                 const std::vector<std::string>& namespaces,
                 const nodescale::PodState& pod,
                 const nodescale::PodState& owner);

// One term's identity: its key, selector and namespaces (the owner's when
// it names none).
std::string TermId(const nodescale::PodState& owner,
                   const nodescale::PodAffinityTerm& t);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_CHECKS_FINAL_PLACEMENT_H_

// What one NodePool can make from the catalogue: each instance type,
// offering and choice of the type's multi-valued labels its requirements
// admit (a candidate), with the labels a node of it would carry and the
// room it leaves pods once its DaemonSets run. Sets of candidates that
// admit a pod, or have a label value, are built once and kept, so a claim
// narrows by intersecting them. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_POOL_CATALOGUE_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_POOL_CATALOGUE_H_

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "nodescale/domain/instance_type.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/claims/candidate_set.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// The label Karpenter puts on a node naming its NodePool.
inline constexpr std::string_view kNodePoolLabel = "karpenter.sh/nodepool";

struct PoolCandidate {
  size_t instance_type = 0;  // into the catalogue
  size_t offering = 0;       // into its offerings
  Labels labels;             // the pool's, the type's, the offering's
  Resources capacity;
  Resources free;  // allocatable less the requests of its DaemonSets' pods
  double price = 0;
  bool available = true;
};

class PoolCatalogue {
 public:
  PoolCatalogue(const NodePoolSpec& pool,
                const std::vector<InstanceType>& catalogue,
                const std::vector<const PodState*>& daemonset_pods);

  const NodePoolSpec& pool() const { return *pool_; }
  const std::vector<PoolCandidate>& candidates() const { return candidates_; }
  // Every available candidate.
  const CandidateSet& available() const { return available_; }

  // The candidates whose labels and the pool's taints admit `pod`: node
  // selector, required node affinity, taints, volume needs. Kept per the
  // pod's (interned) constraints.
  const CandidateSet& Admitting(const PodState& pod);
  // Why no candidate admits `pod`, in kube-scheduler's words for the first
  // candidate.
  std::string WhyNotAdmitted(const PodState& pod) const;
  // The candidates labelled key=value.
  const CandidateSet& WithValue(const std::string& key,
                                const std::string& value);
  // The values of `key` the candidates have (sorted).
  std::vector<std::string> ValuesOf(const std::string& key) const;

 private:
  void AddCandidates(const std::vector<InstanceType>& catalogue,
                     const std::vector<const PodState*>& daemonset_pods);

  const NodePoolSpec* pool_;
  std::vector<PoolCandidate> candidates_;
  CandidateSet available_;
  using ConstraintKey =
      std::tuple<const void*, const void*, const void*, const void*>;
  std::map<ConstraintKey, CandidateSet> admitting_;
  std::map<std::pair<std::string, std::string>, CandidateSet, std::less<>>
      with_value_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_POOL_CATALOGUE_H_

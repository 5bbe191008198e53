// Karpenter's way of scheduling pending pods over NodePools and an
// instance-type catalogue: pods in order of cpu, then memory, most first;
// each tries the nodes that exist, then the claims planned so far (fewest
// pods first), then a new claim from each NodePool, heaviest first. A claim
// keeps every candidate (instance type x offering) still compatible with
// its pods and narrows as pods land; it launches as the cheapest available
// candidate left. A pod that fits nowhere is tried again while others
// still land (its affinity may need them). Of a pod's required node terms
// the first applies, and its preferences are required, until it fits
// nowhere: then one is dropped at a time (preferences.h). NodePool limits count
// the largest candidate of each claim. Pure: plain data in, plain data out.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_SCHEDULER_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_SCHEDULER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nodescale/domain/instance_type.h"
#include "nodescale/domain/node_pool_spec.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

struct ClaimSchedulingInput {
  const ClusterSnapshot* snapshot = nullptr;  // pending pods are placed
  const std::vector<NodePoolSpec>* pools = nullptr;
  const std::vector<InstanceType>* catalogue = nullptr;
};

struct PlannedClaim {
  std::string name;  // "<pool>-<n>", n from 1 in the order claims open
  size_t pool = 0;   // into the pools
  // What it launches as: the cheapest available candidate left.
  size_t instance_type = 0;  // into the catalogue
  size_t offering = 0;       // into its offerings
  Labels labels;             // the node's (the pool's, type's, offering's)
  double price = 0;
  int64_t compatible_instance_types = 0;  // types it could still be
  std::vector<size_t> pods;               // into snapshot->pods
  Resources requests;                     // of its pods
};

struct ExistingPlacement {
  size_t node = 0;  // into snapshot->nodes
  std::vector<size_t> pods;
};

struct UnplacedPod {
  size_t pod = 0;
  // Why each NodePool cannot take it (none without a NodePool).
  std::map<std::string, std::string> reasons;
};

// A preference a pod was planned without: it fit nowhere with it.
struct Relaxation {
  size_t pod = 0;       // into snapshot->pods
  std::string dropped;  // "preferred pod anti-affinity term of weight 50"
};

struct ClaimPlan {
  std::vector<PlannedClaim> claims;
  std::vector<ExistingPlacement> existing_nodes;  // by node, ascending
  std::vector<size_t> placement_order;            // every placed pod once
  std::vector<UnplacedPod> unschedulable;         // in pod order
  std::vector<Relaxation> relaxed;                // in the order dropped
};

ClaimPlan ScheduleClaims(const ClaimSchedulingInput& input);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_SCHEDULER_H_

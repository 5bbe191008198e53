// Constraints between pods across nodes, as kube-scheduler's InterPodAffinity
// and PodTopologySpread filters check them: required pod affinity and
// anti-affinity on any topology key (both ways: an existing pod's
// anti-affinity keeps a matching pod out of its domain), and
// topologySpreadConstraints with DoNotSchedule (maxSkew against the fewest
// matching pods in any eligible domain; minDomains). Nodes (existing,
// upcoming or simulated) and the pods placed on them change as a plan goes,
// so placements made in one pass are accounted for. Pure.
//
// A topology domain is a value of the key's label; for
// kubernetes.io/hostname it is the node itself, whatever its label says, so
// that simulated nodes made from one template are apart. A node without the
// key is in no domain of it.
#ifndef PROPSCALER_NODESCALE_PLAN_SIMULATION_TOPOLOGY_H_
#define PROPSCALER_NODESCALE_PLAN_SIMULATION_TOPOLOGY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/frozen.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

// Whether a pod has constraints beyond its own node: affinity or spread,
// or anti-affinity on a key other than the hostname.
bool HasTopologyConstraints(const PodState& pod);
// Whether a pod has constraints between pods of any kind (hostname
// anti-affinity included).
bool HasInterPodConstraints(const PodState& pod);
// Whether any pod has: without any, a Topology can never say no and need
// not be kept.
bool AnyInterPodConstraints(const PodList& pods);

class Topology {
 public:
  // Adds a node; returns its index. `labels` must outlive this.
  size_t AddNode(const Labels* labels);
  // Takes back the last node added, which must have no pods.
  void RemoveLastNode();
  // Takes a node out of every domain (a node being removed), or back in.
  void SetNodeGone(size_t node, bool gone);
  size_t node_count() const { return nodes_.size(); }

  void Place(const PodState& pod, size_t node);
  void Remove(const PodState& pod, size_t node);

  // Whether the constraints allow `pod` on `node`, given what is placed.
  bool Allows(const PodState& pod, size_t node) const;
  // Whether Allows() can say no for `pod`: it has constraints, or a placed
  // pod has anti-affinity.
  bool Matters(const PodState& pod) const;

  // Registers the terms of the pods' constraints now (counting the pods
  // placed so far) and which terms select each pod, so that the estimates
  // placing into this topology find them there instead of each pod's first
  // check or placement finding them. Allows() and Place() find them anyway.
  void Prepare(const std::vector<const PodState*>& pods) const;

 private:
  // A topology key the terms use, and its domains: for the hostname, the
  // nodes themselves (a domain id is the node's index); for any other key,
  // its label values, numbered as they are first seen.
  struct KeySlot {
    std::string key;
    bool hostname = false;
    std::unordered_map<std::string, int64_t> ids;  // value -> domain id
    std::vector<int64_t> nodes_in;                 // per domain id
    int64_t domains = 0;                           // with a node not gone

    // A node (not gone) in domain `id` enters or leaves the key's domains.
    void Attach(int64_t id, bool attach);
  };
  struct Node {
    const Labels* labels = nullptr;
    bool gone = false;
    std::vector<const PodState*> pods;
    std::vector<int64_t> domains;  // per key slot; -1: no such label
  };
  // Pods matching `selector` in `namespaces`, counted per domain of the
  // key of `slot`.
  // The domains with pods are also kept per count, so that a spread's
  // minimum over every domain needs no scan of the nodes.
  struct CountedTerm {
    size_t slot = 0;
    LabelSelector selector;
    std::vector<std::string> namespaces;
    std::unordered_map<int64_t, int64_t> per_domain;
    int64_t total = 0;
    std::map<int64_t, int64_t> positive;  // count > 0 -> domains with it
    int64_t positive_domains = 0;

    int64_t CountIn(int64_t domain) const;
    // A domain's count goes from `from` to `to`.
    void Move(int64_t from, int64_t to);
  };
  // Placed pods whose anti-affinity term is this, per domain.
  struct OwnerTerm {
    size_t slot = 0;
    LabelSelector selector;
    std::vector<std::string> namespaces;  // resolved: never empty
    std::unordered_map<int64_t, int64_t> per_domain;
  };

  // The counted and owner terms that select pods of some labels and
  // namespace (a controller's pods share both), found once and extended as
  // terms are added: a placement or a check visits only those.
  struct SelectionKey {
    Frozen<Labels> labels;  // held: its identity is the key
    std::string namespace_;
    bool operator==(const SelectionKey& other) const {
      return labels.identity() == other.labels.identity() &&
             namespace_ == other.namespace_;
    }
  };
  struct SelectionKeyHash {
    size_t operator()(const SelectionKey& key) const;
  };
  struct Selection {
    size_t counted_checked = 0;
    size_t owners_checked = 0;
    std::vector<size_t> counted;
    std::vector<size_t> owners;
  };
  const Selection& SelectionOf(const PodState& pod) const;
  Selection& SelectionFor(const PodState& pod) const;

  // Terms by a label their selector requires (= or in): a pod's labels
  // find the terms that may select it, so a pod is not checked against
  // every controller's terms. The others are checked for every pod.
  class TermIndex {
   public:
    void Add(const LabelSelector& selector, size_t term);
    // Adds to `selected` the terms from `*checked` on (of `terms`, which
    // this indexes) that select `pod`; all are checked then.
    template <typename Term>
    void AddSelecting(const std::vector<Term>& terms, const PodState& pod,
                      size_t* checked, std::vector<size_t>* selected) const;

   private:
    std::unordered_map<std::string, std::vector<size_t>> by_label_;
    std::vector<size_t> unindexed_;
  };

  // The counted terms of a pod's own constraints, in the order of its
  // lists, and whether each selects the pod itself; by the identity of the
  // lists, labels and namespace (a controller's pods share them), so a
  // check builds no signature.
  struct OwnKey {
    Frozen<std::vector<PodAffinityTerm>> anti_affinity;
    Frozen<std::vector<PodAffinityTerm>> affinity;
    Frozen<std::vector<SpreadConstraint>> spread;
    Frozen<Labels> labels;
    std::string namespace_;
    bool operator==(const OwnKey& other) const {
      return anti_affinity.identity() == other.anti_affinity.identity() &&
             affinity.identity() == other.affinity.identity() &&
             spread.identity() == other.spread.identity() &&
             labels.identity() == other.labels.identity() &&
             namespace_ == other.namespace_;
    }
  };
  struct OwnKeyHash {
    size_t operator()(const OwnKey& key) const;
  };
  struct OwnTerms {
    std::vector<size_t> anti_affinity;
    std::vector<size_t> owners;  // the same terms as owners_'s
    std::vector<size_t> affinity;
    std::vector<bool> affinity_selects_self;
    std::vector<size_t> spread;
    std::vector<bool> spread_selects_self;
  };
  const OwnTerms& OwnTermsOf(const PodState& pod) const;
  OwnTerms& AddOwnTerms(const PodState& pod) const;

  // The slot of `key`, added (with every node's domain of it) when new.
  size_t SlotOf(const std::string& key) const;
  // The node's domain id for the key of `slot`, or -1 when it has no label
  // of that key or is gone.
  int64_t DomainOf(size_t node, size_t slot) const;
  // The domain id of a node's label value for a key, numbered when new.
  int64_t DomainIdOf(const Labels& labels, size_t slot, size_t node) const;
  size_t CountedIndex(const std::string& key, const LabelSelector& selector,
                      const std::vector<std::string>& namespaces) const;
  void Count(const PodState& pod, size_t node, int64_t delta);
  void CountOwner(const PodState& pod, size_t node, int64_t delta);
  void CountNode(size_t node, int64_t delta);
  // Enters a node into (or takes it out of) the domains of its keys.
  void AttachNode(size_t node, bool attach);
  // How many domains `term`'s key has (nodes that are not gone).
  int64_t DomainCount(const CountedTerm& term) const;
  bool OwnersAllow(const PodState& pod, size_t node) const;
  bool AntiAffinityAllows(const PodState& pod, size_t node) const;
  bool AffinityAllows(const PodState& pod, size_t node) const;
  bool SpreadAllows(const PodState& pod, size_t node) const;
  // The fewest matching pods in a domain of an eligible node for `pod`
  // (its node selector and affinity pass; it has the key), and how many
  // domains there are.
  std::pair<int64_t, int64_t> MinimumOver(const PodState& pod,
                                          const CountedTerm& term) const;

  mutable std::vector<Node> nodes_;
  int64_t live_nodes_ = 0;  // not gone
  mutable std::vector<KeySlot> slots_;
  // Registered on first use; a new term counts the pods placed before it.
  mutable std::vector<CountedTerm> counted_;
  mutable std::map<std::string, size_t> counted_index_;
  mutable std::vector<OwnerTerm> owners_;
  mutable std::map<std::string, size_t> owner_index_;
  mutable TermIndex counted_by_label_;
  mutable TermIndex owners_by_label_;
  int64_t placed_owner_pods_ = 0;  // counted in owners_' domains
  mutable std::unordered_map<SelectionKey, Selection, SelectionKeyHash>
      selections_;
  mutable std::unordered_map<OwnKey, OwnTerms, OwnKeyHash> own_terms_;
  // The last pod's selection and own terms: an estimate places and checks
  // the copies of one pod one after another. By the identity of what they
  // are keyed by, as the maps are; the maps' entries do not move.
  struct LastPod {
    const void* labels = nullptr;
    const void* anti_affinity = nullptr;
    const void* affinity = nullptr;
    const void* spread = nullptr;
    std::string namespace_;
    Selection* selection = nullptr;
    OwnTerms* own = nullptr;
  };
  // Forgotten when the topology is copied or moved: it points into the
  // maps of the one it was kept by.
  struct LastPodCache {
    LastPod pod;
    LastPodCache() = default;
    LastPodCache(const LastPodCache&) {}
    LastPodCache& operator=(const LastPodCache&) {
      pod = {};
      return *this;
    }
  };
  mutable LastPodCache last_selection_;
  mutable LastPodCache last_own_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_SIMULATION_TOPOLOGY_H_

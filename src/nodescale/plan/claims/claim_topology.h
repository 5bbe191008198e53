// Pod affinity, anti-affinity and topology spread over the places a plan
// puts pods: existing nodes and planned node claims, each a host with a
// number. One counted group per distinct (key, selector, namespaces) is
// shared by every pod whose terms name it, so a hostname check is one
// lookup, not a scan of the nodes. The domains of a key are those the
// catalogue offers (a zone with no node yet is a domain) and those of the
// existing nodes. A claim may not yet know its value of a key (which
// zone): a check then says which value it must take, and a pod counted by
// a group of the key fixes it, so that every count is of a known domain.
// Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_TOPOLOGY_H_
#define PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_TOPOLOGY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale {

class ClaimTopology {
 public:
  // Registers the terms of a pod's constraints (pending or bound). Every
  // pod's, before the first check.
  void AddTerms(const PodState& pod);
  // Drops what was worked out of the pod's terms: it now has fewer (its
  // preferences relaxed; every term it has was added before).
  void Forget(const PodState& pod) { info_.erase(&pod); }
  // A value of a key the terms use that some node has or could have.
  void AddDomain(const std::string& key, const std::string& value);

  // The keys the terms use, by slot, and each key's domains (sorted).
  size_t slots() const { return slots_.size(); }
  const std::string& KeyOf(size_t slot) const { return slots_[slot].key; }
  bool IsHostname(size_t slot) const { return slots_[slot].hostname; }
  const std::vector<std::string>& DomainsOf(size_t slot) const {
    return slots_[slot].names;
  }
  // The slot of a key; -1 when no term uses it.
  int64_t SlotOf(std::string_view key) const;

  // The values of a key's slot a host may still take: one when it is known,
  // none when the host has no such label.
  using PossibleValues = std::function<std::vector<std::string>(size_t slot)>;
  struct Pin {
    size_t slot = 0;
    std::string value;
  };
  // Whether the terms allow `pod` on `host`; if so, the values it must
  // take for that (`pins`, for keys it has more than one value of).
  bool Check(const PodState& pod, size_t host, const PossibleValues& possible,
             std::vector<Pin>* pins) const;
  // Counts a pod placed on `host`, whose value of each key (now known, ""
  // for none) `value_of` returns.
  void Record(const PodState& pod, size_t host,
              const std::function<std::string(size_t slot)>& value_of);

  // Whether any term is registered: without any, checks always pass.
  bool empty() const { return groups_.empty(); }

 private:
  struct Slot {
    std::string key;
    bool hostname = false;
    std::vector<std::string> names;  // sorted domains
  };
  // Pods matching `selector` in `namespaces`, counted per domain (a host
  // for the hostname, else an index into the slot's names).
  struct Group {
    size_t slot = 0;
    LabelSelector selector;
    std::vector<std::string> namespaces;
    std::vector<int64_t> counts;
    int64_t total = 0;
    int64_t CountIn(int64_t domain) const {
      return domain >= 0 && static_cast<size_t>(domain) < counts.size()
                 ? counts[domain]
                 : 0;
    }
    void Add(int64_t domain);
  };
  enum class Kind { kAntiAffinity, kAffinity, kSpread };
  struct Own {
    Kind kind = Kind::kSpread;
    size_t group = 0;
    int64_t max_skew = 1;
    int64_t min_domains = 0;
    bool selects_self = false;
    std::vector<int64_t> eligible;  // spread: domains its node terms allow
  };
  struct PodInfo {
    std::vector<size_t> counted_in;  // groups selecting it
    std::vector<size_t> owners_of;   // anti-affinity groups selecting it
    std::vector<size_t> owns;        // its anti-affinity groups
    std::vector<Own> own;
  };

  size_t AddSlot(const std::string& key);
  size_t GroupOf(std::vector<Group>* groups,
                 std::map<std::string, size_t>* index, size_t slot,
                 const LabelSelector& selector,
                 const std::vector<std::string>& namespaces);
  const PodInfo& InfoOf(const PodState& pod) const;
  int64_t DomainId(size_t slot, const std::string& value) const;
  int64_t MinimumOver(const Own& own) const;
  // The value of `possible` (ids, or the host for the hostname) `own`
  // allows, best first; -1 when none.
  int64_t Choose(const PodState& pod, const Own& own,
                 const std::vector<int64_t>& possible) const;

  std::vector<Slot> slots_;
  std::map<std::string, size_t, std::less<>> slot_index_;
  std::vector<Group> groups_;  // counted: affinity, anti-affinity, spread
  std::map<std::string, size_t> group_index_;
  std::vector<Group> owners_;  // placed pods' anti-affinity, per domain
  std::map<std::string, size_t> owner_index_;
  mutable std::unordered_map<const PodState*, PodInfo> info_;
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_CLAIMS_CLAIM_TOPOLOGY_H_

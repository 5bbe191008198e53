#include "nodescale/plan/claims/claim_topology.h"

#include <algorithm>
#include <limits>

#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

std::vector<std::string> Resolved(const std::vector<std::string>& namespaces,
                                  const PodState& pod) {
  if (!namespaces.empty()) return namespaces;
  return {pod.namespace_};
}

std::string GroupKey(size_t slot, const LabelSelector& selector,
                     const std::vector<std::string>& namespaces) {
  std::string key = std::to_string(slot) + "|" + selector.ToString();
  for (const std::string& ns : namespaces) key += "|" + ns;
  return key;
}

bool Selects(const LabelSelector& selector,
             const std::vector<std::string>& namespaces, const PodState& pod) {
  return std::find(namespaces.begin(), namespaces.end(), pod.namespace_) !=
             namespaces.end() &&
         selector.Matches(pod.labels);
}

// Whether the pod's node selector and required node affinity let it onto
// a node whose only label is key=value (its other requirements aside).
bool AllowsValue(const PodState& pod, const std::string& key,
                 const std::string& value) {
  auto selected = pod.node_selector->find(key);
  if (selected != pod.node_selector->end() && selected->second != value) {
    return false;
  }
  if (pod.node_affinity.empty()) return true;
  const Labels labels = {{key, value}};
  for (const NodeSelectorTerm& term : *pod.node_affinity) {
    bool all = true;
    for (const NodeSelectorRequirement& req : term.requirements) {
      if (req.key == key && !MatchesNodeSelectorRequirement(req, labels)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

}  // namespace

void ClaimTopology::Group::Add(int64_t domain) {
  if (domain < 0) return;
  if (static_cast<size_t>(domain) >= counts.size()) {
    counts.resize(std::max<size_t>(domain + 1, counts.size() * 2), 0);
  }
  ++counts[domain];
  ++total;
}

size_t ClaimTopology::AddSlot(const std::string& key) {
  auto [it, added] = slot_index_.try_emplace(key, slots_.size());
  if (added) slots_.push_back({key, key == kHostnameLabel, {}});
  return it->second;
}

int64_t ClaimTopology::SlotOf(std::string_view key) const {
  auto it = slot_index_.find(key);
  return it == slot_index_.end() ? -1 : static_cast<int64_t>(it->second);
}

size_t ClaimTopology::GroupOf(std::vector<Group>* groups,
                              std::map<std::string, size_t>* index, size_t slot,
                              const LabelSelector& selector,
                              const std::vector<std::string>& namespaces) {
  auto [it, added] =
      index->try_emplace(GroupKey(slot, selector, namespaces), groups->size());
  if (added) groups->push_back({slot, selector, namespaces, {}, 0});
  return it->second;
}

void ClaimTopology::AddTerms(const PodState& pod) {
  for (const PodAffinityTerm& t : *pod.anti_affinity) {
    const size_t slot = AddSlot(t.topology_key);
    const auto ns = Resolved(t.namespaces, pod);
    GroupOf(&groups_, &group_index_, slot, t.selector, ns);
    GroupOf(&owners_, &owner_index_, slot, t.selector, ns);
  }
  for (const PodAffinityTerm& t : *pod.affinity) {
    GroupOf(&groups_, &group_index_, AddSlot(t.topology_key), t.selector,
            Resolved(t.namespaces, pod));
  }
  for (const SpreadConstraint& s : *pod.spread) {
    GroupOf(&groups_, &group_index_, AddSlot(s.topology_key), s.selector,
            {pod.namespace_});
  }
}

void ClaimTopology::AddDomain(const std::string& key,
                              const std::string& value) {
  auto it = slot_index_.find(key);
  if (it == slot_index_.end() || slots_[it->second].hostname) return;
  std::vector<std::string>& names = slots_[it->second].names;
  auto at = std::lower_bound(names.begin(), names.end(), value);
  if (at == names.end() || *at != value) names.insert(at, value);
}

int64_t ClaimTopology::DomainId(size_t slot, const std::string& value) const {
  const std::vector<std::string>& names = slots_[slot].names;
  auto at = std::lower_bound(names.begin(), names.end(), value);
  if (at == names.end() || *at != value) return -1;
  return at - names.begin();
}

const ClaimTopology::PodInfo& ClaimTopology::InfoOf(const PodState& pod) const {
  auto found = info_.find(&pod);
  if (found != info_.end()) return found->second;
  PodInfo info;
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (Selects(groups_[g].selector, groups_[g].namespaces, pod)) {
      info.counted_in.push_back(g);
    }
  }
  for (size_t o = 0; o < owners_.size(); ++o) {
    if (Selects(owners_[o].selector, owners_[o].namespaces, pod)) {
      info.owners_of.push_back(o);
    }
  }
  auto group = [&](const std::map<std::string, size_t>& index,
                   const std::string& key, const LabelSelector& selector,
                   const std::vector<std::string>& ns) {
    return index.at(GroupKey(slot_index_.at(key), selector, ns));
  };
  for (const PodAffinityTerm& t : *pod.anti_affinity) {
    const auto ns = Resolved(t.namespaces, pod);
    Own own;
    own.kind = Kind::kAntiAffinity;
    own.group = group(group_index_, t.topology_key, t.selector, ns);
    info.own.push_back(own);
    info.owns.push_back(group(owner_index_, t.topology_key, t.selector, ns));
  }
  for (const PodAffinityTerm& t : *pod.affinity) {
    const auto ns = Resolved(t.namespaces, pod);
    Own own;
    own.kind = Kind::kAffinity;
    own.group = group(group_index_, t.topology_key, t.selector, ns);
    own.selects_self = Selects(t.selector, ns, pod);
    info.own.push_back(own);
  }
  for (const SpreadConstraint& s : *pod.spread) {
    Own own;
    own.kind = Kind::kSpread;
    own.group =
        group(group_index_, s.topology_key, s.selector, {pod.namespace_});
    own.max_skew = s.max_skew;
    own.min_domains = s.min_domains;
    own.selects_self = s.selector.Matches(pod.labels);
    const Slot& slot = slots_[groups_[own.group].slot];
    for (size_t d = 0; d < slot.names.size(); ++d) {
      if (AllowsValue(pod, slot.key, slot.names[d])) {
        own.eligible.push_back(static_cast<int64_t>(d));
      }
    }
    info.own.push_back(std::move(own));
  }
  return info_.emplace(&pod, std::move(info)).first->second;
}

// A new node can always be made, so a hostname's fewest is 0, as
// Karpenter takes it; so too with fewer eligible domains than minDomains.
int64_t ClaimTopology::MinimumOver(const Own& own) const {
  const Group& g = groups_[own.group];
  if (slots_[g.slot].hostname) return 0;
  if (static_cast<int64_t>(own.eligible.size()) < own.min_domains) return 0;
  int64_t least = std::numeric_limits<int64_t>::max();
  for (int64_t d : own.eligible) least = std::min(least, g.CountIn(d));
  return own.eligible.empty() ? 0 : least;
}

int64_t ClaimTopology::Choose(const PodState& pod, const Own& own,
                              const std::vector<int64_t>& possible) const {
  (void)pod;
  const Group& g = groups_[own.group];
  switch (own.kind) {
    case Kind::kAntiAffinity:
      for (int64_t d : possible) {
        if (g.CountIn(d) == 0) return d;
      }
      return -1;
    case Kind::kAffinity:
      if (g.total == 0) {
        return own.selects_self && !possible.empty() ? possible.front() : -1;
      }
      for (int64_t d : possible) {
        if (g.CountIn(d) > 0) return d;
      }
      return -1;
    case Kind::kSpread: {
      const int64_t least = MinimumOver(own);
      const int64_t self = own.selects_self ? 1 : 0;
      int64_t best = -1;
      for (int64_t d : possible) {
        const int64_t count = g.CountIn(d);
        if (count + self - least > own.max_skew) continue;
        if (!slots_[g.slot].hostname &&
            !std::binary_search(own.eligible.begin(), own.eligible.end(), d)) {
          continue;
        }
        if (best < 0 || count < g.CountIn(best)) best = d;
      }
      return best;
    }
  }
  return -1;
}

bool ClaimTopology::Check(const PodState& pod, size_t host,
                          const PossibleValues& possible,
                          std::vector<Pin>* pins) const {
  pins->clear();
  if (groups_.empty()) return true;
  const PodInfo& info = InfoOf(pod);
  if (info.own.empty() && info.owners_of.empty() && info.counted_in.empty()) {
    return true;
  }
  // The domains the host may be in for a slot, after the pins so far.
  auto domains = [&](size_t slot) {
    if (slots_[slot].hostname) {
      return std::vector<int64_t>{static_cast<int64_t>(host)};
    }
    for (const Pin& pin : *pins) {
      if (pin.slot == slot)
        return std::vector<int64_t>{DomainId(slot, pin.value)};
    }
    std::vector<int64_t> ids;
    for (const std::string& value : possible(slot)) {
      if (int64_t id = DomainId(slot, value); id >= 0) ids.push_back(id);
    }
    return ids;
  };
  auto settle = [&](size_t slot, const std::vector<int64_t>& ids,
                    int64_t chosen) {
    if (ids.size() > 1 && !slots_[slot].hostname) {
      pins->push_back({slot, slots_[slot].names[chosen]});
    }
  };
  for (const Own& own : info.own) {
    const size_t slot = groups_[own.group].slot;
    const std::vector<int64_t> ids = domains(slot);
    if (ids.empty()) {
      if (own.kind == Kind::kAntiAffinity) continue;  // no domain: no peer
      return false;
    }
    const int64_t chosen = Choose(pod, own, ids);
    if (chosen < 0) return false;
    settle(slot, ids, chosen);
  }
  for (size_t o : info.owners_of) {
    const Group& owners = owners_[o];
    const std::vector<int64_t> ids = domains(owners.slot);
    int64_t chosen = -1;
    for (int64_t d : ids) {
      if (owners.CountIn(d) == 0) {
        chosen = d;
        break;
      }
    }
    if (ids.empty()) continue;
    if (chosen < 0) return false;
    settle(owners.slot, ids, chosen);
  }
  // Where it is counted, its domain must be known: the fewest first.
  for (size_t g : info.counted_in) {
    const Group& group = groups_[g];
    const std::vector<int64_t> ids = domains(group.slot);
    if (ids.size() <= 1) continue;
    int64_t best = ids.front();
    for (int64_t d : ids) {
      if (group.CountIn(d) < group.CountIn(best)) best = d;
    }
    settle(group.slot, ids, best);
  }
  for (size_t o : info.owns) {
    const std::vector<int64_t> ids = domains(owners_[o].slot);
    if (ids.size() > 1) settle(owners_[o].slot, ids, ids.front());
  }
  return true;
}

void ClaimTopology::Record(
    const PodState& pod, size_t host,
    const std::function<std::string(size_t slot)>& value_of) {
  if (groups_.empty()) return;
  const PodInfo& info = InfoOf(pod);
  auto domain = [&](size_t slot) -> int64_t {
    if (slots_[slot].hostname) return static_cast<int64_t>(host);
    const std::string value = value_of(slot);
    return value.empty() ? -1 : DomainId(slot, value);
  };
  for (size_t g : info.counted_in) groups_[g].Add(domain(groups_[g].slot));
  for (size_t o : info.owns) owners_[o].Add(domain(owners_[o].slot));
}

}  // namespace propscaler::nodescale

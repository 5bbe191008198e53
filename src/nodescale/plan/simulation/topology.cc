#include "nodescale/plan/simulation/topology.h"

#include <algorithm>
#include <functional>
#include <limits>

#include "nodescale/plan/simulation/predicates.h"

namespace propscaler::nodescale {
namespace {

// One string per distinct (key, selector, namespaces), for the indexes.
std::string Signature(const std::string& key, const LabelSelector& selector,
                      const std::vector<std::string>& namespaces) {
  std::string out = key;
  out += '\n';
  for (const LabelRequirement& req : selector.requirements()) {
    out += req.key;
    out += static_cast<char>('0' + static_cast<int>(req.op));
    for (const std::string& value : req.values) {
      out += value;
      out += ',';
    }
    out += ';';
  }
  out += '\n';
  for (const std::string& ns : namespaces) {
    out += ns;
    out += ',';
  }
  return out;
}

// A term's namespaces: its own list, or the owner's namespace.
std::vector<std::string> Resolved(const std::vector<std::string>& namespaces,
                                  const std::string& owner_namespace) {
  if (!namespaces.empty()) return namespaces;
  return {owner_namespace};
}

bool Selects(const LabelSelector& selector,
             const std::vector<std::string>& namespaces, const PodState& pod) {
  return std::find(namespaces.begin(), namespaces.end(), pod.namespace_) !=
             namespaces.end() &&
         selector.Matches(pod.labels);
}

}  // namespace

bool HasTopologyConstraints(const PodState& pod) {
  return !pod.affinity.empty() || !pod.spread.empty() ||
         std::any_of(pod.anti_affinity.begin(), pod.anti_affinity.end(),
                     [](const PodAffinityTerm& term) {
                       return term.topology_key != kHostnameLabel;
                     });
}

bool HasInterPodConstraints(const PodState& pod) {
  return !pod.affinity.empty() || !pod.anti_affinity.empty() ||
         !pod.spread.empty();
}

bool AnyInterPodConstraints(const PodList& pods) {
  return std::any_of(pods.begin(), pods.end(), HasInterPodConstraints);
}

int64_t Topology::CountedTerm::CountIn(int64_t domain) const {
  auto it = per_domain.find(domain);
  return it == per_domain.end() ? 0 : it->second;
}

void Topology::CountedTerm::Move(int64_t from, int64_t to) {
  if (from > 0) {
    auto it = positive.find(from);
    if (--it->second == 0) positive.erase(it);
    --positive_domains;
  }
  if (to > 0) {
    ++positive[to];
    ++positive_domains;
  }
}

size_t Topology::AddNode(const Labels* labels) {
  const size_t index = nodes_.size();
  nodes_.push_back({labels, false, {}, {}});
  nodes_.back().domains.reserve(slots_.size());
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    nodes_.back().domains.push_back(DomainIdOf(*labels, slot, index));
  }
  AttachNode(index, true);
  return index;
}

void Topology::RemoveLastNode() {
  if (!nodes_.back().gone) AttachNode(nodes_.size() - 1, false);
  nodes_.pop_back();
}

void Topology::KeySlot::Attach(int64_t id, bool attach) {
  // Hostname domains are the nodes themselves, counted by live_nodes_.
  if (hostname || id < 0) return;
  int64_t& nodes = nodes_in[id];
  if (attach && nodes++ == 0) ++domains;
  if (!attach && --nodes == 0) --domains;
}

void Topology::AttachNode(size_t node, bool attach) {
  live_nodes_ += attach ? 1 : -1;
  const std::vector<int64_t>& domains = nodes_[node].domains;
  for (size_t s = 0; s < slots_.size(); ++s) {
    slots_[s].Attach(domains[s], attach);
  }
}

int64_t Topology::DomainCount(const CountedTerm& term) const {
  const KeySlot& slot = slots_[term.slot];
  return slot.hostname ? live_nodes_ : slot.domains;
}

void Topology::SetNodeGone(size_t node, bool gone) {
  if (nodes_[node].gone == gone) return;
  // A gone node's pods leave its domains with it, and then the node.
  if (gone) {
    CountNode(node, -1);
    AttachNode(node, false);
  }
  nodes_[node].gone = gone;
  if (!gone) {
    AttachNode(node, true);
    CountNode(node, +1);
  }
}

void Topology::CountNode(size_t node, int64_t delta) {
  for (const PodState* pod : nodes_[node].pods) {
    Count(*pod, node, delta);
    CountOwner(*pod, node, delta);
  }
}

size_t Topology::SelectionKeyHash::operator()(const SelectionKey& key) const {
  // Not the namespace: a controller's pods share both, and equality
  // compares it.
  return std::hash<const void*>()(key.labels.identity());
}

Topology::Selection& Topology::SelectionFor(const PodState& pod) const {
  LastPod& last = last_selection_.pod;
  if (last.selection == nullptr || last.labels != pod.labels.identity() ||
      last.namespace_ != pod.namespace_) {
    last.selection = &selections_[SelectionKey{pod.labels, pod.namespace_}];
    last.labels = pod.labels.identity();
    last.namespace_ = pod.namespace_;
  }
  return *last.selection;
}

namespace {

std::string LabelKey(std::string_view key, std::string_view value) {
  std::string out(key);
  out += '\n';
  out += value;
  return out;
}

}  // namespace

void Topology::TermIndex::Add(const LabelSelector& selector, size_t term) {
  for (const LabelRequirement& req : selector.requirements()) {
    if (req.op != LabelRequirement::Op::kEquals &&
        req.op != LabelRequirement::Op::kIn) {
      continue;
    }
    for (const std::string& value : req.values) {
      by_label_[LabelKey(req.key, value)].push_back(term);
    }
    return;
  }
  unindexed_.push_back(term);
}

template <typename Term>
void Topology::TermIndex::AddSelecting(const std::vector<Term>& terms,
                                       const PodState& pod, size_t* checked,
                                       std::vector<size_t>* selected) const {
  if (*checked == terms.size()) return;
  // Terms are added in index order, so each list is sorted.
  auto from_checked = [&](const std::vector<size_t>& candidates) {
    for (auto it =
             std::lower_bound(candidates.begin(), candidates.end(), *checked);
         it != candidates.end(); ++it) {
      if (Selects(terms[*it].selector, terms[*it].namespaces, pod)) {
        selected->push_back(*it);
      }
    }
  };
  from_checked(unindexed_);
  if (!by_label_.empty()) {
    for (const auto& [key, value] : *pod.labels) {
      auto it = by_label_.find(LabelKey(key, value));
      if (it != by_label_.end()) from_checked(it->second);
    }
  }
  *checked = terms.size();
}

const Topology::Selection& Topology::SelectionOf(const PodState& pod) const {
  Selection& selection = SelectionFor(pod);
  counted_by_label_.AddSelecting(counted_, pod, &selection.counted_checked,
                                 &selection.counted);
  owners_by_label_.AddSelecting(owners_, pod, &selection.owners_checked,
                                &selection.owners);
  return selection;
}

size_t Topology::OwnKeyHash::operator()(const OwnKey& key) const {
  std::hash<const void*> pointer;
  return pointer(key.anti_affinity.identity()) ^
         (pointer(key.affinity.identity()) * 3) ^
         (pointer(key.spread.identity()) * 7) ^
         (pointer(key.labels.identity()) * 13);
}

const Topology::OwnTerms& Topology::OwnTermsOf(const PodState& pod) const {
  LastPod& last = last_own_.pod;
  if (last.own != nullptr && last.labels == pod.labels.identity() &&
      last.anti_affinity == pod.anti_affinity.identity() &&
      last.affinity == pod.affinity.identity() &&
      last.spread == pod.spread.identity() &&
      last.namespace_ == pod.namespace_) {
    return *last.own;
  }
  OwnTerms& own = AddOwnTerms(pod);
  last = {pod.labels.identity(),
          pod.anti_affinity.identity(),
          pod.affinity.identity(),
          pod.spread.identity(),
          pod.namespace_,
          nullptr,
          &own};
  return own;
}

Topology::OwnTerms& Topology::AddOwnTerms(const PodState& pod) const {
  auto [it, added] = own_terms_.try_emplace(OwnKey{
      pod.anti_affinity, pod.affinity, pod.spread, pod.labels, pod.namespace_});
  OwnTerms& own = it->second;
  if (!added) return own;
  for (const PodAffinityTerm& anti : pod.anti_affinity) {
    const std::vector<std::string> namespaces =
        Resolved(anti.namespaces, pod.namespace_);
    own.anti_affinity.push_back(
        CountedIndex(anti.topology_key, anti.selector, namespaces));
    const std::string signature =
        Signature(anti.topology_key, anti.selector, namespaces);
    auto [owner, added] = owner_index_.emplace(signature, owners_.size());
    if (added) {
      owners_by_label_.Add(anti.selector, owners_.size());
      owners_.push_back(
          {SlotOf(anti.topology_key), anti.selector, namespaces, {}});
    }
    own.owners.push_back(owner->second);
  }
  for (const PodAffinityTerm& affinity : pod.affinity) {
    const std::vector<std::string> namespaces =
        Resolved(affinity.namespaces, pod.namespace_);
    own.affinity.push_back(
        CountedIndex(affinity.topology_key, affinity.selector, namespaces));
    own.affinity_selects_self.push_back(
        Selects(affinity.selector, namespaces, pod));
  }
  for (const SpreadConstraint& constraint : pod.spread) {
    own.spread.push_back(CountedIndex(constraint.topology_key,
                                      constraint.selector, {pod.namespace_}));
    own.spread_selects_self.push_back(constraint.selector.Matches(pod.labels));
  }
  return own;
}

size_t Topology::SlotOf(const std::string& key) const {
  for (size_t s = 0; s < slots_.size(); ++s) {
    if (slots_[s].key == key) return s;
  }
  const size_t s = slots_.size();
  slots_.push_back({key, key == kHostnameLabel, {}, {}, 0});
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const int64_t id = DomainIdOf(*nodes_[n].labels, s, n);
    nodes_[n].domains.push_back(id);
    if (!nodes_[n].gone) slots_[s].Attach(id, true);
  }
  return s;
}

int64_t Topology::DomainIdOf(const Labels& labels, size_t s,
                             size_t node) const {
  KeySlot& slot = slots_[s];
  // Every node has a hostname (the kubelet sets it; templates drop theirs),
  // and it is the node's own, whatever its label says.
  if (slot.hostname) return static_cast<int64_t>(node);
  auto label = labels.find(slot.key);
  if (label == labels.end()) return -1;
  auto [it, added] = slot.ids.try_emplace(
      label->second, static_cast<int64_t>(slot.nodes_in.size()));
  if (added) slot.nodes_in.push_back(0);
  return it->second;
}

int64_t Topology::DomainOf(size_t node, size_t slot) const {
  const Node& n = nodes_[node];
  return n.gone ? -1 : n.domains[slot];
}

size_t Topology::CountedIndex(
    const std::string& key, const LabelSelector& selector,
    const std::vector<std::string>& namespaces) const {
  const std::string signature = Signature(key, selector, namespaces);
  auto it = counted_index_.find(signature);
  if (it != counted_index_.end()) return it->second;
  CountedTerm term{SlotOf(key), selector, namespaces};
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const int64_t domain = DomainOf(n, term.slot);
    if (domain < 0) continue;
    for (const PodState* pod : nodes_[n].pods) {
      if (!Selects(selector, namespaces, *pod)) continue;
      ++term.per_domain[domain];
      ++term.total;
    }
  }
  for (const auto& [domain, count] : term.per_domain) term.Move(0, count);
  counted_by_label_.Add(selector, counted_.size());
  counted_.push_back(std::move(term));
  counted_index_.emplace(signature, counted_.size() - 1);
  return counted_.size() - 1;
}

void Topology::Count(const PodState& pod, size_t node, int64_t delta) {
  for (size_t t : SelectionOf(pod).counted) {
    CountedTerm& term = counted_[t];
    const int64_t domain = DomainOf(node, term.slot);
    if (domain < 0) continue;
    int64_t& count = term.per_domain[domain];
    term.Move(count, count + delta);
    count += delta;
    term.total += delta;
  }
}

void Topology::CountOwner(const PodState& pod, size_t node, int64_t delta) {
  if (pod.anti_affinity.empty()) return;
  for (size_t o : OwnTermsOf(pod).owners) {
    OwnerTerm& owner = owners_[o];
    const int64_t domain = DomainOf(node, owner.slot);
    if (domain < 0) continue;
    owner.per_domain[domain] += delta;
    placed_owner_pods_ += delta;
  }
}

void Topology::Prepare(const std::vector<const PodState*>& pods) const {
  for (const PodState* pod : pods) OwnTermsOf(*pod);
  for (const PodState* pod : pods) SelectionOf(*pod);
}

void Topology::Place(const PodState& pod, size_t node) {
  nodes_[node].pods.push_back(&pod);
  if (nodes_[node].gone) return;
  Count(pod, node, +1);
  CountOwner(pod, node, +1);
}

void Topology::Remove(const PodState& pod, size_t node) {
  std::vector<const PodState*>& pods = nodes_[node].pods;
  auto it = std::find(pods.begin(), pods.end(), &pod);
  if (it == pods.end()) return;
  pods.erase(it);
  if (nodes_[node].gone) return;
  Count(pod, node, -1);
  CountOwner(pod, node, -1);
}

bool Topology::Matters(const PodState& pod) const {
  return HasInterPodConstraints(pod) || placed_owner_pods_ > 0;
}

bool Topology::Allows(const PodState& pod, size_t node) const {
  return OwnersAllow(pod, node) && AntiAffinityAllows(pod, node) &&
         AffinityAllows(pod, node) && SpreadAllows(pod, node);
}

bool Topology::OwnersAllow(const PodState& pod, size_t node) const {
  if (placed_owner_pods_ == 0) return true;
  for (size_t o : SelectionOf(pod).owners) {
    const OwnerTerm& owner = owners_[o];
    const int64_t domain = DomainOf(node, owner.slot);
    if (domain < 0) continue;
    auto it = owner.per_domain.find(domain);
    if (it != owner.per_domain.end() && it->second > 0) return false;
  }
  return true;
}

bool Topology::AntiAffinityAllows(const PodState& pod, size_t node) const {
  if (pod.anti_affinity.empty()) return true;
  const OwnTerms& own = OwnTermsOf(pod);
  for (size_t t : own.anti_affinity) {
    const CountedTerm& term = counted_[t];
    const int64_t domain = DomainOf(node, term.slot);
    if (domain >= 0 && term.CountIn(domain) > 0) return false;
  }
  return true;
}

bool Topology::AffinityAllows(const PodState& pod, size_t node) const {
  if (pod.affinity.empty()) return true;
  const OwnTerms& own = OwnTermsOf(pod);
  bool every_term_met = true;
  bool no_match_anywhere = true;
  bool matches_own_terms = true;
  for (size_t i = 0; i < own.affinity.size(); ++i) {
    const CountedTerm& term = counted_[own.affinity[i]];
    // Every topology key must be on the node, even for the first pod.
    const int64_t domain = DomainOf(node, term.slot);
    if (domain < 0) return false;
    if (term.CountIn(domain) <= 0) every_term_met = false;
    if (term.total > 0) no_match_anywhere = false;
    if (!own.affinity_selects_self[i]) matches_own_terms = false;
  }
  // The first of a group of pods with affinity to each other may go
  // anywhere its keys are, or none could ever start.
  return every_term_met || (no_match_anywhere && matches_own_terms);
}

std::pair<int64_t, int64_t> Topology::MinimumOver(
    const PodState& pod, const CountedTerm& term) const {
  // Every domain is eligible for a pod that selects no nodes.
  if (pod.node_selector.empty() && pod.node_affinity.empty()) {
    const int64_t domains = DomainCount(term);
    // Some domain has none, or every one has at least the fewest kept.
    if (domains == 0 || domains > term.positive_domains) return {0, domains};
    return {term.positive.begin()->first, domains};
  }
  int64_t minimum = std::numeric_limits<int64_t>::max();
  int64_t domains = 0;
  // Hostname domains are one per node; other keys have few values.
  const bool per_node = slots_[term.slot].hostname;
  std::vector<int64_t> seen;
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const int64_t domain = DomainOf(n, term.slot);
    if (domain < 0) continue;
    const Labels& labels = *nodes_[n].labels;
    if (!MatchesNodeSelector(pod, labels) ||
        !MatchesNodeAffinity(pod, labels)) {
      continue;
    }
    if (!per_node) {
      if (std::find(seen.begin(), seen.end(), domain) != seen.end()) continue;
      seen.push_back(domain);
    }
    ++domains;
    auto it = term.per_domain.find(domain);
    minimum = std::min(minimum, it == term.per_domain.end() ? 0 : it->second);
  }
  return {domains == 0 ? 0 : minimum, domains};
}

bool Topology::SpreadAllows(const PodState& pod, size_t node) const {
  if (pod.spread.empty()) return true;
  const OwnTerms& own = OwnTermsOf(pod);
  for (size_t i = 0; i < own.spread.size(); ++i) {
    const SpreadConstraint& constraint = pod.spread[i];
    const CountedTerm& term = counted_[own.spread[i]];
    // A node without the key is not a place for the pod at all.
    const int64_t domain = DomainOf(node, term.slot);
    if (domain < 0) return false;
    const int64_t here = term.CountIn(domain);
    const int64_t self = own.spread_selects_self[i] ? 1 : 0;
    auto [minimum, domains] = MinimumOver(pod, term);
    if (constraint.min_domains > 0 && domains < constraint.min_domains) {
      minimum = 0;
    }
    if (here + self - minimum > constraint.max_skew) return false;
  }
  return true;
}

}  // namespace propscaler::nodescale

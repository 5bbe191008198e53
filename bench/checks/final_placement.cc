#include "checks/final_placement.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace propscaler::bench {

using namespace ::propscaler::nodescale;  // NOLINT: the checks' subject

std::string Hosts::DomainOf(size_t host, const std::string& key) const {
  if (key == kHostnameLabel) return names[host];
  auto it = labels[host]->find(key);
  return it == labels[host]->end() ? std::string() : it->second;
}

size_t Hosts::Add(const Labels* node_labels, std::string name) {
  labels.push_back(node_labels);
  names.push_back(std::move(name));
  return names.size() - 1;
}

bool TermSelects(const LabelSelector& selector,
                 const std::vector<std::string>& namespaces,
                 const PodState& pod, const PodState& owner) {
  const bool in_namespace =
      namespaces.empty() ? pod.namespace_ == owner.namespace_
                         : std::find(namespaces.begin(), namespaces.end(),
                                     pod.namespace_) != namespaces.end();
  return in_namespace && selector.Matches(pod.labels);
}

Hosts ExistingHosts(const ClusterSnapshot& snapshot) {
  Hosts hosts;
  std::map<std::string, size_t, std::less<>> by_name;
  for (const NodeState& node : snapshot.nodes) {
    by_name[node.name] = hosts.Add(&node.labels, node.name);
  }
  hosts.of_pod.assign(snapshot.pods.size(), kNone);
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const PodState& pod = snapshot.pods[i];
    if (pod.terminated || pod.node_name.empty()) continue;
    if (auto it = by_name.find(pod.node_name); it != by_name.end()) {
      hosts.of_pod[i] = it->second;
    }
  }
  return hosts;
}

std::string TermId(const PodState& owner, const PodAffinityTerm& t) {
  std::string id = t.topology_key + "|" + t.selector.ToString() + "|";
  if (t.namespaces.empty()) return id + owner.namespace_;
  for (const std::string& ns : t.namespaces) id += ns + ",";
  return id;
}

void CheckAntiAffinities(const ClusterSnapshot& snapshot, const Hosts& hosts,
                         Failures* failures) {
  std::map<std::string, std::pair<const PodState*, const PodAffinityTerm*>>
      terms;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.anti_affinity) {
      terms.try_emplace(TermId(pod, t), &pod, &t);
    }
  }
  std::map<std::string, std::map<std::string, int64_t>> counts;
  for (const auto& [id, term] : terms) {
    auto& per_domain = counts[id];
    for (size_t i = 0; i < snapshot.pods.size(); ++i) {
      if (hosts.of_pod[i] == kNone) continue;
      if (TermSelects(term.second->selector, term.second->namespaces,
                      snapshot.pods[i], *term.first)) {
        const std::string d =
            hosts.DomainOf(hosts.of_pod[i], term.second->topology_key);
        if (!d.empty()) ++per_domain[d];
      }
    }
  }
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.anti_affinity) {
      const std::string d = hosts.DomainOf(hosts.of_pod[i], t.topology_key);
      const auto& per_domain = counts[TermId(pod, t)];
      auto it = per_domain.find(d);
      const int64_t n = it == per_domain.end() ? 0 : it->second;
      const int64_t self =
          TermSelects(t.selector, t.namespaces, pod, pod) ? 1 : 0;
      if (!d.empty() && n - self > 0) {
        failures->push_back("pod " + pod.Key() + " shares " + t.topology_key +
                            " " + d + " with a pod its anti-affinity (" +
                            t.selector.ToString() + ") selects");
      }
    }
  }
}

namespace {

bool Holds(const PodState& pod, const std::string& id) {
  for (const PodAffinityTerm& t : *pod.affinity) {
    if (TermId(pod, t) == id) return true;
  }
  return false;
}

// One affinity term and the domains it may be met in.
struct AffinityTerm {
  const PodState* owner = nullptr;
  const PodAffinityTerm* term = nullptr;
  std::set<std::string> anchors;  // domains of selected bound or non-holders
  bool bound = false;             // a selected pod is bound
  bool unknown = false;           // a selected planned pod is on no node
  bool self = false;              // the term selects a holder
  std::map<std::string, std::string> holders;  // domain -> a holder in it
};

void JudgeAffinity(const std::string& id, const AffinityTerm& t,
                   Failures* failures) {
  if (t.unknown) return;
  const size_t allowed = t.bound ? 0 : (t.self ? 1 : 0);
  std::vector<std::string> extra;
  for (const auto& [domain, holder] : t.holders) {
    if (domain.empty()) {
      failures->push_back("pod " + holder + " has affinity (" +
                          t.term->selector.ToString() + ") over " +
                          t.term->topology_key + " on a node without it");
    } else if (!t.anchors.contains(domain)) {
      extra.push_back(holder + " in " + domain);
    }
  }
  if (extra.size() <= allowed) return;
  std::string where;
  for (const std::string& e : extra) where += (where.empty() ? "" : ", ") + e;
  failures->push_back("affinity " + id + ": pods in " +
                      std::to_string(extra.size()) +
                      " domains with no pod it selects (at most " +
                      std::to_string(allowed) + "): " + where);
}

}  // namespace

void CheckAffinitiesAtTheEnd(const ClusterSnapshot& snapshot,
                             const Hosts& hosts,
                             const std::vector<bool>& planned,
                             Failures* failures) {
  std::map<std::string, AffinityTerm> terms;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    if (!planned[i] || hosts.of_pod[i] == kNone) continue;
    const PodState& pod = snapshot.pods[i];
    for (const PodAffinityTerm& t : *pod.affinity) {
      AffinityTerm& term = terms[TermId(pod, t)];
      if (term.owner == nullptr) term = {&pod, &t};
      term.self = term.self || TermSelects(t.selector, t.namespaces, pod, pod);
      term.holders.emplace(hosts.DomainOf(hosts.of_pod[i], t.topology_key),
                           pod.Key());
    }
  }
  for (auto& [id, term] : terms) {
    for (size_t i = 0; i < snapshot.pods.size(); ++i) {
      const PodState& pod = snapshot.pods[i];
      const bool bound = !pod.node_name.empty() && !pod.terminated;
      if ((!bound && !planned[i]) ||
          !TermSelects(term.term->selector, term.term->namespaces, pod,
                       *term.owner)) {
        continue;
      }
      if (hosts.of_pod[i] == kNone) {
        term.unknown = term.unknown || planned[i];
        continue;
      }
      term.bound = term.bound || bound;
      if (bound || !Holds(pod, id)) {
        term.anchors.insert(
            hosts.DomainOf(hosts.of_pod[i], term.term->topology_key));
      }
    }
    JudgeAffinity(id, term, failures);
  }
}

}  // namespace propscaler::bench

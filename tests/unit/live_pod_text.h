// Every field of a LivePod as text, one per line, so that two decodings of
// the same pod (JSON and protobuf) compare with EXPECT_EQ and a difference
// shows which field it is.
#ifndef PROPSCALER_TESTS_UNIT_LIVE_POD_TEXT_H_
#define PROPSCALER_TESTS_UNIT_LIVE_POD_TEXT_H_

#include <chrono>
#include <string>
#include <vector>

#include "kube/model/live_objects.h"

namespace propscaler::kube::testing {

inline std::string Text(const Labels& labels) {
  std::string out = "{";
  for (const auto& [key, value] : labels) out += key + "=" + value + ",";
  return out + "}";
}
inline std::string Text(const std::vector<std::string>& values) {
  std::string out = "[";
  for (const std::string& value : values) out += value + ",";
  return out + "]";
}
inline std::string Text(const LabelSelector& selector) {
  std::string out = "{";
  for (const LabelRequirement& r : selector.requirements()) {
    out += r.key + " op" + std::to_string(static_cast<int>(r.op)) + " " +
           Text(r.values) + ";";
  }
  return out + "}";
}
inline std::string Text(const Resources& r) {
  std::string out = "cpu=" + std::to_string(r.cpu_millis) +
                    "m mem=" + std::to_string(r.memory_bytes) +
                    " eph=" + std::to_string(r.ephemeral_storage_bytes) +
                    " pods=" + std::to_string(r.pods);
  for (const auto& [name, amount] : r.extended) {
    out += " " + name + "=" + std::to_string(amount);
  }
  return out;
}
inline std::string Text(TimePoint time) {
  return std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(time.time_since_epoch())
          .count());
}

inline std::string LivePodText(const LivePod& live) {
  const PodState& pod = live.state;
  std::string out = "name " + pod.namespace_ + "/" + pod.name + "\n";
  out += "uid " + live.uid + "\nnode " + pod.node_name + "\n";
  out += "terminated " + std::to_string(pod.terminated) + "\n";
  out += "requests " + Text(pod.requests) + "\n";
  out += "labels " + Text(pod.labels.get()) + "\n";
  out += "annotations " + Text(pod.annotations.get()) + "\n";
  out += "nodeSelector " + Text(pod.node_selector.get()) + "\n";
  for (const NodeSelectorTerm& term : pod.node_affinity.get()) {
    out += "nodeAffinity term:";
    for (const NodeSelectorRequirement& r : term.requirements) {
      out += " " + r.key + " op" + std::to_string(static_cast<int>(r.op)) +
             " " + Text(r.values);
    }
    out += "\n";
  }
  for (const Toleration& t : pod.tolerations.get()) {
    out += "toleration " + t.key + " op" +
           std::to_string(static_cast<int>(t.op)) + " " + t.value + " any " +
           std::to_string(t.any_effect) + " effect" +
           std::to_string(static_cast<int>(t.effect)) + "\n";
  }
  for (const auto* terms : {&pod.affinity.get(), &pod.anti_affinity.get()}) {
    out += terms == &pod.affinity.get() ? "affinity" : "antiAffinity";
    for (const PodAffinityTerm& term : *terms) {
      out += " [" + term.topology_key + " " + Text(term.selector) + " " +
             Text(term.namespaces) + "]";
    }
    out += "\n";
  }
  for (const SpreadConstraint& c : pod.spread.get()) {
    out += "spread " + std::to_string(c.max_skew) + " " + c.topology_key + " " +
           Text(c.selector) + " min " + std::to_string(c.min_domains) + "\n";
  }
  // Preferences: ordered, so that two decoders' orders are compared too.
  const PodPreferences& preferences = pod.preferences;
  for (const WeightedNodeSelectorTerm& w : preferences.node_affinity) {
    out += "preferNode " + std::to_string(w.weight);
    for (const NodeSelectorRequirement& r : w.term.requirements) {
      out += " " + r.key + " op" + std::to_string(static_cast<int>(r.op)) +
             " " + Text(r.values);
    }
    out += "\n";
  }
  for (const auto* terms :
       {&preferences.affinity, &preferences.anti_affinity}) {
    out += terms == &preferences.affinity ? "preferAffinity"
                                          : "preferAntiAffinity";
    for (const WeightedPodAffinityTerm& w : *terms) {
      out += " [" + std::to_string(w.weight) + " " + w.term.topology_key + " " +
             Text(w.term.selector) + " " + Text(w.term.namespaces) + "]";
    }
    out += "\n";
  }
  for (const SpreadConstraint& c : preferences.spread) {
    out += "preferSpread " + std::to_string(c.max_skew) + " " + c.topology_key +
           " " + Text(c.selector) + "\n";
  }
  for (const HostPort& port : pod.host_ports.get()) {
    out += "hostPort " + std::to_string(port.port) + "/" + port.protocol + "\n";
  }
  out += "owner " + pod.owner_kind.get() + "/" + pod.owner_name.get() + "\n";
  out += "localStorage " + std::to_string(pod.has_local_storage) + "\n";
  for (const PodClaim& claim : pod.claims.get()) {
    out += "claim " + claim.name + (claim.ephemeral ? " ephemeral" : "") + "\n";
  }
  for (const InlineDisk& disk : pod.inline_disks.get()) {
    out += "disk " + disk.driver + " " + disk.handle +
           (disk.read_only ? " read-only" : "") + "\n";
  }
  out += "grace " + std::to_string(pod.termination_grace_seconds) + "\n";
  out += "priority " + std::to_string(pod.priority) + "\n";
  out += "started " + Text(pod.start_time) + "\n";
  out += "unschedulable " + std::to_string(live.unschedulable) + " since " +
         Text(live.unschedulable_since) + "\n";
  out += "created " + Text(live.created) + "\n";
  out += "nominated " + live.nominated_node + "\n";
  out += "ready since " + Text(live.ready_since) + "\n";
  out += "phase " + std::string(PodPhaseName(live.phase)) + "\n";
  out += "limits cpu=" + std::to_string(live.limit_cpu_millis) +
         "m mem=" + std::to_string(live.limit_memory_bytes) + "\n";
  return out;
}

}  // namespace propscaler::kube::testing

#endif  // PROPSCALER_TESTS_UNIT_LIVE_POD_TEXT_H_

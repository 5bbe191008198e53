// Builders for node-scale unit tests: pods, nodes and groups in one line.
#ifndef PROPSCALER_TESTS_UNIT_NODESCALE_TEST_UTIL_H_
#define PROPSCALER_TESTS_UNIT_NODESCALE_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "nodescale/domain/node_marks.h"
#include "nodescale/plan/disruption/decision_timer.h"
#include "nodescale/plan/disruption/disruption_command.h"
#include "nodescale/plan/simulation/node_templates.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale::testing_util {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;

inline Resources Res(int64_t cpu_millis, int64_t memory_bytes,
                     int64_t pods = 110) {
  Resources r;
  r.cpu_millis = cpu_millis;
  r.memory_bytes = memory_bytes;
  r.pods = pods;
  return r;
}

// A pending pod owned by ReplicaSet `owner` in namespace "default".
inline PodState Pod(const std::string& name, int64_t cpu_millis,
                    int64_t memory_bytes, const std::string& owner = "rs") {
  PodState pod;
  pod.namespace_ = "default";
  pod.name = name;
  pod.requests = Res(cpu_millis, memory_bytes, 1);
  if (!owner.empty()) {
    pod.owner_kind = "ReplicaSet";
    pod.owner_name = owner;
  }
  return pod;
}

inline PodState BoundPod(const std::string& name, const std::string& node,
                         int64_t cpu_millis, int64_t memory_bytes,
                         const std::string& owner = "rs") {
  PodState pod = Pod(name, cpu_millis, memory_bytes, owner);
  pod.node_name = node;
  return pod;
}

inline PodState DaemonSetPod(const std::string& name, const std::string& node,
                             int64_t cpu_millis, int64_t memory_bytes) {
  PodState pod = BoundPod(name, node, cpu_millis, memory_bytes, "");
  pod.namespace_ = "kube-system";
  pod.owner_kind = "DaemonSet";
  pod.owner_name = "ds";
  return pod;
}

inline NodeState Node(const std::string& name, const std::string& group,
                      int64_t cpu_millis, int64_t memory_bytes) {
  NodeState node;
  node.name = name;
  node.allocatable = Res(cpu_millis, memory_bytes);
  node.labels = {{std::string(kHostnameLabel), name}};
  if (!group.empty()) node.labels[std::string(kNodeGroupLabel)] = group;
  node.ready = true;
  return node;
}

// A 4-core, 16 GiB node of `group` as the live store lists it, made at
// `created`.
inline LiveNode Live(const std::string& name, const std::string& group,
                     bool ready, TimePoint created) {
  LiveNode node;
  node.state = Node(name, group, 4000, 16 * kGi);
  node.state.ready = ready;
  node.state.created = created;
  node.created = created;
  return node;
}

inline NodeGroup Group(const std::string& name, int64_t min, int64_t max,
                       int64_t target, int64_t cpu_millis,
                       int64_t memory_bytes) {
  NodeGroup group;
  group.name = name;
  group.min_size = min;
  group.max_size = max;
  group.target_size = target;
  group.declared_template = NodeTemplate{Res(cpu_millis, memory_bytes), {}, {}};
  return group;
}

// A DecisionTimer that writes down what it hears: "begin scheduled begin
// expiry ...".
struct RecordingTimer : DecisionTimer {
  void Begin() override { steps += "begin "; }
  void Scheduled() override { steps += "scheduled "; }
  void Evaluated(DisruptionMethod method) override {
    steps += std::string(DisruptionMethodName(method)) + " ";
  }
  Duration Elapsed() const override { return {}; }
  std::string steps;
};

}  // namespace propscaler::nodescale::testing_util

#endif  // PROPSCALER_TESTS_UNIT_NODESCALE_TEST_UTIL_H_

// A best-effort-atomic ProvisioningRequest's scale-up after it was asked of
// the provider, as plain data: done once all its new nodes are Ready; in
// flight while some are not, until --max-node-provision-time (the largest
// of its groups' own, if longer) has passed since it was asked; else given
// back: the nodes that came are removed, the ones that never registered
// taken off their groups' targets (kwok and Cluster API have no atomic
// resize, so a half-filled scale-up is undone; Cluster Autoscaler leaves
// it). A refused scale-up is given back at once. Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_ATOMIC_SCALE_UP_H_
#define PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_ATOMIC_SCALE_UP_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

// Remembered by the loop from the ask until it is done or given back. In
// memory: a process that takes over leaves the nodes of one in flight as
// ordinary nodes (Cluster Autoscaler never gives them back).
struct AtomicScaleUp {
  std::string request_uid;
  std::string request;  // namespace/name, for the log
  struct Part {
    std::string group;
    int64_t delta = 0;
    std::set<std::string> nodes_before;  // the group's, when asked
  };
  std::vector<Part> parts;
  TimePoint asked;
  std::string refused;  // the provider's error; empty: accepted
};

// A registered node as the progress sees it.
struct AtomicNode {
  std::string_view name;
  std::string_view group;
  bool ready = false;
};

struct AtomicProgress {
  enum class State { kDone, kInFlight, kGiveBack };
  State state = State::kInFlight;
  int64_t asked = 0;  // nodes asked for
  int64_t ready = 0;  // of them, Ready
  Duration provision_time{};
  TimePoint deadline;  // asked + provision_time
  // The new nodes that registered (Ready or not), with their groups.
  struct Came {
    std::string node;
    std::string group;
  };
  std::vector<Came> came;
};

AtomicProgress ProgressOf(const AtomicScaleUp& scale_up,
                          const std::vector<AtomicNode>& nodes,
                          const std::vector<NodeGroup>& groups,
                          Duration max_node_provision_time, TimePoint now);

// How many of the part's nodes never registered, to take off its group's
// target on a give-back: what was asked less the new nodes that came, and
// never more than the target is above the group's registered nodes.
int64_t UnregisteredOf(const AtomicScaleUp::Part& part, const NodeGroup& group,
                       const std::vector<AtomicNode>& nodes);

// Why it is given back, for the log, the Event and the request's condition.
std::string GiveBackReason(const AtomicScaleUp& scale_up,
                           const AtomicProgress& progress);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_PROVISIONING_REQUESTS_ATOMIC_SCALE_UP_H_

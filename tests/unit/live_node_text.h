// Every field of a LiveNode as text, one per line, so that two decodings
// of the same node (JSON and protobuf) compare with EXPECT_EQ and a
// difference shows which field it is.
#ifndef PROPSCALER_TESTS_UNIT_LIVE_NODE_TEXT_H_
#define PROPSCALER_TESTS_UNIT_LIVE_NODE_TEXT_H_

#include <chrono>
#include <string>

#include "kube/model/live_objects.h"
#include "unit/live_pod_text.h"

namespace propscaler::kube::testing {

inline std::string LiveNodeText(const LiveNode& live) {
  const NodeState& node = live.state;
  const auto seconds = [](TimePoint t) {
    return std::to_string(
        std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch())
            .count());
  };
  std::string out = "name " + node.name + "\nuid " + node.uid + "\n";
  out += "labels " + Text(node.labels) + "\n";
  out += "annotations " + Text(node.annotations) + "\n";
  for (const Taint& taint : node.taints) {
    out += "taint " + taint.key + "=" + taint.value + " effect" +
           std::to_string(static_cast<int>(taint.effect)) + "\n";
  }
  out += "providerID " + node.provider_id + "\n";
  out += "allocatable " + Text(node.allocatable) + "\n";
  out +=
      "created " + seconds(node.created) + " / " + seconds(live.created) + "\n";
  out += "ready " + std::to_string(node.ready) + " unschedulable " +
         std::to_string(node.unschedulable) + "\n";
  return out;
}

}  // namespace propscaler::kube::testing

#endif  // PROPSCALER_TESTS_UNIT_LIVE_NODE_TEXT_H_

// What vertical mode shows on /status: the target, the counts, the config
// in force and where it came from, each container's computed and current
// resources, held decreases and the last changes. Written by the loop, read
// by the HTTP server (through a StatusBoard).
#ifndef PROPSCALER_VERTICAL_VERTICAL_STATUS_H_
#define PROPSCALER_VERTICAL_VERTICAL_STATUS_H_

#include <chrono>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "common/history.h"
#include "common/status_board.h"
#include "kube/model/pod_template.h"
#include "vertical/resize_plan.h"
#include "vertical/vertical_arithmetic.h"

namespace propscaler {

struct ResizeDecision {
  std::chrono::system_clock::time_point time;
  std::vector<ResourceChange> changes;
  VerticalCounts counts;
  std::string cause;  // what started the cycle
  std::string pod;    // resized in place; empty: the pod template
};

struct VerticalStatus {
  std::string namespace_;
  std::string target;           // "deployment/coredns"
  std::string counting;         // which nodes and cores count
  std::string config_source;    // "--default-config and --config-file F"
  std::string config_in_force;  // DescribeVerticalConfig
  std::string config_error;     // the last rejected config's error
  VerticalCounts counts;
  std::map<std::string, ComputedResources> computed;
  std::vector<kube::ContainerResources> current;  // as last read
  std::vector<std::string> held;
  std::string resize_method;      // how a new size reaches the pods (--resize)
  std::string in_place;           // where in-place resize stands
  std::string in_place_fallback;  // the last fallback to replacing pods
  std::deque<ResizeDecision> decisions;  // newest first
  // For the pictures: "nodes", "cores" and each container's resources as
  // the target has them (ResourceSeries); a mark at each resize.
  History history;
  std::chrono::system_clock::time_point last_cycle{};
  std::string last_cycle_error;

  static constexpr size_t kMaxDecisions = 20;
};

// A container's resource on the pictures: "<container> <side>.<resource>",
// in ResourceChartUnit's unit.
std::string ResourceSeries(const std::string& container,
                           const std::string& side,
                           const std::string& resource);
// Millicores for cpu, MiB for memory and storage, else whole units.
const char* ResourceChartUnit(const std::string& resource);
int64_t ResourceChartValue(const std::string& resource, int64_t millis);
// Each container's requests and limits in `containers`, at `time`.
void RecordResources(const std::vector<kube::ContainerResources>& containers,
                     TimePoint time, History* history);

using VerticalStatusBoard = StatusBoard<VerticalStatus>;

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_STATUS_H_

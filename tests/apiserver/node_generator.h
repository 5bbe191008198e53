// Realistic Node objects for demos and benchmarks: labels (hostname, zone,
// region, instance type, os, arch), capacity and allocatable (cpu "4" and
// "3920m", memory "16Gi" and "15784Mi", pods, ephemeral-storage), the
// kubelet's conditions with Ready=True, addresses, nodeInfo and a list of
// cached images: about 3.5 KB of compact JSON each, as a kubelet would report.
// Deterministic: node i always looks the same.
#ifndef PROPSCALER_TESTS_APISERVER_NODE_GENERATOR_H_
#define PROPSCALER_TESTS_APISERVER_NODE_GENERATOR_H_

#include <map>
#include <string>
#include <vector>

namespace propscaler::sim {

struct NodeShape {
  std::string name;
  int index = 0;  // picks zone, addresses and image set
  int cpu_cores = 4;
  int memory_gib = 16;
  int max_pods = 110;
  std::string instance_type = "m5.xlarge";
  bool unschedulable = false;
  // Written after the generated ones (a node group's label, say).
  std::map<std::string, std::string> extra_labels;
};

// The Node as compact JSON (no uid or resourceVersion: the server sets them).
std::string MakeNodeJson(const NodeShape& shape);

// The shape of node `index` of a generated cluster named
// "<prefix><index>"; `cpu_cores` 0 mixes instance types of 2 to 8 cores.
NodeShape GeneratedNodeShape(const std::string& prefix, int index,
                             int cpu_cores);

// `count` nodes named prefix1..prefixN.
std::vector<std::string> GenerateNodes(const std::string& prefix, int count,
                                       int cpu_cores);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_NODE_GENERATOR_H_

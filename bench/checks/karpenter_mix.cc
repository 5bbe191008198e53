#include "checks/karpenter_mix.h"

#include <random>
#include <string>
#include <utility>

namespace propscaler::bench {
namespace {

using namespace ::propscaler::nodescale;  // NOLINT: the fixtures' subject

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";
constexpr const char* kHostnameKey = "kubernetes.io/hostname";
constexpr const char* kCapacityTypeKey = "karpenter.sh/capacity-type";
constexpr const char* kInstanceTypeKey = "node.kubernetes.io/instance-type";

Resources Amounts(int64_t cpu_millis, int64_t memory_bytes, int64_t pods) {
  Resources r;
  r.cpu_millis = cpu_millis;
  r.memory_bytes = memory_bytes;
  r.pods = pods;
  return r;
}

class KarpenterPods {
 public:
  explicit KarpenterPods(uint64_t seed) : rng_(seed) {}

  std::vector<PodState> Diverse(int count) {
    const int each = count / 5;
    for (int i = 0; i < each; ++i) Generic();
    for (int i = 0; i < each; ++i) Spread(kZoneKey);
    for (int i = 0; i < each; ++i) Spread(kHostnameKey);
    for (int i = 0; i < each; ++i) SelfAffinity(kZoneKey);
    for (int i = 0; i < each; ++i) AntiAffinity(kHostnameKey);
    while (static_cast<int>(pods_.size()) < count) Generic();
    return std::move(pods_);
  }

 private:
  std::string Value() {
    static constexpr const char* kValues[] = {"a", "b", "c", "d",
                                              "e", "f", "g"};
    return kValues[rng_() % 7];
  }
  Labels RandomLabels() { return {{"my-label", Value()}}; }
  // Requests drawn after the labels, cpu then memory, as the Go code does.
  PodState& Add(Labels labels) {
    static constexpr int64_t kCpu[] = {100, 250, 500, 1000, 1500};
    static constexpr int64_t kMemoryMi[] = {100, 256, 512, 1024, 2048, 4096};
    PodState pod;
    pod.namespace_ = "default";
    pod.name = "pod-" + std::to_string(pods_.size());
    pod.labels = std::move(labels);
    const int64_t cpu = kCpu[rng_() % 5];
    pod.requests = Amounts(cpu, kMemoryMi[rng_() % 6] * kMi, 1);
    pods_.push_back(std::move(pod));
    return pods_.back();
  }
  void Generic() { Add(RandomLabels()); }
  void Spread(const char* key) {
    Labels labels = RandomLabels();
    const Labels selected = RandomLabels();
    const LabelSelector selector =
        *LabelSelector::Parse("my-label=" + selected.begin()->second);
    Add(std::move(labels)).spread = {{1, key, selector, 0}};
  }
  void SelfAffinity(const char* key) {
    const std::string value = Value();
    const LabelSelector own = *LabelSelector::Parse("my-affininity=" + value);
    Add({{"my-affininity", value}}).affinity = {{own, {}, key}};
  }
  void AntiAffinity(const char* key) {
    const LabelSelector nginx = *LabelSelector::Parse("app=nginx");
    Add({{"app", "nginx"}}).anti_affinity = {{nginx, {}, key}};
  }

  std::mt19937_64 rng_;
  std::vector<PodState> pods_;
};

}  // namespace

std::vector<InstanceType> KarpenterInstanceTypes() {
  constexpr int kInstanceTypes = 400;
  const std::pair<const char*, const char*> offerings[] = {
      {"spot", "test-zone-1"},
      {"spot", "test-zone-2"},
      {"on-demand", "test-zone-1"},
      {"on-demand", "test-zone-2"},
      {"on-demand", "test-zone-3"}};
  std::vector<InstanceType> types;
  for (int i = 0; i < kInstanceTypes; ++i) {
    const int64_t cpus = i + 1;
    const int64_t memory = 2 * cpus * kGi;
    InstanceType type;
    type.name = "fake-it-" + std::to_string(i);
    type.labels[kInstanceTypeKey] = type.name;
    type.capacity = Amounts(cpus * 1000, memory, 10 * cpus);
    type.overhead = Amounts(100, 10 * kMi, 0);
    const double price = 0.1 * static_cast<double>(cpus) +
                         0.1 * static_cast<double>(memory) / 1e9;
    for (const auto& [capacity_type, zone] : offerings) {
      type.offerings.push_back(
          {{{kCapacityTypeKey, capacity_type}, {kZoneKey, zone}}, price, true});
    }
    types.push_back(std::move(type));
  }
  return types;
}

NodePoolSpec KarpenterNodePool() {
  NodePoolSpec pool;
  pool.name = "default";
  pool.disruption.name = "default";
  pool.limits["cpu"] = int64_t{10'000'000} * 1000;
  return pool;
}

std::vector<NodeGroup> KarpenterInstanceTypeGroups() {
  std::vector<NodeGroup> groups;
  for (const InstanceType& type : KarpenterInstanceTypes()) {
    for (const Offering& offering : type.offerings) {
      const std::string& capacity_type = offering.labels.at(kCapacityTypeKey);
      NodeGroup group;
      group.name =
          type.name + "-" + capacity_type + "-" + offering.labels.at(kZoneKey);
      group.capacity_type = capacity_type;
      group.max_size = 1'000'000;
      group.price = offering.price;
      NodeTemplate t;
      t.allocatable = type.Allocatable();
      for (const auto& [k, v] : type.labels) t.labels[k] = v;
      for (const auto& [k, v] : offering.labels) t.labels[k] = v;
      group.declared_template = t;
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

std::vector<PodState> KarpenterDiversePods(int count, uint64_t seed) {
  return KarpenterPods(seed).Diverse(count);
}

}  // namespace propscaler::bench

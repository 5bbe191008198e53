#include "nodescale/domain/kwok_catalogue.h"

#include <algorithm>
#include <string>

#include "nodescale/domain/instance_types_json.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;

// A whole number of GiB as a Kubernetes quantity prints it ("1Ti" for
// 1024Gi).
std::string MemoryText(int64_t gib) {
  if (gib % 1024 == 0) return std::to_string(gib / 1024) + "Ti";
  return std::to_string(gib) + "Gi";
}

}  // namespace

std::vector<InstanceType> KwokDefaultInstanceTypes() {
  constexpr int64_t kCpus[] = {1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256};
  constexpr std::pair<int64_t, const char*> kFamilies[] = {
      {2, "c"}, {4, "s"}, {8, "m"}};
  constexpr const char* kSystems[] = {"linux", "windows"};
  constexpr const char* kArchitectures[] = {"amd64", "arm64"};
  constexpr const char* kZones[] = {"test-zone-a", "test-zone-b", "test-zone-c",
                                    "test-zone-d"};
  std::vector<InstanceType> types;
  for (int64_t cpu : kCpus) {
    for (const auto& [per_cpu, family] : kFamilies) {
      const int64_t gib = cpu * per_cpu;
      Resources capacity;
      capacity.cpu_millis = cpu * 1000;
      capacity.memory_bytes = gib * kGi;
      capacity.pods = std::min<int64_t>(16 * cpu, 1024);
      capacity.ephemeral_storage_bytes = 20 * kGi;
      const double on_demand =
          0.025 * static_cast<double>(cpu) +
          0.001 * static_cast<double>(capacity.memory_bytes) / 1e9;
      for (const char* os : kSystems) {
        for (const char* arch : kArchitectures) {
          const std::string name = std::string(family) + "-" +
                                   std::to_string(cpu) + "x-" + arch + "-" + os;
          std::vector<Offering> offerings;
          for (const char* zone : kZones) {
            for (const char* capacity_type : {"spot", "on-demand"}) {
              const bool spot = std::string_view(capacity_type) == "spot";
              offerings.push_back(
                  {{{std::string(kCapacityTypeLabel), capacity_type},
                    {"topology.kubernetes.io/zone", zone}},
                   spot ? on_demand * 0.7 : on_demand,
                   true});
            }
          }
          types.push_back(KwokInstanceType(name, arch, {os}, capacity,
                                           std::to_string(cpu), MemoryText(gib),
                                           std::move(offerings)));
        }
      }
    }
  }
  return types;
}

}  // namespace propscaler::nodescale

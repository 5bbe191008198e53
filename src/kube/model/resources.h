// Resources: the amounts a node offers and a pod requests, in exact integer
// units (millicores, bytes, pod slots, and counts of extended resources such
// as nvidia.com/gpu). Pure value type; no I/O.
#ifndef PROPSCALER_KUBE_MODEL_RESOURCES_H_
#define PROPSCALER_KUBE_MODEL_RESOURCES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace propscaler::kube {

struct Resources {
  int64_t cpu_millis = 0;
  int64_t memory_bytes = 0;
  int64_t ephemeral_storage_bytes = 0;
  int64_t pods = 0;
  // Sorted by name; most pods and nodes have none, so a small vector beats a
  // map on the hot path.
  std::vector<std::pair<std::string, int64_t>> extended;

  int64_t Extended(const std::string& name) const;
  void SetExtended(const std::string& name, int64_t amount);

  Resources& operator+=(const Resources& other);
  Resources& operator-=(const Resources& other);
  bool operator==(const Resources&) const = default;
};

Resources operator+(Resources a, const Resources& b);
Resources operator-(Resources a, const Resources& b);

// Each amount of `request` is at most the same amount of `free` (an extended
// resource the node lacks counts as 0). Inline: the packing loops call it
// millions of times.
bool FitsExtended(const Resources& request, const Resources& free);
inline bool Fits(const Resources& request, const Resources& free) {
  if (request.cpu_millis > free.cpu_millis ||
      request.memory_bytes > free.memory_bytes || request.pods > free.pods ||
      request.ephemeral_storage_bytes > free.ephemeral_storage_bytes) {
    return false;
  }
  return request.extended.empty() || FitsExtended(request, free);
}

// Names the first resource of `request` that exceeds `free`, e.g. "cpu";
// empty when it fits.
std::string FirstShortResource(const Resources& request, const Resources& free);

// How many copies of `request` fit in `free` at once; INT64_MAX when the
// request is all zeros.
int64_t MaxCopies(const Resources& request, const Resources& free);

// `r` with every amount multiplied by `k`.
Resources Times(Resources r, int64_t k);

// free -= k x request, without a temporary.
void SubtractTimes(const Resources& request, int64_t k, Resources* free);

// The per-resource maximum: a pod needs the larger of its running
// containers' sum and its largest init container.
Resources Max(const Resources& a, const Resources& b);

// The amount `text` (a quantity: "500m", "1Gi") of resource `name` into
// `out`: cpu in millicores, the rest in units.
Status SetResourceAmount(std::string_view name, std::string_view text,
                         Resources* out);

// What the scheduler reserves for a pod: max(sum of containers, each init
// container) + overhead, plus one pod slot.
Resources EffectivePodRequests(const std::vector<Resources>& containers,
                               const std::vector<Resources>& init_containers,
                               const Resources& overhead);
// A pod's limits as Kubernetes sums them: max(sum of containers, each init
// container), the overhead added to each resource that has a limit; no pod
// slot.
Resources EffectivePodLimits(const std::vector<Resources>& containers,
                             const std::vector<Resources>& init_containers,
                             const Resources& overhead);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_MODEL_RESOURCES_H_

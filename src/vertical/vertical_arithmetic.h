// cluster-proportional-vertical-autoscaler's arithmetic, exactly: each
// resource is base + step * ceil(count / perStep), once for cores and once
// for nodes, each capped at max (when max > 0); the larger wins. A perStep
// of 0 adds no steps; 1 adds one per core or node; a negative one divides
// as Go does (towards zero). Results are in thousandths (millicores, or
// thousandths of a byte), saturating instead of overflowing. Pure.
#ifndef PROPSCALER_VERTICAL_VERTICAL_ARITHMETIC_H_
#define PROPSCALER_VERTICAL_VERTICAL_ARITHMETIC_H_

#include <cstdint>
#include <map>
#include <string>

#include "vertical/vertical_config.h"

namespace propscaler {

// What the arithmetic counts: nodes and whole cores.
struct VerticalCounts {
  int64_t nodes = 0;
  int64_t cores = 0;
  bool operator==(const VerticalCounts&) const = default;
};

int64_t ScaledMillis(const ResourceScale& scale, const VerticalCounts& counts);

// One container's computed requests and limits, by resource name.
struct ComputedResources {
  std::map<std::string, int64_t> requests;
  std::map<std::string, int64_t> limits;
  bool operator==(const ComputedResources&) const = default;
};

// Every container of `config`, by container name.
std::map<std::string, ComputedResources> ComputeResources(
    const VerticalConfig& config, const VerticalCounts& counts);

}  // namespace propscaler

#endif  // PROPSCALER_VERTICAL_VERTICAL_ARITHMETIC_H_

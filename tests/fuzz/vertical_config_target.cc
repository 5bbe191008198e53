#include <string_view>

#include "common/quantity_format.h"
#include "fuzz/fuzz_targets.h"
#include "vertical/vertical_arithmetic.h"
#include "vertical/vertical_config.h"

namespace propscaler::fuzz {

void FuzzVerticalConfig(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  Result<VerticalConfig> config = ParseVerticalConfig(json, "fuzz");
  if (!config.ok()) return;
  (void)VerticalConfigWarnings(*config);
  (void)DescribeVerticalConfig(*config);
  for (const VerticalCounts& counts :
       {VerticalCounts{0, 0}, VerticalCounts{4, 7},
        VerticalCounts{INT64_MAX, INT64_MAX}, VerticalCounts{-1, INT64_MIN}}) {
    for (const auto& [name, computed] : ComputeResources(*config, counts)) {
      for (const auto& [resource, millis] : computed.requests) {
        (void)FormatMilliQuantity(millis, CpvaFormatOf(resource));
      }
    }
  }
}

}  // namespace propscaler::fuzz

#include <string_view>

#include "common/quantity.h"
#include "fuzz/fuzz_targets.h"

namespace propscaler::fuzz {

void FuzzQuantity(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (Result<int64_t> millis = ParseMilliQuantity(text); millis.ok()) {
    (void)MilliToUnitsRoundUp(*millis);
  }
  (void)ParseQuantity(text);
}

}  // namespace propscaler::fuzz

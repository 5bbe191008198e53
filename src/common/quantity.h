// Kubernetes resource quantities ("4", "3500m", "1.5", "16Gi", "1e3", "2k").
//
// Parsing is exact: the decimal mantissa and the suffix (decimal SI n u m k M
// G T P E, binary Ki Mi Gi Ti Pi Ei, or an exponent e/E) are combined without
// floating point, then rounded UP to the requested unit, as the Kubernetes
// Quantity's Value() and MilliValue() do. Pure; no I/O.
#ifndef PROPSCALER_COMMON_QUANTITY_H_
#define PROPSCALER_COMMON_QUANTITY_H_

#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace propscaler {

// The quantity in thousandths of its unit, rounded up ("3500m" -> 3500,
// "1.5" -> 1500, "1n" -> 1). Errors name the text and what is wrong with it;
// values beyond int64 are errors.
Result<int64_t> ParseMilliQuantity(std::string_view text);

// The quantity in whole units, rounded up ("16Gi" -> 17179869184,
// "100m" -> 1).
Result<int64_t> ParseQuantity(std::string_view text);

// Whole units from thousandths, rounded up: the Value() of a sum of
// quantities that were each taken with ParseMilliQuantity.
int64_t MilliToUnitsRoundUp(int64_t millis);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_QUANTITY_H_

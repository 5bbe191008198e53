// Writes a quantity as Kubernetes' Quantity.String() writes one made with
// NewQuantity(0, format) and SetMilli(millis): the canonical form, e.g.
// 17m, 2, 15728640 (memory, decimal), 2Ki (cores, binary). A binary quantity
// under 1024 or with a fraction is written in decimal, as Kubernetes does.
// Pure.
#ifndef PROPSCALER_COMMON_QUANTITY_FORMAT_H_
#define PROPSCALER_COMMON_QUANTITY_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace propscaler {

enum class QuantityFormat { kDecimalSI, kBinarySI };

std::string FormatMilliQuantity(int64_t millis, QuantityFormat format);

// The format cluster-proportional-vertical-autoscaler gives a resource:
// decimal for memory and storage, binary for every other (cpu included).
QuantityFormat CpvaFormatOf(std::string_view resource);

// "4", "3.5", "0.25": CPU in cores from thousandths.
std::string FormatCores(int64_t millis);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_QUANTITY_FORMAT_H_

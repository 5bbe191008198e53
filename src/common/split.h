// Splitting text at a separator, keeping empty parts ("a,,b" is three).
#ifndef PROPSCALER_COMMON_SPLIT_H_
#define PROPSCALER_COMMON_SPLIT_H_

#include <string_view>
#include <vector>

namespace propscaler {

// Views into `text`; as many parts as separators plus one.
std::vector<std::string_view> Split(std::string_view text, char separator);

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_SPLIT_H_

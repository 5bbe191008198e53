// Reads the continue token at the head of a list response (Kubernetes
// writes metadata before items) without decoding the items, so the next
// page can be requested while this one is decoded.
#ifndef PROPSCALER_KUBE_WIRE_LIST_HEAD_H_
#define PROPSCALER_KUBE_WIRE_LIST_HEAD_H_

#include <optional>
#include <string>
#include <string_view>

namespace propscaler::kube {

// metadata.continue ("" on the last page) when the top-level metadata comes
// before items; nullopt when it does not, or the text is not a list object.
std::optional<std::string> PeekContinueToken(std::string_view body);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_LIST_HEAD_H_

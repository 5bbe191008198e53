#include <string>

#include "fuzz/fuzz_targets.h"
#include "transport/client_config.h"

namespace propscaler::fuzz {

void FuzzKubeconfig(const uint8_t* data, size_t size) {
  const std::string yaml(reinterpret_cast<const char*>(data), size);
  (void)kube::ParseKubeconfig(yaml, "/nonexistent");
}

}  // namespace propscaler::fuzz

#include "nodescale/plan/buffers/buffer_conditions.h"

#include <algorithm>

namespace propscaler::nodescale {

void HoldChunks(int64_t wanted, const ChunkBound& bound, BufferResolution* r) {
  r->replicas = std::min(wanted, bound.chunks);
  if (wanted > bound.chunks) {
    r->asked = wanted;
    r->held_why = bound.why;
  }
}

kube::BufferCondition ReadyCondition(const BufferResolution& r) {
  if (r.replicas) {
    return {"ReadyForProvisioning", "True", "AttributesSetSuccessfully", "",
            ""};
  }
  return {"ReadyForProvisioning", "False", r.not_ready_reason, r.message, ""};
}

kube::BufferCondition ProvisioningCondition(const BufferResolution& r) {
  if (!r.replicas) {
    return {"Provisioning", "False", "NotReadyForProvisioning",
            "the buffer is not ready for provisioning: " + r.message, ""};
  }
  if (*r.replicas == 0) {
    return {"Provisioning", "False", "BufferIsEmpty",
            "the buffer asks for 0 chunks", ""};
  }
  if (r.asked > *r.replicas) {
    return {"Provisioning", "False", "ChunksCapped",
            "asks for " + std::to_string(r.asked) + " chunks, more than " +
                r.held_why + ": " + std::to_string(*r.replicas) +
                " virtual pods injected",
            ""};
  }
  if (r.unfit > 0) {
    return {"Provisioning", "False", "NoNodeGroupFits",
            std::to_string(r.unfit) + "/" + std::to_string(*r.replicas) +
                " virtual pods fit no node group:" + r.unfit_reasons,
            ""};
  }
  return {"Provisioning", "True", "FakePodsInjected",
          std::to_string(*r.replicas) +
              " virtual pods hold room on existing or new nodes",
          ""};
}

}  // namespace propscaler::nodescale

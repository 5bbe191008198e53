// What a CapacityBuffer came to in one iteration (resolved or not, how many
// chunks held and why no more, the virtual pods no group fits) and the two
// status conditions that say so, with the reasons Cluster Autoscaler and
// Karpenter write (NoNodeGroupFits and ChunksCapped are propscaler's). Pure.
#ifndef PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_CONDITIONS_H_
#define PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_CONDITIONS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "kube/model/capacity_buffer.h"
#include "nodescale/plan/buffers/buffer_demand.h"

namespace propscaler::nodescale {

struct BufferResolution {
  kube::CapacityBuffer buffer;
  std::string chunk_template;  // the PodTemplate used; "" for a scalableRef
  std::optional<int64_t> replicas;  // chunks held; nullopt: unresolved
  int64_t asked = 0;                // chunks wanted, when more than held
  std::string held_why;             // why no more are held
  std::string not_ready_reason;     // why unresolved, and how
  std::string message;
  // Virtual pods the scale-up could place nowhere, and why.
  int64_t unfit = 0;
  std::string unfit_reasons;
};

// The buffer wants `wanted` chunks: it holds at most `bound`'s.
void HoldChunks(int64_t wanted, const ChunkBound& bound, BufferResolution* r);

// ReadyForProvisioning: whether the buffer resolved.
kube::BufferCondition ReadyCondition(const BufferResolution& r);
// Provisioning: whether its virtual pods hold room, or why not.
kube::BufferCondition ProvisioningCondition(const BufferResolution& r);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_PLAN_BUFFERS_BUFFER_CONDITIONS_H_

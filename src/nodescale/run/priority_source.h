// Where the priority expander's patterns come from, read every loop (from a
// watched copy where app/ has one): the
// provider's own config (kwok's node-groups.json "priorities"), else Cluster
// Autoscaler's cluster-autoscaler-priority-expander ConfigMap in the
// namespace. Without either, or with a bad one, every group passes the
// priority step; the reason is logged once.
#ifndef PROPSCALER_NODESCALE_RUN_PRIORITY_SOURCE_H_
#define PROPSCALER_NODESCALE_RUN_PRIORITY_SOURCE_H_

#include <string>

#include "kube/client/client.h"
#include "nodescale/expander/priority.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/loop_options.h"

namespace propscaler::nodescale {

class PrioritySource {
 public:
  PrioritySource(const LoopOptions* options, const Provider* provider,
                 const kube::ConfigMapClient* config_maps);

  // The patterns in force now; none (every group passes) without a
  // config or with a bad one.
  PriorityConfig Current();

 private:
  // Logs `note` once until it changes ("": all is well).
  void Note(const std::string& note);

  const LoopOptions* options_;
  const Provider* provider_;
  const kube::ConfigMapClient* config_maps_;
  std::string last_note_;  // logged once until it changes
};

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_RUN_PRIORITY_SOURCE_H_

// Writes replica mode's count as a HorizontalPodAutoscaler's
// spec.minReplicas (--hpa-floor, --hpa-floor-auto), so the HPA scales on
// load above the proportional floor: kept within 1..maxReplicas as the API
// requires (a cap is logged once), written as a merge patch of that field
// alone under the resourceVersion read; a 409 (someone edited the HPA
// between the read and the write) reads it again and re-applies, a few
// times, as for a scale.
#ifndef PROPSCALER_REPLICAS_HPA_FLOOR_WRITER_H_
#define PROPSCALER_REPLICAS_HPA_FLOOR_WRITER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "common/status.h"
#include "kube/client/client.h"
#include "kube/model/objects.h"
#include "kube/model/scale_target.h"
#include "replicas/replica_reporter.h"

namespace propscaler {

class HpaFloorWriter {
 public:
  struct Options {
    std::string namespace_;
    std::string version;  // autoscaling/VERSION written through
    std::string flag;     // "--hpa-floor" or "--hpa-floor-auto", for logs
    bool dry_run = false;
    std::function<bool()> may_act;  // empty: always
  };
  // `wrote` hands each answer to the copy the HPA is read from.
  HpaFloorWriter(const kube::HpaClient* client, ReplicaReporter* reporter,
                 Options options,
                 std::function<void(const kube::HpaRef&)> wrote);

  // Sets `hpa`'s minReplicas, the floor of `target`, to `desired`; `cause`
  // is what started the cycle.
  Status Write(const kube::ScaleTarget& target, kube::HpaRef hpa,
               int64_t desired, const ClusterCounts& counts,
               const std::string& cause);

  // "horizontalpodautoscaler NS/NAME (--hpa-floor)".
  std::string Ref(const std::string& hpa) const;

 private:
  // `desired` within 1..maxReplicas.
  int64_t Bounded(const kube::HpaRef& hpa, int64_t desired);
  Status Patch(const kube::ScaleTarget& target, const kube::HpaRef& read,
               int64_t wanted, const ClusterCounts& counts,
               const std::string& cause);

  const kube::HpaClient* client_;
  ReplicaReporter* reporter_;
  const Options options_;
  const std::function<void(const kube::HpaRef&)> wrote_;
  std::map<std::string, int64_t> capped_at_;  // by HPA: the cap last logged
};

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_HPA_FLOOR_WRITER_H_

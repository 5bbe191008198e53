#include "replicas/hpa_floor_writer.h"

#include <glog/logging.h>

#include <algorithm>

#include "replicas/hpa_floors.h"
#include "runtime/cycle_driver.h"

namespace propscaler {

HpaFloorWriter::HpaFloorWriter(const kube::HpaClient* client,
                               ReplicaReporter* reporter, Options options,
                               std::function<void(const kube::HpaRef&)> wrote)
    : client_(client),
      reporter_(reporter),
      options_(std::move(options)),
      wrote_(std::move(wrote)) {}

std::string HpaFloorWriter::Ref(const std::string& hpa) const {
  return "horizontalpodautoscaler " + options_.namespace_ + "/" + hpa + " (" +
         options_.flag + ")";
}

int64_t HpaFloorWriter::Bounded(const kube::HpaRef& hpa, int64_t desired) {
  const int64_t wanted = std::max<int64_t>(1, desired);
  if (hpa.max_replicas < 1 || wanted <= hpa.max_replicas) {
    capped_at_.erase(hpa.name);
    return wanted;
  }
  auto [logged, first] = capped_at_.try_emplace(hpa.name, hpa.max_replicas);
  LOG_IF(WARNING, first || logged->second != hpa.max_replicas)
      << Ref(hpa.name) << ": the computed floor " << desired
      << " is above its maxReplicas " << hpa.max_replicas
      << "; setting minReplicas to " << hpa.max_replicas
      << " (raise maxReplicas to let the floor follow the cluster)";
  logged->second = hpa.max_replicas;
  return hpa.max_replicas;
}

Status HpaFloorWriter::Write(const kube::ScaleTarget& target, kube::HpaRef hpa,
                             int64_t desired, const ClusterCounts& counts,
                             const std::string& cause) {
  const std::string name = hpa.name;
  constexpr int kAttempts = 3;
  Status status;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    const int64_t wanted = Bounded(hpa, desired);
    reporter_->TargetRead(target, hpa.min_replicas, wanted,
                          "minReplicas of horizontalpodautoscaler " + name);
    if (hpa.min_replicas == wanted) return Status::Ok();
    status = Patch(target, hpa, wanted, counts, cause);
    if (status.code() != StatusCode::kConflict || attempt == kAttempts) break;
    VLOG(1) << Ref(name) << " changed meanwhile; reading it again";
    Result<kube::HpaRef> fresh =
        client_->GetHpa(options_.namespace_, name, options_.version);
    if (!fresh.ok()) return fresh.status().WithContext("reading " + Ref(name));
    if (!HpaScales(*fresh, target)) {
      return Status(StatusCode::kConflict,
                    Ref(name) + " now scales " + fresh->target_kind + " " +
                        fresh->target_name + "; not written");
    }
    hpa = *fresh;
  }
  return status.WithContext("setting minReplicas of " + Ref(name));
}

Status HpaFloorWriter::Patch(const kube::ScaleTarget& target,
                             const kube::HpaRef& read, int64_t wanted,
                             const ClusterCounts& counts,
                             const std::string& cause) {
  LOG(INFO) << (options_.dry_run ? "dry run: would set " : "setting ")
            << "the floor of " << target.ToString() << ": " << Ref(read.name)
            << " minReplicas from " << read.min_replicas << " to " << wanted
            << " (" << DescribeCounts(counts) << ")";
  if (options_.dry_run) return Status::Ok();
  if (Status leading = runtime::CheckStillLeading(
          options_.may_act, "setting minReplicas of " + Ref(read.name));
      !leading.ok()) {
    return leading;
  }
  Result<kube::HpaRef> written = client_->PatchHpaMinReplicas(
      options_.namespace_, read.name, options_.version, read.resource_version,
      wanted);
  if (!written.ok()) return written.status();
  wrote_(*written);
  reporter_->FloorSet(target, read.name, options_.version, read.min_replicas,
                      wanted, counts, cause);
  return Status::Ok();
}

}  // namespace propscaler

#include "app/leader_election_flags.h"

#include <unistd.h>

#include <random>

#include "app/duration_flags.h"
#include "common/object_names.h"

DEFINE_bool(leader_elect, false,
            "Elect a leader on a Lease before acting, so that several "
            "replicas may run and one acts (the others serve /healthz and "
            "wait). Default: true in node-scale mode, false in replica and "
            "vertical mode.");
DEFINE_string(leader_elect_lease_duration, "15s",
              "How long a candidate waits, after the Lease last changed, "
              "before it takes the Lease over.");
DEFINE_string(leader_elect_renew_deadline, "10s",
              "The leader stops acting when it has not renewed the Lease for "
              "this long (shorter than the lease duration).");
DEFINE_string(leader_elect_retry_period, "2s",
              "Time between attempts to acquire or renew the Lease.");
DEFINE_string(leader_elect_resource_name, "",
              "Name of the Lease (in --namespace). Default: propscaler in "
              "node-scale mode, propscaler-replicas-CONFIGMAP in replica "
              "mode, propscaler-vertical-KIND-NAME (the target) in vertical "
              "mode.");

namespace propscaler {
namespace {

bool FlagGiven(const char* name) {
  return !gflags::GetCommandLineFlagInfoOrDie(name).is_default;
}

// client-go's: the hostname (the pod's name in a pod) and a random suffix,
// so that a restarted pod is a new candidate.
std::string CandidateIdentity() {
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  std::mt19937_64 random{std::random_device{}()};
  return std::string(host) + "_" + std::to_string(random() % 1000000000);
}

}  // namespace

Result<LeaderElectionSettings> LeaderElectionFromFlags(
    bool elect_by_default, const std::string& default_name,
    const std::string& ns) {
  LeaderElectionSettings s;
  s.enabled = FlagGiven("leader_elect") ? FLAGS_leader_elect : elect_by_default;
  kube::LeaderElectionConfig& config = s.config;
  config.namespace_ = ns;
  config.name = FlagGiven("leader_elect_resource_name")
                    ? FLAGS_leader_elect_resource_name
                    : default_name;
  config.identity = CandidateIdentity();
  Status durations = ParseDurationFlags({
      {"leader_elect_lease_duration", &config.lease_duration},
      {"leader_elect_renew_deadline", &config.renew_deadline},
      {"leader_elect_retry_period", &config.retry_period},
  });
  if (!durations.ok()) return durations;
  Status positive = CheckPositiveDurations({
      {"leader_elect_lease_duration", config.lease_duration},
      {"leader_elect_renew_deadline", config.renew_deadline},
      {"leader_elect_retry_period", config.retry_period},
  });
  if (!positive.ok()) return positive;
  if (config.renew_deadline >= config.lease_duration) {
    return Status::Invalid(
        "--leader-elect-renew-deadline=" +
        DashedFlag("leader_elect_renew_deadline").second +
        " must be shorter than --leader-elect-lease-duration=" +
        DashedFlag("leader_elect_lease_duration").second);
  }
  const bool named = FlagGiven("leader_elect_resource_name");
  if (!s.enabled && !named) return s;  // the default name is not used
  Status name =
      CheckDns1123Subdomain("leader-elect-resource-name", config.name);
  if (!name.ok() && !named) {
    return Status::Invalid(name.message() +
                           " (the default; set --leader-elect-resource-name)");
  }
  return name.ok() ? Result<LeaderElectionSettings>(s) : name;
}

}  // namespace propscaler

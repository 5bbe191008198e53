// --leader-elect and its Lease flags, shared by every mode with a default
// per mode: node-scale mode elects unless told not to (as Cluster
// Autoscaler), replica and vertical mode only with --leader-elect (one
// replica, as cluster-proportional-autoscaler runs, needs no Lease).
#ifndef PROPSCALER_APP_LEADER_ELECTION_FLAGS_H_
#define PROPSCALER_APP_LEADER_ELECTION_FLAGS_H_

#include <gflags/gflags.h>

#include <string>

#include "common/status.h"
#include "kube/controllers/leader_election.h"

DECLARE_bool(leader_elect);

namespace propscaler {

struct LeaderElectionSettings {
  bool enabled = false;
  kube::LeaderElectionConfig config;
};

// From the flags: `elect_by_default` when --leader-elect is not given, and
// the Lease `default_name` when --leader-elect-resource-name is not. The
// identity is this process's (hostname and a random suffix). Errors name
// the flag and its bad value.
Result<LeaderElectionSettings> LeaderElectionFromFlags(
    bool elect_by_default, const std::string& default_name,
    const std::string& ns);

}  // namespace propscaler

#endif  // PROPSCALER_APP_LEADER_ELECTION_FLAGS_H_

// Lets every flag be spelled with dashes or underscores
// (--poll-period-seconds and --poll_period_seconds), as CPA users write the
// former and gflags/glog define the latter.
#ifndef PROPSCALER_APP_FLAG_SPELLING_H_
#define PROPSCALER_APP_FLAG_SPELLING_H_

#include <string>
#include <vector>

namespace propscaler {

// Rewrites "--a-b=c" to "--a_b=c" and "-a-b" to "-a_b"; values are left
// alone (only the name before '=' changes). Everything after "--" is kept.
std::vector<std::string> NormalizeFlagSpelling(
    const std::vector<std::string>& args);

// Joins every value of flag `name` (spelled with underscores: after
// NormalizeFlagSpelling) given more than once, as --name=v or --name v,
// into one --name=v1<separator>v2 where the first stood; gflags would keep
// only the last. Cluster Autoscaler's repeatable flags are read this way.
std::vector<std::string> JoinRepeatedFlag(const std::vector<std::string>& args,
                                          const std::string& name,
                                          char separator);

}  // namespace propscaler

#endif  // PROPSCALER_APP_FLAG_SPELLING_H_

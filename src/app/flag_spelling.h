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

}  // namespace propscaler

#endif  // PROPSCALER_APP_FLAG_SPELLING_H_

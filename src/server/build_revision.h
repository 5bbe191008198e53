// The source revision this binary was built from, stamped at every build
// (not only at configure time): git's 12-character commit, with "-dirty"
// when the checkout had uncommitted changes; -DPROPSCALER_REVISION when
// given (an image built from a tarball); "unknown" outside a git checkout.
// /metrics (propscaler_build_info), --version and the benchmarks' result
// files report it.
#ifndef PROPSCALER_SERVER_BUILD_REVISION_H_
#define PROPSCALER_SERVER_BUILD_REVISION_H_

#include <string_view>

namespace propscaler {

std::string_view BuildRevision();
// CMAKE_BUILD_TYPE ("RelWithDebInfo", "Debug"...), which --version prints
// after the commit and the benchmarks' result files record.
std::string_view BuildType();

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_BUILD_REVISION_H_

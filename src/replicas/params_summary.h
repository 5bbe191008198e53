// A one-line, human-readable form of parsed params, for headings of
// `propscaler plan` output: "linear: coresPerReplica=256 nodesPerReplica=16
// preventSinglePointFailure". Only what is set is shown; a scaleDown policy
// with all three of its values. Pure.
#ifndef PROPSCALER_REPLICAS_PARAMS_SUMMARY_H_
#define PROPSCALER_REPLICAS_PARAMS_SUMMARY_H_

#include <string>

#include "replicas/params.h"

namespace propscaler {

std::string SummarizeParams(const Params& params);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_PARAMS_SUMMARY_H_

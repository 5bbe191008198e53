// The registry in the Prometheus text exposition format (0.0.4), as /metrics
// serves it: histograms with their +Inf bucket, _sum and _count.
#ifndef PROPSCALER_SERVER_METRICS_TEXT_H_
#define PROPSCALER_SERVER_METRICS_TEXT_H_

#include <string>

#include "common/metrics.h"

namespace propscaler {

std::string RenderMetricsText(const Metrics& metrics);

}  // namespace propscaler

#endif  // PROPSCALER_SERVER_METRICS_TEXT_H_

// Reads figures from a running propscaler's /metrics (Prometheus text).
#ifndef PROPSCALER_BENCH_HARNESS_METRICS_SCRAPE_H_
#define PROPSCALER_BENCH_HARNESS_METRICS_SCRAPE_H_

#include <map>
#include <string>
#include <vector>

#include "common/status.h"

namespace propscaler::bench {

// The values of series `names` (with their labels, as exposed) at
// http://127.0.0.1:`port`/metrics (0 for a series not there yet).
Result<std::map<std::string, double>> ScrapeMetrics(
    int port, const std::vector<std::string>& names);

// The sum of every series of counter `name` whose labels contain
// `label` (e.g. reason="expired"; "" for all).
Result<double> SumSeries(int port, const std::string& name,
                         const std::string& label = "");

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_METRICS_SCRAPE_H_

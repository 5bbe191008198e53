// Order statistics of measured samples, by nearest rank.
#ifndef PROPSCALER_BENCH_HARNESS_PERCENTILE_H_
#define PROPSCALER_BENCH_HARNESS_PERCENTILE_H_

#include <vector>

namespace propscaler::bench {

// The smallest sample with at least `fraction` of the samples at or below
// it (0.5: the median); 0 for no samples.
double Percentile(std::vector<double> samples, double fraction);

}  // namespace propscaler::bench

#endif  // PROPSCALER_BENCH_HARNESS_PERCENTILE_H_

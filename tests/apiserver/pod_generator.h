// Realistic running Pods for benchmarks: a Deployment's replica as the API
// server stores it, with labels, owner reference, a kubectl
// last-applied-configuration annotation (the Deployment's whole manifest, as
// `kubectl apply` leaves on it and its pods inherit when the template carries
// it), Prometheus annotations, three containers (the app, a proxy sidecar, a
// log shipper) with env, ports, probes, mounts, requests and limits, volumes,
// the default tolerations and a Running status with container statuses:
// about 6 KB of compact JSON each. Deterministic: pod i always looks the
// same.
#ifndef PROPSCALER_TESTS_APISERVER_POD_GENERATOR_H_
#define PROPSCALER_TESTS_APISERVER_POD_GENERATOR_H_

#include <string>

namespace propscaler::sim {

// Pod `index`, Running on `node`. Pods come 20 to a Deployment, whose pods
// share its namespace (RealisticPodNamespace), labels and template.
std::string MakeRealisticPodJson(int index, const std::string& node);
std::string RealisticPodNamespace(int index);  // "apps-0" to "apps-9"

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_POD_GENERATOR_H_

// The bodies of the libFuzzer targets: each takes arbitrary bytes and runs
// them through one parser of untrusted input, checking that it returns a
// value or an error and never crashes. fuzz_main.cc makes each a fuzzer
// (built with -DPROPSCALER_FUZZ=ON and clang); the unit test
// fuzz_regressions_test.cc replays the inputs kept under
// tests/fuzz/regressions/<target>/ through the same functions.
#ifndef PROPSCALER_TESTS_FUZZ_FUZZ_TARGETS_H_
#define PROPSCALER_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>

namespace propscaler::fuzz {

// ConfigMap params (linear, ladder, --default-params) and the replica
// arithmetic on whatever parses.
void FuzzParams(const uint8_t* data, size_t size);
// Resource quantities ("3500m", "16Gi").
void FuzzQuantity(const uint8_t* data, size_t size);
// kubeconfig YAML.
void FuzzKubeconfig(const uint8_t* data, size_t size);
// API list pages, watch events, ConfigMaps, Scales and Status bodies.
void FuzzDecode(const uint8_t* data, size_t size);
// Flag values: durations, MIN:MAX ranges, label selectors, taint lists,
// expander chains, target lists, object names, counts (the first byte picks
// which).
void FuzzFlags(const uint8_t* data, size_t size);
// Node-groups JSON, the priority expander's YAML, NodePools and kwok
// instance-type files (the first byte picks).
void FuzzNodeGroups(const uint8_t* data, size_t size);
// CapacityBuffer lists (each buffer counted as the loop counts it), the
// PodTemplates and workloads their chunks come from, and the PodTemplate
// lists and watch events ProvisioningRequests' pods come from (the first
// byte picks).
void FuzzCapacityBuffer(const uint8_t* data, size_t size);
// Vertical mode's config (CPVA's format), its arithmetic on whatever parses
// and the quantities it writes.
void FuzzVerticalConfig(const uint8_t* data, size_t size);

}  // namespace propscaler::fuzz

#endif  // PROPSCALER_TESTS_FUZZ_FUZZ_TARGETS_H_

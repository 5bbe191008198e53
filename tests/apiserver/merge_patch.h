// JSON Merge Patch (RFC 7386), as Kubernetes applies
// application/merge-patch+json: objects merge recursively, null deletes a
// member, anything else (arrays included) replaces.
#ifndef PROPSCALER_TESTS_APISERVER_MERGE_PATCH_H_
#define PROPSCALER_TESTS_APISERVER_MERGE_PATCH_H_

#include <rapidjson/document.h>

namespace propscaler::sim {

// Applies `patch` to `target` in place; values are copied with `alloc`
// (the target document's allocator).
void ApplyMergePatch(rapidjson::Value& target, const rapidjson::Value& patch,
                     rapidjson::Document::AllocatorType& alloc);

// application/strategic-merge-patch+json, as far as the simulated objects
// need it: a merge patch, except that the lists of a pod spec whose patch
// strategy is merge on "name" (containers, initContainers,
// ephemeralContainers) merge element by element, an element new by name
// added at the end.
void ApplyStrategicMergePatch(rapidjson::Value& target,
                              const rapidjson::Value& patch,
                              rapidjson::Document::AllocatorType& alloc);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_MERGE_PATCH_H_

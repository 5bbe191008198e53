// The in-memory cluster's nodes and pods as the live store would hand them
// to node-scale's executors: decoded from a list the simulated server
// serves, so each test reads the objects as they are now.
#ifndef PROPSCALER_TESTS_UNIT_NODESCALE_RUN_STORE_LISTS_H_
#define PROPSCALER_TESTS_UNIT_NODESCALE_RUN_STORE_LISTS_H_

#include <string_view>
#include <utility>
#include <vector>

#include "apiserver/list_response.h"
#include "apiserver/resources.h"
#include "apiserver/store_objects.h"
#include "kube/wire/pod_decode.h"
#include "nodescale/plan/simulation/snapshot.h"

namespace propscaler::nodescale::testing_util {

// Every object of `resource`, decoded; none when the list fails.
template <typename T>
std::vector<T> ListOf(const sim::ObjectStore& store, const char* resource,
                      Result<kube::ListPage<T>> (*decode)(std::string_view)) {
  sim::ApiResult<std::string> body =
      sim::ServeList(store, {sim::FindResourceType(resource), "", "", ""}, {});
  if (!body.ok()) return {};
  Result<kube::ListPage<T>> page = decode(body.value());
  return page.ok() ? std::move(page->items) : std::vector<T>();
}

inline SharedNodes StoreNodes(const sim::ObjectStore& store) {
  return SharedNodes(
      ListOf<kube::LiveNode>(store, "nodes", &kube::DecodeLiveNodeList));
}

inline SharedPods StorePods(const sim::ObjectStore& store) {
  return SharedPods(
      ListOf<kube::LivePod>(store, "pods", &kube::DecodeLivePodList));
}

}  // namespace propscaler::nodescale::testing_util

#endif  // PROPSCALER_TESTS_UNIT_NODESCALE_RUN_STORE_LISTS_H_

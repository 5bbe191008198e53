// Serves a list request from the store: the List object's JSON, one page of
// it when `limit` is set. Paging follows the real server: the continue token
// carries the first page's resourceVersion (reported by every page) and the
// last key served; a token older than the watch history is 410 Expired;
// resourceVersion=0 without a continue token ignores limit.
//
// Unlike etcd, later pages are read from the current state, not from the
// snapshot: objects changed between pages show their newer state.
#ifndef PROPSCALER_TESTS_APISERVER_LIST_RESPONSE_H_
#define PROPSCALER_TESTS_APISERVER_LIST_RESPONSE_H_

#include <string>

#include "apiserver/api_error.h"
#include "apiserver/list_options.h"
#include "apiserver/object_store.h"
#include "apiserver/resources.h"

namespace propscaler::sim {

ApiResult<std::string> ServeList(const ObjectStore& store,
                                 const ResourcePath& path,
                                 const ListOptions& options);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_LIST_RESPONSE_H_

// The query parameters of list and watch requests, parsed and validated:
// labelSelector, fieldSelector (metadata.name, metadata.namespace, and for
// pods spec.nodeName and status.phase), limit, continue, resourceVersion,
// watch, allowWatchBookmarks, timeoutSeconds, and for WatchList
// sendInitialEvents and resourceVersionMatch.
#ifndef PROPSCALER_TESTS_APISERVER_LIST_OPTIONS_H_
#define PROPSCALER_TESTS_APISERVER_LIST_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "apiserver/api_error.h"
#include "apiserver/object_store.h"
#include "common/label_selector.h"

namespace propscaler::sim {

struct FieldRequirement {
  std::string field;   // "metadata.name", "spec.nodeName", ...
  bool equals = true;  // = and == versus !=
  std::string value;
};

struct ListOptions {
  LabelSelector label_selector;
  std::vector<FieldRequirement> field_selector;
  size_t limit = 0;  // 0: no limit
  std::string continue_token;
  std::string resource_version;  // as given; "" when absent
  bool watch = false;
  bool allow_bookmarks = false;
  int timeout_seconds = 0;             // 0: the server's default
  std::string resource_version_match;  // "", "Exact" or "NotOlderThan"
  // A WatchList: the stream starts with the state as ADDED events and a
  // BOOKMARK annotated k8s.io/initial-events-end (true), or without it
  // (false); unset: the older rules of resourceVersion.
  std::optional<bool> send_initial_events;

  // Whether an object passes both selectors.
  bool Matches(const ObjectKey& key, const StoredObject& object) const;
};

// Which API server's rules for resourceVersionMatch on watches apply.
enum class WatchListSupport {
  // Kubernetes 1.32 and later (WatchList on by default): sendInitialEvents
  // with resourceVersionMatch=NotOlderThan.
  kSupported,
  // Before WatchList (kube-apiserver 1.20, as ../shared/envtest runs it):
  // sendInitialEvents is an unknown parameter (ignored) and
  // resourceVersionMatch is forbidden for watches (422).
  kBefore,
};

// From the decoded query parameters; 400 BadRequest for bad selectors or
// numbers, 422 Invalid for options the server's rules forbid.
ApiResult<ListOptions> ParseListOptions(
    const std::multimap<std::string, std::string>& params,
    WatchListSupport watch_list = WatchListSupport::kSupported);

// The opaque continue token: the snapshot's resourceVersion and the key of
// the last object served.
struct ContinueToken {
  int64_t resource_version = 0;
  ObjectKey last;
};
std::string EncodeContinue(const ContinueToken& token);
ApiResult<ContinueToken> DecodeContinue(const std::string& text);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_LIST_OPTIONS_H_

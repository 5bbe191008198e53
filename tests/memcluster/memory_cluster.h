// An in-memory cluster for tests of the control loops: the simulated API
// server's object store (resourceVersions, watches with bookmarks, 410 after
// compaction, 409 on stale resourceVersions, the scale subresource) without
// HTTP, its waits on a Clock (virtual in scenario tests), a kube::Client
// over it, and fault injection. A test library, not a second API server: the
// API's semantics are tests/apiserver's, checked against the real server.
//
// Thread-safe.
#ifndef PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLUSTER_H_
#define PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLUSTER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apiserver/node_generator.h"
#include "apiserver/object_store.h"
#include "apiserver/store_objects.h"
#include "common/clock.h"
#include "common/status.h"
#include "kube/client/client.h"

namespace propscaler::memcluster {

class MemoryCluster {
 public:
  explicit MemoryCluster(const Clock* clock, size_t history_size = 10000);
  ~MemoryCluster();
  MemoryCluster(const MemoryCluster&) = delete;
  MemoryCluster& operator=(const MemoryCluster&) = delete;

  // What the loops under test talk to.
  const kube::Client& client() const { return *client_; }
  sim::ObjectStore& store() { return store_; }
  const Clock& clock() const { return *clock_; }

  // A fault is asked before every client call, named "VERB RESOURCE"
  // ("list nodes", "watch configmaps", "get deployments/scale", "update
  // deployments/scale", "create events", ...); a non-OK answer fails the
  // call without touching the store. Empty: no faults.
  using Fault = std::function<Status(std::string_view call)>;
  void SetFault(Fault fault);
  Status CheckFault(std::string_view call) const;
  // How many client calls of each name were made (faulted ones included).
  std::map<std::string, int64_t> Calls() const;

  // Called on the caller's thread after a write ("update deployments/scale",
  // "patch deployments", "patch nodes", "update configmaps", ...) is
  // committed and before its answer is returned: a busy server that answers
  // late. The hook may wait on the clock and write as another writer would.
  using AnswerHook = std::function<void(std::string_view call)>;
  void SetAnswerHook(AnswerHook hook);
  void Answering(std::string_view call) const;

  // Test set-up and read-back: the functions of apiserver/store_objects.h
  // on store(), and these.
  Status AddNode(const sim::NodeShape& shape);
  // Sets the node's Ready condition (the only condition it keeps).
  Status SetNodeReady(const std::string& name, bool ready);

 private:
  const Clock* clock_;
  sim::ObjectStore store_;
  std::unique_ptr<kube::Client> client_;
  mutable std::mutex mutex_;
  Fault fault_;
  AnswerHook answer_hook_;
  mutable std::map<std::string, int64_t> calls_;
};

}  // namespace propscaler::memcluster

#endif  // PROPSCALER_TESTS_MEMCLUSTER_MEMORY_CLUSTER_H_

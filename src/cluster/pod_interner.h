// Makes equal frozen values of the live pods one shared copy: pods of one
// controller have the same labels, tolerations, selectors, affinity and
// owner, so 30,000 pods of 1,500 Deployments keep 1,500 label sets, not
// 30,000.
// Values no pod holds any more are dropped as the pools grow. Not
// thread-safe: the live store calls it under its lock.
#ifndef PROPSCALER_CLUSTER_POD_INTERNER_H_
#define PROPSCALER_CLUSTER_POD_INTERNER_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "common/frozen.h"
#include "kube/model/node_scale_objects.h"

namespace propscaler {

template <typename T>
class InternPool {
 public:
  // `*value` becomes the pool's copy of an equal value, or the pool's copy.
  void Intern(Frozen<T>* value);
  // Drops the values only the pool holds.
  void Sweep();
  size_t size() const { return values_.size(); }

 private:
  struct ByValue {
    using is_transparent = void;
    bool operator()(const Frozen<T>& a, const Frozen<T>& b) const {
      return a.get() < b.get();
    }
    bool operator()(const Frozen<T>& a, const T& b) const {
      return a.get() < b;
    }
    bool operator()(const T& a, const Frozen<T>& b) const {
      return a < b.get();
    }
  };

  std::set<Frozen<T>, ByValue> values_;
  size_t added_since_sweep_ = 0;
};

class PodInterner {
 public:
  void Intern(kube::PodState* pod);
  // Distinct values kept, all pools together.
  size_t size() const;

 private:
  InternPool<Labels> labels_;  // labels, annotations and node selectors
  InternPool<std::vector<kube::NodeSelectorTerm>> node_affinity_;
  InternPool<std::vector<kube::Toleration>> tolerations_;
  InternPool<std::vector<kube::PodAffinityTerm>> affinity_;  // and anti-
  InternPool<std::vector<kube::SpreadConstraint>> spread_;
  InternPool<kube::PodPreferences> preferences_;
  InternPool<std::vector<kube::HostPort>> host_ports_;
  InternPool<std::string> names_;  // owner kinds and names
};

}  // namespace propscaler

#endif  // PROPSCALER_CLUSTER_POD_INTERNER_H_

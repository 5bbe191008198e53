#include "cluster/pod_interner.h"

#include <iterator>
#include <utility>

namespace propscaler {

template <typename T>
void InternPool<T>::Intern(Frozen<T>* value) {
  if (value->identity() == nullptr) return;  // empty: nothing to share
  auto found = values_.find(value->get());
  if (found != values_.end()) {
    *value = *found;
    return;
  }
  values_.insert(*value);
  // Sweeping once the pool has doubled keeps it O(1) per value added and
  // the pool at most about twice the values in use.
  if (++added_since_sweep_ > values_.size() / 2) Sweep();
}

template <typename T>
void InternPool<T>::Sweep() {
  std::erase_if(values_,
                [](const Frozen<T>& value) { return value.use_count() == 1; });
  added_since_sweep_ = 0;
}

void PodInterner::Intern(kube::PodState* pod) {
  labels_.Intern(&pod->labels);
  labels_.Intern(&pod->annotations);
  labels_.Intern(&pod->node_selector);
  node_affinity_.Intern(&pod->node_affinity);
  tolerations_.Intern(&pod->tolerations);
  affinity_.Intern(&pod->affinity);
  affinity_.Intern(&pod->anti_affinity);
  spread_.Intern(&pod->spread);
  preferences_.Intern(&pod->preferences);
  host_ports_.Intern(&pod->host_ports);
  names_.Intern(&pod->owner_kind);
  names_.Intern(&pod->owner_name);
}

size_t PodInterner::size() const {
  return labels_.size() + node_affinity_.size() + tolerations_.size() +
         affinity_.size() + spread_.size() + preferences_.size() +
         host_ports_.size() + names_.size();
}

}  // namespace propscaler

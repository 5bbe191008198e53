// The taints of --exclude-node-taints: a node carrying any of them counts as
// not schedulable (it still counts among all nodes and cores), as a cordoned
// node does. Entries are "key" (any effect) or "key:Effect". Immutable after
// Parse, so safe to share between threads; pure, no I/O.
#ifndef PROPSCALER_COMMON_TAINT_FILTER_H_
#define PROPSCALER_COMMON_TAINT_FILTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace propscaler {

class TaintFilter {
 public:
  // The empty filter matches no taint.
  TaintFilter() = default;

  // Parses "key[:Effect],...": entries trimmed, keys valid label keys, Effect
  // one of NoSchedule, PreferNoSchedule, NoExecute. Empty text: the empty
  // filter. Errors name the bad entry; callers add the flag.
  static Result<TaintFilter> Parse(std::string_view text);

  // True when a taint with this key and effect is excluded.
  bool Matches(std::string_view key, std::string_view effect) const;
  bool empty() const { return entries_.empty(); }
  // The entries as parsed, comma-joined, for logs.
  std::string ToString() const;

 private:
  struct Entry {
    std::string key;
    std::string effect;  // empty: any
  };
  std::vector<Entry> entries_;
};

}  // namespace propscaler

#endif  // PROPSCALER_COMMON_TAINT_FILTER_H_

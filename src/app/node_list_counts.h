// Counts a node list file (what `kubectl get nodes -o json` prints) the way
// replica mode counts the live cluster: only nodes matching the label
// selector, schedulable by the rule in kube/model/node_info.h (a taint
// `excluded` matches makes a node not schedulable), cores rounded up once
// from the exact sum. For `propscaler plan --nodes`. No I/O.
#ifndef PROPSCALER_APP_NODE_LIST_COUNTS_H_
#define PROPSCALER_APP_NODE_LIST_COUNTS_H_

#include <cstdint>
#include <string_view>

#include "common/label_selector.h"
#include "common/status.h"
#include "common/taint_filter.h"
#include "replicas/arithmetic.h"

namespace propscaler {

struct NodeListCounts {
  int64_t listed = 0;    // every node in the list
  ClusterCounts counts;  // of the nodes matching the selector
};

// Errors name the field path and the bad value ("items[2].status...").
Result<NodeListCounts> CountNodeListJson(std::string_view text,
                                         const LabelSelector& selector,
                                         const TaintFilter& excluded = {});

}  // namespace propscaler

#endif  // PROPSCALER_APP_NODE_LIST_COUNTS_H_

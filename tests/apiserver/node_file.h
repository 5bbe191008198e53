// Reads a file of nodes: a List as `kubectl get nodes -o json` prints it
// ({"items":[...]}), a JSON array of nodes, or a single Node.
#ifndef PROPSCALER_TESTS_APISERVER_NODE_FILE_H_
#define PROPSCALER_TESTS_APISERVER_NODE_FILE_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace propscaler::sim {

// Each node as compact JSON. Errors name the file and what is wrong.
Result<std::vector<std::string>> ReadNodeFile(const std::string& path);

}  // namespace propscaler::sim

#endif  // PROPSCALER_TESTS_APISERVER_NODE_FILE_H_

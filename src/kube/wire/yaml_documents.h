// YAML documents (kubectl's `---`-separated manifests) as the JSON values
// the object decoders read: a mapping is an object, a sequence an array, a
// quoted scalar a string, a plain one a boolean, null, integer or number
// when it reads as one (YAML 1.2's core schema) and else a string. No I/O.
#ifndef PROPSCALER_KUBE_WIRE_YAML_DOCUMENTS_H_
#define PROPSCALER_KUBE_WIRE_YAML_DOCUMENTS_H_

#include <rapidjson/document.h>

#include <string_view>

#include "common/status.h"

namespace propscaler::kube {

// Every non-empty document of `text`, in order, as one JSON array. A
// syntax error names the line and column.
Result<rapidjson::Document> YamlDocumentsAsJson(std::string_view text);

}  // namespace propscaler::kube

#endif  // PROPSCALER_KUBE_WIRE_YAML_DOCUMENTS_H_

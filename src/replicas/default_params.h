// What to do with the params ConfigMap given --default-params.
//
// CPA only creates a missing ConfigMap. propscaler also records a hash of the
// data it wrote, so that when the flag changes it can update a ConfigMap that
// nobody has edited since, and leave an edited one alone. Pure.
#ifndef PROPSCALER_REPLICAS_DEFAULT_PARAMS_H_
#define PROPSCALER_REPLICAS_DEFAULT_PARAMS_H_

#include <map>
#include <optional>
#include <string>

namespace propscaler {

using ConfigMapData = std::map<std::string, std::string>;

inline constexpr char kDefaultParamsHashAnnotation[] =
    "propscaler.io/default-params-hash";

enum class DefaultParamsAction {
  kNone,        // holds the defaults, or was edited to equal them
  kCreate,      // absent
  kUpdate,      // still what propscaler wrote, but the defaults changed
  kKeepEdited,  // a person edited it: leave it, say once that it differs
};

struct ConfigMapContent {
  ConfigMapData data;
  std::optional<std::string> written_hash;  // the annotation, if present
};

DefaultParamsAction DecideDefaultParams(
    const std::optional<ConfigMapContent>& current,
    const ConfigMapData& defaults);

// A stable hash (FNV-1a 64, hex) of the data, independent of map order.
std::string HashConfigMapData(const ConfigMapData& data);

}  // namespace propscaler

#endif  // PROPSCALER_REPLICAS_DEFAULT_PARAMS_H_

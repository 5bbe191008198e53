// A pool's disruption settings at a JSON value (the groups file's pools,
// Cluster API's annotations, a NodePool's spec): for decoders only.
#ifndef PROPSCALER_NODESCALE_DOMAIN_POOL_SETTINGS_VALUE_H_
#define PROPSCALER_NODESCALE_DOMAIN_POOL_SETTINGS_VALUE_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>

#include "common/status.h"
#include "nodescale/domain/node_group.h"

namespace propscaler::nodescale {

// `item`'s expireAfter, migrateToPreferred and disruption (consolidation
// policy, consolidateAfter, budgets) over `pool`'s; errors name `path`.
Result<NodePool> DecodePoolSettings(const rapidjson::Value& item,
                                    const std::string& path, NodePool pool);

// A duration at `object`[`name`]: "30s", "1h30m", or "Never" (nullopt);
// `absent` when missing.
Result<std::optional<Duration>> PoolDurationAt(const rapidjson::Value& object,
                                               const char* name,
                                               const std::string& path,
                                               std::optional<Duration> absent);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_DOMAIN_POOL_SETTINGS_VALUE_H_

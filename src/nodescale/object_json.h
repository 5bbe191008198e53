// Decoding of one Pod or Node object, already parsed, into the snapshot's
// compact form: what snapshot_json does per list item, shared with the live
// loop's watch decoders. Errors start with `path` ("items[2]", "object").
#ifndef PROPSCALER_NODESCALE_OBJECT_JSON_H_
#define PROPSCALER_NODESCALE_OBJECT_JSON_H_

#include <rapidjson/document.h>

#include <string>

#include "common/status.h"
#include "nodescale/snapshot.h"

namespace propscaler::nodescale {

Result<PodState> DecodePodObject(const rapidjson::Value& item,
                                 const std::string& path);
Result<NodeState> DecodeNodeObject(const rapidjson::Value& item,
                                   const std::string& path);

}  // namespace propscaler::nodescale

#endif  // PROPSCALER_NODESCALE_OBJECT_JSON_H_

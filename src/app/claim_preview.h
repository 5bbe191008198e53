// The node claims `propscaler simulate --node-pools` previews, rendered:
// nodeClaims, existingNodes, placementOrder and unschedulable in the JSON,
// and their section of the table.
#ifndef PROPSCALER_APP_CLAIM_PREVIEW_H_
#define PROPSCALER_APP_CLAIM_PREVIEW_H_

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <vector>

#include "nodescale/plan/claims/claim_scheduler.h"

namespace propscaler {

struct ClaimPreview {
  const nodescale::ClaimPlan* plan = nullptr;
  const nodescale::ClusterSnapshot* snapshot = nullptr;
  const std::vector<nodescale::NodePoolSpec>* pools = nullptr;
  const std::vector<nodescale::InstanceType>* catalogue = nullptr;
};

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// "nodeClaims":[{"name","nodePool","instanceType","zone","capacityType",
//   "price","compatibleInstanceTypes","pods":[...]}],
// "existingNodes":[{"name","pods":[...]}], "placementOrder":[...],
// "unschedulable":[{"pod","reasons":{nodePool:reason}}]; pods as
// "namespace/name".
void WriteClaimPreview(const ClaimPreview& preview, JsonWriter* w);

std::string ClaimPreviewTable(const ClaimPreview& preview);

// An amount per hour as the table prints it: "0.1234".
std::string MoneyText(double amount);

}  // namespace propscaler

#endif  // PROPSCALER_APP_CLAIM_PREVIEW_H_

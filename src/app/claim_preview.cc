#include "app/claim_preview.h"

#include <cstdio>
#include <sstream>

namespace propscaler {
namespace {

using nodescale::ClaimPlan;
using nodescale::PlannedClaim;

constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";
constexpr const char* kCapacityTypeLabel = "karpenter.sh/capacity-type";

std::string LabelOf(const PlannedClaim& claim, const char* key) {
  auto it = claim.labels.find(key);
  return it == claim.labels.end() ? std::string() : it->second;
}

void WritePods(const ClaimPreview& preview, const std::vector<size_t>& pods,
               JsonWriter* w) {
  w->StartArray();
  for (size_t pod : pods) w->String(preview.snapshot->pods[pod].Key());
  w->EndArray();
}

}  // namespace

std::string MoneyText(double amount) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.4f", amount);
  return text;
}

void WriteClaimPreview(const ClaimPreview& preview, JsonWriter* w) {
  const ClaimPlan& plan = *preview.plan;
  w->Key("nodeClaims");
  w->StartArray();
  for (const PlannedClaim& claim : plan.claims) {
    w->StartObject();
    w->Key("name");
    w->String(claim.name);
    w->Key("nodePool");
    w->String((*preview.pools)[claim.pool].name);
    w->Key("instanceType");
    w->String((*preview.catalogue)[claim.instance_type].name);
    w->Key("zone");
    w->String(LabelOf(claim, kZoneLabel));
    w->Key("capacityType");
    w->String(LabelOf(claim, kCapacityTypeLabel));
    w->Key("price");
    w->Double(claim.price);
    w->Key("compatibleInstanceTypes");
    w->Int64(claim.compatible_instance_types);
    w->Key("pods");
    WritePods(preview, claim.pods, w);
    w->EndObject();
  }
  w->EndArray();
  w->Key("existingNodes");
  w->StartArray();
  for (const nodescale::ExistingPlacement& e : plan.existing_nodes) {
    w->StartObject();
    w->Key("name");
    w->String(preview.snapshot->nodes[e.node].name);
    w->Key("pods");
    WritePods(preview, e.pods, w);
    w->EndObject();
  }
  w->EndArray();
  w->Key("placementOrder");
  WritePods(preview, plan.placement_order, w);
  w->Key("unschedulable");
  w->StartArray();
  for (const nodescale::UnplacedPod& pod : plan.unschedulable) {
    w->StartObject();
    w->Key("pod");
    w->String(preview.snapshot->pods[pod.pod].Key());
    w->Key("reasons");
    w->StartObject();
    for (const auto& [pool, reason] : pod.reasons) {
      w->Key(pool.c_str(), static_cast<rapidjson::SizeType>(pool.size()));
      w->String(reason);
    }
    w->EndObject();
    w->EndObject();
  }
  w->EndArray();
  w->Key("relaxed");
  w->StartArray();
  for (const nodescale::Relaxation& relaxed : plan.relaxed) {
    w->StartObject();
    w->Key("pod");
    w->String(preview.snapshot->pods[relaxed.pod].Key());
    w->Key("dropped");
    w->String(relaxed.dropped);
    w->EndObject();
  }
  w->EndArray();
}

std::string ClaimPreviewTable(const ClaimPreview& preview) {
  const ClaimPlan& plan = *preview.plan;
  std::ostringstream out;
  double total = 0;
  for (const PlannedClaim& claim : plan.claims) total += claim.price;
  out << "NODE CLAIMS (" << plan.claims.size() << " new nodes, "
      << MoneyText(total) << "/h)\n";
  for (const PlannedClaim& claim : plan.claims) {
    out << "  " << claim.name << "  " << (*preview.pools)[claim.pool].name
        << "  " << (*preview.catalogue)[claim.instance_type].name << "  "
        << LabelOf(claim, kZoneLabel) << "  "
        << LabelOf(claim, kCapacityTypeLabel) << "  " << MoneyText(claim.price)
        << "/h  " << claim.pods.size() << " pods (of "
        << claim.compatible_instance_types << " types that fit)\n";
  }
  out << "EXISTING NODES (" << plan.existing_nodes.size() << " take pods)\n";
  for (const nodescale::ExistingPlacement& e : plan.existing_nodes) {
    out << "  " << preview.snapshot->nodes[e.node].name << "  " << e.pods.size()
        << " pods\n";
  }
  out << "PLACEMENT ORDER (" << plan.placement_order.size() << " pods)\n";
  for (size_t pod : plan.placement_order) {
    out << "  " << preview.snapshot->pods[pod].Key() << "\n";
  }
  out << "UNSCHEDULABLE (" << plan.unschedulable.size() << " pods)\n";
  for (const nodescale::UnplacedPod& pod : plan.unschedulable) {
    out << "  " << preview.snapshot->pods[pod.pod].Key() << "\n";
    if (pod.reasons.empty()) out << "    no NodePool\n";
    for (const auto& [pool, reason] : pod.reasons) {
      out << "    " << pool << ": " << reason << "\n";
    }
  }
  if (!plan.relaxed.empty()) {
    out << "RELAXED (" << plan.relaxed.size()
        << " preferences dropped: the pods fit nowhere with them)\n";
    for (const nodescale::Relaxation& relaxed : plan.relaxed) {
      out << "  " << preview.snapshot->pods[relaxed.pod].Key() << "  "
          << relaxed.dropped << "\n";
    }
  }
  return out.str();
}

}  // namespace propscaler

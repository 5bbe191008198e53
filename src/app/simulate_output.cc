#include "app/simulate_output.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <sstream>

namespace propscaler {
namespace {

using Writer = JsonWriter;

// Each new node of an increase with the pods the estimate put on it.
void WriteNewNodes(const nodescale::GroupIncrease& increase, Writer* w) {
  std::vector<std::vector<const std::string*>> nodes(
      static_cast<size_t>(increase.delta));
  for (size_t i = 0; i < increase.pods.size() && i < increase.pod_nodes.size();
       ++i) {
    const int64_t node = increase.pod_nodes[i];
    if (node >= 0 && node < increase.delta) {
      nodes[node].push_back(&increase.pods[i]);
    }
  }
  w->Key("nodes");
  w->StartArray();
  for (const auto& pods : nodes) {
    w->StartObject();
    w->Key("pods");
    w->StartArray();
    for (const std::string* pod : pods) w->String(*pod);
    w->EndArray();
    w->EndObject();
  }
  w->EndArray();
}

void WriteScaleUp(const nodescale::ScaleUpPlan& up, Writer* w) {
  w->Key("scaleUp");
  w->StartArray();
  for (const nodescale::GroupIncrease& increase : up.increases) {
    w->StartObject();
    w->Key("nodeGroup");
    w->String(increase.group);
    w->Key("delta");
    w->Int64(increase.delta);
    w->Key("pods");
    w->StartArray();
    for (const std::string& pod : increase.pods) w->String(pod);
    w->EndArray();
    WriteNewNodes(increase, w);
    w->EndObject();
  }
  w->EndArray();
}

void WriteUnschedulable(const nodescale::ScaleUpPlan& up, Writer* w) {
  w->Key("unschedulable");
  w->StartArray();
  for (const nodescale::UnschedulablePod& pod : up.unschedulable) {
    w->StartObject();
    w->Key("pod");
    w->String(pod.pod);
    w->Key("reasons");
    w->StartObject();
    for (const auto& [group, reason] : *pod.reasons) {
      w->Key(group.c_str(), static_cast<rapidjson::SizeType>(group.size()));
      w->String(reason);
    }
    w->EndObject();
    w->EndObject();
  }
  w->EndArray();
}

void WriteScaleDown(const nodescale::ScaleDownPlan& down, Writer* w) {
  w->Key("scaleDown");
  w->StartArray();
  for (const nodescale::NodeRemoval& removal : down.removals) {
    w->StartObject();
    w->Key("node");
    w->String(removal.node);
    w->Key("nodeGroup");
    w->String(removal.group);
    w->Key("reason");
    w->String(std::string(nodescale::RemovalReasonName(removal.reason)));
    w->EndObject();
  }
  w->EndArray();
}

void WriteDisruption(const nodescale::DisruptionPlan& plan, Writer* w) {
  w->Key("disruption");
  w->StartArray();
  for (const nodescale::DisruptionCommand& command : plan.previews) {
    w->StartObject();
    w->Key("method");
    w->String(std::string(nodescale::DisruptionMethodName(command.method)));
    w->Key("action");
    w->String(std::string(command.action()));
    w->Key("nodes");
    w->StartArray();
    for (const std::string& node : command.nodes) w->String(node);
    w->EndArray();
    w->Key("replacement");
    if (command.replacement) {
      w->StartObject();
      w->Key("nodeGroup");
      w->String(command.replacement->group);
      w->Key("count");
      w->Int64(command.replacement->count);
      w->EndObject();
    } else {
      w->Null();
    }
    w->Key("savingsPerHour");
    w->Double(command.savings_per_hour);
    w->EndObject();
  }
  w->EndArray();
  w->Key("disruptionBlocked");
  w->StartArray();
  for (const nodescale::BlockedCandidate& blocked : plan.blocked) {
    w->StartObject();
    w->Key("node");
    w->String(blocked.node);
    w->Key("method");
    w->String(std::string(nodescale::DisruptionMethodName(blocked.method)));
    w->Key("reason");
    w->String(blocked.reason);
    w->EndObject();
  }
  w->EndArray();
}

void WriteRequests(const std::vector<ProvReqPreview>& requests, Writer* w) {
  w->Key("provisioningRequests");
  w->StartArray();
  for (const ProvReqPreview& preview : requests) {
    w->StartObject();
    w->Key("request");
    w->String(preview.request);
    w->Key("class");
    w->String(preview.class_name);
    w->Key("pods");
    w->Int64(preview.pods);
    w->Key("result");
    w->String(preview.result);
    w->EndObject();
  }
  w->EndArray();
}

std::string Percent(double fraction) {
  char text[16];
  std::snprintf(text, sizeof(text), "%.0f%%", fraction * 100);
  return text;
}

}  // namespace

std::string SimulationJson(
    const nodescale::ScaleUpPlan& up, const nodescale::ScaleDownPlan& down,
    const nodescale::DisruptionPlan& disruption,
    const std::optional<std::vector<ProvReqPreview>>& requests,
    const ClaimPreview* claims) {
  rapidjson::StringBuffer buffer;
  Writer writer(buffer);
  writer.StartObject();
  WriteScaleUp(up, &writer);
  if (claims != nullptr) {
    WriteClaimPreview(*claims, &writer);
  } else {
    WriteUnschedulable(up, &writer);
  }
  WriteScaleDown(down, &writer);
  WriteDisruption(disruption, &writer);
  if (requests) WriteRequests(*requests, &writer);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string SimulationTable(
    const nodescale::ScaleUpPlan& up, const nodescale::ScaleDownPlan& down,
    const nodescale::DisruptionPlan& disruption,
    const std::optional<std::vector<ProvReqPreview>>& requests,
    const ClaimPreview* claims) {
  std::ostringstream out;
  if (claims != nullptr) {
    out << ClaimPreviewTable(*claims);
  } else {
    out << "SCALE UP (" << up.increases.size() << " groups, "
        << up.fit_existing.size() << " pending pods fit existing nodes)\n";
  }
  for (const nodescale::GroupIncrease& increase : up.increases) {
    out << "  " << increase.group << "  +" << increase.delta << " nodes for "
        << increase.pods.size() << " pods\n";
  }
  if (claims == nullptr) {
    out << "UNSCHEDULABLE (" << up.unschedulable.size() << " pods)\n";
  }
  for (const nodescale::UnschedulablePod& pod : up.unschedulable) {
    out << "  " << pod.pod << "\n";
    for (const auto& [group, reason] : *pod.reasons) {
      out << "    " << group << ": " << reason << "\n";
    }
  }
  out << "SCALE DOWN (" << down.removals.size() << " nodes)\n";
  for (const nodescale::NodeRemoval& removal : down.removals) {
    out << "  " << removal.node << "  group " << removal.group << "  "
        << nodescale::RemovalReasonName(removal.reason) << "  utilization "
        << Percent(removal.utilization) << "\n";
  }
  for (const nodescale::KeptNode& kept : down.kept) {
    out << "  kept " << kept.node << ": " << kept.reason << "\n";
  }
  out << "DISRUPTION (first command of each method; "
      << disruption.previews.size() << " methods would act)\n";
  for (const nodescale::DisruptionCommand& command : disruption.previews) {
    out << "  " << nodescale::DisruptionMethodName(command.method) << "  "
        << command.action();
    for (const std::string& node : command.nodes) out << " " << node;
    if (command.replacement) {
      out << "  -> " << command.replacement->count << " x "
          << command.replacement->group;
    }
    out << "  saves " << MoneyText(command.savings_per_hour) << "/h\n";
  }
  for (const nodescale::BlockedCandidate& blocked : disruption.blocked) {
    out << "  blocked " << blocked.node << " ("
        << nodescale::DisruptionMethodName(blocked.method)
        << "): " << blocked.reason << "\n";
  }
  if (requests) {
    out << "PROVISIONING REQUESTS (" << requests->size() << ")\n";
    for (const ProvReqPreview& preview : *requests) {
      out << "  " << preview.request << "  " << preview.class_name << "  "
          << preview.pods << " pods: " << preview.result << "\n";
    }
  }
  return out.str();
}

}  // namespace propscaler

#include "kube/wire/node_scale_bodies.h"

#include "kube/wire/resources_json.h"

namespace propscaler::kube {
namespace {

std::string LabelsJson(const Labels& map) {
  std::string out;
  for (const auto& [key, value] : map) {
    out += (out.empty() ? "" : ",") + QuoteJsonString(key) + ":" +
           QuoteJsonString(value);
  }
  return "{" + out + "}";
}

}  // namespace

std::string EncodeSimulatedNode(const std::string& name,
                                const NodeTemplate& shape, bool ready) {
  const std::string allocatable = EncodeResourceMap(shape.allocatable);
  Labels annotations = shape.annotations;
  annotations["kwok.x-k8s.io/node"] = "fake";
  return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":" +
         QuoteJsonString(name) + ",\"labels\":" + LabelsJson(shape.labels) +
         ",\"annotations\":" + LabelsJson(annotations) +
         "},\"spec\":{\"providerID\":" + QuoteJsonString("kwok://" + name) +
         ",\"taints\":" + EncodeTaints(shape.taints) +
         "},\"status\":{\"capacity\":" + allocatable +
         ",\"allocatable\":" + allocatable +
         ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"" +
         (ready ? "True" : "False") + "\",\"reason\":\"" +
         (ready ? "KubeletReady" : "KubeletNotReady") + "\"}]}}";
}

std::string DeleteOptionsWithUid(const std::string& uid) {
  return "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\","
         "\"preconditions\":{\"uid\":" +
         QuoteJsonString(uid) + "}}";
}

std::string EncodeEviction(const std::string& ns, const std::string& name,
                           int64_t grace_seconds,
                           std::string_view api_version) {
  return "{\"apiVersion\":" + QuoteJsonString(std::string(api_version)) +
         ",\"kind\":\"Eviction\",\"metadata\":{"
         "\"name\":" +
         QuoteJsonString(name) + ",\"namespace\":" + QuoteJsonString(ns) +
         "},\"deleteOptions\":{\"gracePeriodSeconds\":" +
         std::to_string(grace_seconds) + "}}";
}

}  // namespace propscaler::kube

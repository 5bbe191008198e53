#include "kube/wire/resources_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace propscaler::kube {

std::string QuoteJsonString(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

std::string EncodeResourceMap(const Resources& r) {
  std::string out = "{\"cpu\":\"" + std::to_string(r.cpu_millis) +
                    "m\",\"memory\":\"" + std::to_string(r.memory_bytes) +
                    "\",\"pods\":\"" + std::to_string(r.pods) + "\"";
  if (r.ephemeral_storage_bytes > 0) {
    out += ",\"ephemeral-storage\":\"" +
           std::to_string(r.ephemeral_storage_bytes) + "\"";
  }
  for (const auto& [name, amount] : r.extended) {
    out += "," + QuoteJsonString(name) + ":\"" + std::to_string(amount) + "\"";
  }
  return out + "}";
}

std::string EncodeTaints(const std::vector<Taint>& taints) {
  std::string out;
  for (const Taint& taint : taints) {
    out += out.empty() ? "" : ",";
    out += "{\"key\":" + QuoteJsonString(taint.key) +
           ",\"value\":" + QuoteJsonString(taint.value) + ",\"effect\":\"" +
           std::string(TaintEffectName(taint.effect)) + "\"}";
  }
  return "[" + out + "]";
}

}  // namespace propscaler::kube

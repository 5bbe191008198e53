#include "nodescale/domain/instance_types_json.h"

#include <rapidjson/document.h>

#include <set>

#include "kube/wire/json_fields.h"

namespace propscaler::nodescale {
namespace {

using rapidjson::Value;

using namespace kube::json;  // NOLINT: the field decoders

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kDefaultPods = 110;

Result<double> PriceAt(const Value& item, const std::string& at) {
  const Value* price = Member(item, "Price");
  if (price == nullptr) return Status::Invalid(Join(at, "Price") + ": missing");
  if (!price->IsNumber() || price->GetDouble() < 0) {
    return WrongType(Join(at, "Price"), "a price of 0 or more", *price);
  }
  return price->GetDouble();
}

// {Price, Available, Requirements} or {CapacityType, Zone, Price, Available}:
// the labels it adds, each from an In of one value.
Result<Offering> DecodeOffering(const Value& item, const std::string& at) {
  if (!item.IsObject()) return WrongType(at, "an object", item);
  Offering offering;
  PS_ASSIGN_OR_RETURN(offering.price, PriceAt(item, at));
  std::string capacity_type;
  std::string zone;
  PS_ASSIGN_OR_RETURN(capacity_type, StringAt(item, "CapacityType", at));
  PS_ASSIGN_OR_RETURN(zone, StringAt(item, "Zone", at));
  if (!capacity_type.empty()) {
    offering.labels[std::string(kCapacityTypeLabel)] = capacity_type;
  }
  if (!zone.empty()) offering.labels["topology.kubernetes.io/zone"] = zone;
  const Value* requirements = nullptr;
  PS_ASSIGN_OR_RETURN(requirements, ArrayAt(item, "Requirements", at));
  for (size_t i = 0; requirements != nullptr && i < requirements->Size(); ++i) {
    const std::string req_at = Index(Join(at, "Requirements"), i);
    const Value& req = (*requirements)[i];
    if (!req.IsObject()) return WrongType(req_at, "an object", req);
    std::string key;
    std::string op;
    std::vector<std::string> values;
    PS_ASSIGN_OR_RETURN(key, StringAt(req, "key", req_at));
    PS_ASSIGN_OR_RETURN(op, StringAt(req, "operator", req_at));
    PS_ASSIGN_OR_RETURN(values, StringsAt(req, "values", req_at));
    if (key.empty()) return Status::Invalid(req_at + ".key: missing");
    if (op != "In" || values.size() != 1) {
      return Status::Invalid(req_at + ": " + key + " " + op + " with " +
                             std::to_string(values.size()) +
                             " values; an offering names one value (In)");
    }
    offering.labels[key] = values.front();
  }
  if (offering.labels.empty()) {
    return Status::Invalid(at + ": names no zone or capacity type");
  }
  return offering;
}

// The text before the first '.' or '-' of the name.
std::string FamilyOf(const std::string& name) {
  return name.substr(0, name.find_first_of(".-"));
}

Result<InstanceType> DecodeEntry(const Value& item, const std::string& path) {
  if (!item.IsObject()) return WrongType(path, "an object", item);
  std::string name;
  PS_ASSIGN_OR_RETURN(name, StringAt(item, "name", path));
  if (name.empty()) return Status::Invalid(Join(path, "name") + ": missing");
  const std::string at = path + " (" + name + ")";
  std::string architecture;
  std::vector<std::string> systems;
  PS_ASSIGN_OR_RETURN(architecture, StringAt(item, "architecture", at));
  PS_ASSIGN_OR_RETURN(systems, StringsAt(item, "operatingSystems", at));
  Labels texts;
  PS_ASSIGN_OR_RETURN(texts, StringMapAt(item, "resources", at));
  Resources capacity;
  PS_ASSIGN_OR_RETURN(capacity, ResourcesAt(item, "resources", at));
  if (capacity.cpu_millis <= 0 || capacity.memory_bytes <= 0) {
    return Status::Invalid(Join(at, "resources") +
                           ": cpu and memory must both be above 0");
  }
  if (!texts.contains("pods")) capacity.pods = kDefaultPods;
  const Value* offerings = nullptr;
  PS_ASSIGN_OR_RETURN(offerings, ArrayAt(item, "offerings", at));
  if (offerings == nullptr || offerings->Empty()) {
    return Status::Invalid(Join(at, "offerings") + ": none");
  }
  std::vector<Offering> out;
  for (size_t i = 0; i < offerings->Size(); ++i) {
    Offering offering;
    PS_ASSIGN_OR_RETURN(
        offering,
        DecodeOffering((*offerings)[i], Index(Join(at, "offerings"), i)));
    out.push_back(std::move(offering));
  }
  return KwokInstanceType(name, architecture, systems, capacity,
                          texts.at("cpu"), texts.at("memory"), std::move(out));
}

}  // namespace

InstanceType KwokInstanceType(const std::string& name,
                              const std::string& architecture,
                              const std::vector<std::string>& systems,
                              const Resources& capacity,
                              const std::string& cpu_text,
                              const std::string& memory_text,
                              std::vector<Offering> offerings) {
  InstanceType type;
  type.name = name;
  type.labels[std::string(kInstanceTypeLabel)] = name;
  if (!architecture.empty()) {
    type.labels[std::string(kArchLabel)] = architecture;
  }
  if (systems.size() == 1) {
    type.labels[std::string(kOsLabel)] = systems.front();
  } else if (systems.size() > 1) {
    type.choices.emplace_back(std::string(kOsLabel), systems);
  }
  type.labels["karpenter.kwok.sh/instance-size"] = cpu_text;
  type.labels["karpenter.kwok.sh/instance-family"] = FamilyOf(name);
  type.labels["karpenter.kwok.sh/instance-cpu"] = cpu_text;
  type.labels["karpenter.kwok.sh/instance-memory"] = memory_text;
  type.capacity = capacity;
  type.overhead.cpu_millis = 100;
  type.overhead.memory_bytes = 10 * kMi;
  type.offerings = std::move(offerings);
  for (Offering& offering : type.offerings) offering.available = true;
  return type;
}

Result<std::vector<InstanceType>> DecodeInstanceTypes(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsArray()) {
    return Status::Invalid(
        "want a JSON array of instance types (the kwok provider's format)");
  }
  std::vector<InstanceType> out;
  std::set<std::string> names;
  for (size_t i = 0; i < doc.Size(); ++i) {
    InstanceType type;
    PS_ASSIGN_OR_RETURN(type, DecodeEntry(doc[i], Index("", i)));
    if (!names.insert(type.name).second) {
      return Status::Invalid(Index("", i) + ".name: \"" + type.name +
                             "\" is listed twice");
    }
    out.push_back(std::move(type));
  }
  if (out.empty()) return Status::Invalid("no instance type in the file");
  return out;
}

}  // namespace propscaler::nodescale

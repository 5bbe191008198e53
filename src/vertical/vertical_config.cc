#include "vertical/vertical_config.h"

#include <rapidjson/document.h>

#include <charconv>

#include "common/json_input.h"
#include "common/quantity.h"
#include "common/quantity_format.h"

namespace propscaler {
namespace {

using rapidjson::Value;

// A quantity as Go's Quantity.UnmarshalJSON takes one: the text of a string
// (spaces trimmed) or of a number literal.
Status ReadQuantity(const Value& v, const std::string& field,
                    std::optional<int64_t>* out) {
  if (v.IsNull()) {
    out->reset();
    return Status::Ok();
  }
  std::string text;
  if (v.IsString()) {
    text.assign(v.GetString(), v.GetStringLength());
    const size_t first = text.find_first_not_of(" \t\r\n");
    const size_t last = text.find_last_not_of(" \t\r\n");
    text =
        first == std::string::npos ? "" : text.substr(first, last - first + 1);
  } else if (v.IsInt64()) {
    text = std::to_string(v.GetInt64());
  } else if (v.IsNumber()) {
    // The shortest text that reads back as the same double: what was
    // written, for any literal a person writes.
    char buffer[64];
    auto [end, error] =
        std::to_chars(buffer, buffer + sizeof(buffer), v.GetDouble());
    text.assign(buffer, end);
  } else {
    return FieldError(field, "a quantity such as \"100m\" or \"64Mi\"", v);
  }
  Result<int64_t> millis = ParseMilliQuantity(text);
  if (!millis.ok()) return millis.status().WithContext(field);
  *out = *millis;
  return Status::Ok();
}

Status ReadCount(const Value& v, const std::string& field,
                 std::optional<int64_t>* out) {
  if (v.IsNull()) {
    out->reset();
    return Status::Ok();
  }
  int64_t value = 0;
  if (Status s = ReadJsonInt(v, field, &value); !s.ok()) return s;
  *out = value;
  return Status::Ok();
}

Status ReadResourceScale(const Value& v, const std::string& field,
                         ResourceScale* out) {
  *out = ResourceScale();
  if (v.IsNull()) return Status::Ok();
  if (!v.IsObject()) return FieldError(field, "a JSON object", v);
  struct QuantityField {
    std::string_view name;
    std::optional<int64_t> ResourceScale::*member;
  };
  for (const QuantityField& f :
       {QuantityField{"base", &ResourceScale::base_millis},
        {"max", &ResourceScale::max_millis},
        {"step", &ResourceScale::step_millis}}) {
    Status s = ForMemberIgnoringCase(v, f.name, [&](const Value& m) {
      return ReadQuantity(m, field + "." + std::string(f.name),
                          &(out->*f.member));
    });
    if (!s.ok()) return s;
  }
  for (const QuantityField& f :
       {QuantityField{"coresPerStep", &ResourceScale::cores_per_step},
        {"nodesPerStep", &ResourceScale::nodes_per_step}}) {
    Status s = ForMemberIgnoringCase(v, f.name, [&](const Value& m) {
      return ReadCount(m, field + "." + std::string(f.name), &(out->*f.member));
    });
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

// Go decodes a repeated "requests" into the same map: entries add up.
Status ReadResourceMap(const Value& v, const std::string& field,
                       std::map<std::string, ResourceScale>* out) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsObject()) {
    return FieldError(field, "a JSON object of resources", v);
  }
  for (const auto& m : v.GetObject()) {
    std::string name(m.name.GetString(), m.name.GetStringLength());
    ResourceScale scale;
    Status s = ReadResourceScale(m.value, field + "." + name, &scale);
    if (!s.ok()) return s;
    (*out)[name] = scale;
  }
  return Status::Ok();
}

Status ReadContainer(const Value& v, const std::string& field,
                     ContainerScale* out) {
  *out = ContainerScale();
  if (v.IsNull()) return Status::Ok();
  if (!v.IsObject()) {
    return FieldError(field, "a JSON object with requests or limits", v);
  }
  Status s = ForMemberIgnoringCase(v, "requests", [&](const Value& m) {
    return ReadResourceMap(m, field + ".requests", &out->requests);
  });
  if (!s.ok()) return s;
  return ForMemberIgnoringCase(v, "limits", [&](const Value& m) {
    return ReadResourceMap(m, field + ".limits", &out->limits);
  });
}

void WarnSide(const std::string& container, const std::string& side,
              const std::map<std::string, ResourceScale>& resources,
              std::vector<std::string>* out) {
  for (const auto& [resource, scale] : resources) {
    const std::string where = container + " " + side + " " + resource;
    for (const auto& [name, value] : {std::pair{"base", scale.base_millis},
                                      {"max", scale.max_millis},
                                      {"step", scale.step_millis}}) {
      if (value.value_or(0) < 0) {
        out->push_back(where + ": " + name + " is negative (" +
                       FormatMilliQuantity(*value, CpvaFormatOf(resource)) +
                       ")");
      }
    }
    for (const auto& [name, value] :
         {std::pair{"coresPerStep", scale.cores_per_step},
          {"nodesPerStep", scale.nodes_per_step}}) {
      if (value.value_or(0) < 0) {
        out->push_back(where + ": " + name + " is negative (" +
                       std::to_string(*value) +
                       "); it adds no steps, as in "
                       "cluster-proportional-vertical-autoscaler");
      }
    }
    if (!scale.cores_per_step.value_or(0) &&
        !scale.nodes_per_step.value_or(0) &&
        scale.step_millis.value_or(0) != 0) {
      out->push_back(where +
                     ": a step without coresPerStep or nodesPerStep never "
                     "applies; the value stays at base");
    }
  }
}

std::string DescribeScale(const std::string& resource,
                          const ResourceScale& scale) {
  std::string out;
  auto add = [&out](const std::string& part) {
    out += (out.empty() ? "" : " ") + part;
  };
  const QuantityFormat format = CpvaFormatOf(resource);
  if (scale.base_millis) {
    add("base=" + FormatMilliQuantity(*scale.base_millis, format));
  }
  if (scale.step_millis) {
    add("step=" + FormatMilliQuantity(*scale.step_millis, format));
  }
  if (scale.cores_per_step) {
    add("coresPerStep=" + std::to_string(*scale.cores_per_step));
  }
  if (scale.nodes_per_step) {
    add("nodesPerStep=" + std::to_string(*scale.nodes_per_step));
  }
  if (scale.max_millis) {
    add("max=" + FormatMilliQuantity(*scale.max_millis, format));
  }
  return resource + " {" + out + "}";
}

}  // namespace

Result<VerticalConfig> ParseVerticalConfig(std::string_view json,
                                           const std::string& source) {
  rapidjson::Document doc;
  if (Status s = ParseJsonObject(json, source, &doc); !s.ok()) return s;
  VerticalConfig config;
  for (const auto& m : doc.GetObject()) {
    std::string name(m.name.GetString(), m.name.GetStringLength());
    ContainerScale container;
    Status s = ReadContainer(m.value, source + ": " + name, &container);
    if (!s.ok()) return s;
    config[name] = std::move(container);
  }
  return config;
}

VerticalConfig OverlayVerticalConfig(VerticalConfig base,
                                     const VerticalConfig& over) {
  for (const auto& [name, container] : over) base[name] = container;
  return base;
}

std::vector<std::string> VerticalConfigWarnings(const VerticalConfig& config) {
  std::vector<std::string> out;
  for (const auto& [name, container] : config) {
    WarnSide(name, "requests", container.requests, &out);
    WarnSide(name, "limits", container.limits, &out);
  }
  return out;
}

std::string DescribeVerticalConfig(const VerticalConfig& config) {
  std::string out;
  for (const auto& [name, container] : config) {
    for (const auto& [side, resources] :
         {std::pair<std::string, const std::map<std::string, ResourceScale>*>{
              "requests", &container.requests},
          {"limits", &container.limits}}) {
      for (const auto& [resource, scale] : *resources) {
        if (!out.empty()) out += "; ";
        out += "container " + name + ": " + side + " " +
               DescribeScale(resource, scale);
      }
    }
  }
  return out.empty() ? "(no containers)" : out;
}

}  // namespace propscaler

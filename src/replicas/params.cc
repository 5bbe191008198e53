#include "replicas/params.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/json_input.h"

namespace propscaler {
namespace {

using rapidjson::Value;

// Integral values without a fraction, as the user most likely wrote them.
std::string ShowNumber(double d) {
  if (std::trunc(d) == d && std::fabs(d) < 9007199254740992.0) {
    return std::to_string(static_cast<int64_t>(d));
  }
  return ShowJson(Value(d));
}

// Typed readers for one member. JSON null keeps the default, as Go's
// encoding/json does for non-pointer fields.
Status ReadDouble(const Value& v, const std::string& field, double* out) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsNumber()) return FieldError(field, "a number", v);
  *out = v.GetDouble();
  return Status::Ok();
}

Status ReadBool(const Value& v, const std::string& field, bool* out) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsBool()) return FieldError(field, "true or false", v);
  *out = v.GetBool();
  return Status::Ok();
}

Status ReadLadder(const Value& v, const std::string& field,
                  std::vector<LadderStep>* out) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsArray()) {
    return FieldError(field, "an array of [threshold, replicas] pairs", v);
  }
  std::vector<LadderStep> steps;
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    const Value& pair = v[i];
    bool valid = pair.IsArray() && pair.Size() == 2 && pair[0].IsInt64() &&
                 pair[1].IsInt64() && pair[0].GetInt64() >= 0 &&
                 pair[1].GetInt64() >= 0;
    if (!valid) {
      return FieldError(field + "[" + std::to_string(i) + "]",
                        "a [threshold, replicas] pair of non-negative integers",
                        pair);
    }
    steps.push_back({pair[0].GetInt64(), pair[1].GetInt64()});
  }
  // Stable, so equal thresholds keep their order: the later one wins.
  std::stable_sort(steps.begin(), steps.end(),
                   [](const LadderStep& a, const LadderStep& b) {
                     return a.threshold < b.threshold;
                   });
  *out = std::move(steps);
  return Status::Ok();
}

// The members of a "scaleDown" object and their ranges.
struct ScaleDownField {
  std::string_view name;
  int64_t ScaleDownPolicy::*member;
  int64_t min;
  int64_t max;
};
constexpr ScaleDownField kScaleDownFields[] = {
    {"stabilizationSeconds", &ScaleDownPolicy::stabilization_seconds, 0,
     ScaleDownPolicy::kMaxSeconds},
    {"maxStepPercent", &ScaleDownPolicy::max_step_percent, 1, 100},
    {"periodSeconds", &ScaleDownPolicy::period_seconds, 0,
     ScaleDownPolicy::kMaxSeconds},
};

const ScaleDownField* FindScaleDownField(std::string_view key) {
  for (const ScaleDownField& f : kScaleDownFields) {
    if (EqualsIgnoreCase(key, f.name)) return &f;
  }
  return nullptr;
}

// Reads the optional "scaleDown" object; null means absent, as for a Go
// pointer. Unlike the patterns' own fields, unknown members are errors: CPA
// never reads this object, so a misspelt field would silently keep its
// default with nothing to say so.
Status ReadScaleDown(const Value& v, const std::string& field,
                     std::optional<ScaleDownPolicy>* out) {
  if (v.IsNull()) {
    out->reset();
    return Status::Ok();
  }
  if (!v.IsObject()) return FieldError(field, "a JSON object", v);
  ScaleDownPolicy policy;
  for (const auto& m : v.GetObject()) {
    std::string_view key(m.name.GetString(), m.name.GetStringLength());
    const ScaleDownField* known = FindScaleDownField(key);
    if (known == nullptr) {
      return Status::Invalid(field + ": unknown field " + Quote(Excerpt(key)) +
                             ", expected stabilizationSeconds, "
                             "maxStepPercent or periodSeconds");
    }
    Status s = ReadJsonInt(m.value, field + "." + std::string(known->name),
                           &(policy.*known->member));
    if (!s.ok()) return s;
  }
  for (const ScaleDownField& f : kScaleDownFields) {
    const int64_t value = policy.*f.member;
    if (value < f.min || value > f.max) {
      return Status::Invalid(field + "." + std::string(f.name) +
                             ": must be from " + std::to_string(f.min) +
                             " to " + std::to_string(f.max) + ", got " +
                             std::to_string(value));
    }
  }
  *out = policy;
  return Status::Ok();
}

Status ValidateLinear(const LinearParams& p) {
  if (p.min < 0) {
    return Status::Invalid("linear.min: must be 0 or more, got " +
                           std::to_string(p.min));
  }
  if (p.max != 0 && p.max < p.min) {
    return Status::Invalid(
        "linear.max: must be 0 (no maximum) or at least "
        "min " +
        std::to_string(p.min) + ", got " + std::to_string(p.max));
  }
  if (p.cores_per_replica < 0) {
    return Status::Invalid(
        "linear.coresPerReplica: must not be negative, got " +
        ShowNumber(p.cores_per_replica));
  }
  if (p.nodes_per_replica < 0) {
    return Status::Invalid(
        "linear.nodesPerReplica: must not be negative, got " +
        ShowNumber(p.nodes_per_replica));
  }
  if (p.pods_per_replica && !(*p.pods_per_replica > 0)) {
    return Status::Invalid("linear.podsPerReplica: must be above 0, got " +
                           ShowNumber(*p.pods_per_replica));
  }
  if (p.cores_per_replica == 0 && p.nodes_per_replica == 0 &&
      !p.pods_per_replica) {
    return Status::Invalid(
        "linear: at least one of coresPerReplica, nodesPerReplica and "
        "podsPerReplica must be set and non-zero, all are 0 or absent");
  }
  return Status::Ok();
}

// Writes `v` compactly with object members sorted by name, as Go's
// json.Marshal does for the map CPA decodes the flag into. Integral numbers
// that were written with a fraction ("256.0") come out as integers, also as
// Go does.
void WriteCanonical(const Value& v,
                    rapidjson::Writer<rapidjson::StringBuffer>* writer) {
  if (v.IsObject()) {
    std::vector<const Value::Member*> members;
    for (const auto& m : v.GetObject()) members.push_back(&m);
    std::stable_sort(members.begin(), members.end(),
                     [](const Value::Member* a, const Value::Member* b) {
                       return std::string_view(a->name.GetString(),
                                               a->name.GetStringLength()) <
                              std::string_view(b->name.GetString(),
                                               b->name.GetStringLength());
                     });
    // Go keeps the last of duplicate keys.
    writer->StartObject();
    for (size_t i = 0; i < members.size(); ++i) {
      if (i + 1 < members.size() && members[i]->name == members[i + 1]->name) {
        continue;
      }
      writer->Key(members[i]->name.GetString(),
                  members[i]->name.GetStringLength());
      WriteCanonical(members[i]->value, writer);
    }
    writer->EndObject();
    return;
  }
  if (v.IsArray()) {
    writer->StartArray();
    for (const Value& e : v.GetArray()) WriteCanonical(e, writer);
    writer->EndArray();
    return;
  }
  if (v.IsDouble()) {
    double d = v.GetDouble();
    if (std::trunc(d) == d && std::fabs(d) < 9007199254740992.0) {
      writer->Int64(static_cast<int64_t>(d));
      return;
    }
  }
  v.Accept(*writer);
}

}  // namespace

Result<LinearParams> ParseLinearParams(const std::string& json) {
  rapidjson::Document doc;
  if (Status s = ParseJsonObject(json, "linear", &doc); !s.ok()) return s;
  LinearParams p;
  Status s = ForMemberIgnoringCase(doc, "coresPerReplica", [&](const Value& v) {
    return ReadDouble(v, "linear.coresPerReplica", &p.cores_per_replica);
  });
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "nodesPerReplica", [&](const Value& v) {
      return ReadDouble(v, "linear.nodesPerReplica", &p.nodes_per_replica);
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "podsPerReplica", [&](const Value& v) {
      if (v.IsNull()) return Status::Ok();
      double pods = 0;
      Status read = ReadDouble(v, "linear.podsPerReplica", &pods);
      if (read.ok()) p.pods_per_replica = pods;
      return read;
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "min", [&](const Value& v) {
      return ReadJsonInt(v, "linear.min", &p.min);
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "max", [&](const Value& v) {
      return ReadJsonInt(v, "linear.max", &p.max);
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(
        doc, "preventSinglePointFailure", [&](const Value& v) {
          return ReadBool(v, "linear.preventSinglePointFailure",
                          &p.prevent_single_point_failure);
        });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(
        doc, "includeUnschedulableNodes", [&](const Value& v) {
          return ReadBool(v, "linear.includeUnschedulableNodes",
                          &p.include_unschedulable_nodes);
        });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "scaleDown", [&](const Value& v) {
      return ReadScaleDown(v, "linear.scaleDown", &p.scale_down);
    });
  }
  if (!s.ok()) return s;
  if (Status invalid = ValidateLinear(p); !invalid.ok()) return invalid;
  return p;
}

Result<LadderParams> ParseLadderParams(const std::string& json) {
  rapidjson::Document doc;
  if (Status s = ParseJsonObject(json, "ladder", &doc); !s.ok()) return s;
  LadderParams p;
  Status s = ForMemberIgnoringCase(doc, "coresToReplicas", [&](const Value& v) {
    return ReadLadder(v, "ladder.coresToReplicas", &p.cores_to_replicas);
  });
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "nodesToReplicas", [&](const Value& v) {
      return ReadLadder(v, "ladder.nodesToReplicas", &p.nodes_to_replicas);
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "podsToReplicas", [&](const Value& v) {
      return ReadLadder(v, "ladder.podsToReplicas", &p.pods_to_replicas);
    });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(
        doc, "includeUnschedulableNodes", [&](const Value& v) {
          return ReadBool(v, "ladder.includeUnschedulableNodes",
                          &p.include_unschedulable_nodes);
        });
  }
  if (s.ok()) {
    s = ForMemberIgnoringCase(doc, "scaleDown", [&](const Value& v) {
      return ReadScaleDown(v, "ladder.scaleDown", &p.scale_down);
    });
  }
  if (!s.ok()) return s;
  return p;
}

Result<Params> ParseParams(const std::map<std::string, std::string>& data) {
  if (data.size() != 1) {
    std::string keys;
    for (const auto& [key, value] : data) {
      keys += (keys.empty() ? "" : ", ") + Quote(Excerpt(key));
    }
    return Status::Invalid(
        "params: expected exactly one data key, \"linear\" or \"ladder\", "
        "got " +
        std::to_string(data.size()) + " keys" +
        (data.empty() ? "" : ": " + keys));
  }
  const auto& [mode, json] = *data.begin();
  if (mode == "linear") {
    Result<LinearParams> linear = ParseLinearParams(json);
    if (!linear.ok()) return linear.status();
    return Params(*linear);
  }
  if (mode == "ladder") {
    Result<LadderParams> ladder = ParseLadderParams(json);
    if (!ladder.ok()) return ladder.status();
    return Params(*ladder);
  }
  return Status::Invalid("params: unknown control mode " +
                         Quote(Excerpt(mode)) +
                         ", expected \"linear\" or \"ladder\"");
}

Result<std::map<std::string, std::string>> DefaultParamsToData(
    const std::string& flag_json) {
  rapidjson::Document doc;
  if (Status s = ParseJsonObject(flag_json, "--default-params", &doc);
      !s.ok()) {
    return s;
  }
  std::map<std::string, std::string> data;
  for (const auto& m : doc.GetObject()) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    WriteCanonical(m.value, &writer);
    data[std::string(m.name.GetString(), m.name.GetStringLength())] =
        std::string(buffer.GetString(), buffer.GetSize());
  }
  if (Result<Params> params = ParseParams(data); !params.ok()) {
    return params.status().WithContext("--default-params");
  }
  return data;
}

std::string ParamsMode(const Params& params) {
  return std::holds_alternative<LinearParams>(params) ? "linear" : "ladder";
}

bool UsesPods(const Params& params) {
  if (const auto* linear = std::get_if<LinearParams>(&params)) {
    return linear->pods_per_replica.has_value();
  }
  return !std::get<LadderParams>(params).pods_to_replicas.empty();
}

bool IncludesUnschedulable(const Params& params) {
  return std::visit([](const auto& p) { return p.include_unschedulable_nodes; },
                    params);
}

const std::optional<ScaleDownPolicy>& ScaleDownOf(const Params& params) {
  return std::visit(
      [](const auto& p) -> const std::optional<ScaleDownPolicy>& {
        return p.scale_down;
      },
      params);
}

}  // namespace propscaler

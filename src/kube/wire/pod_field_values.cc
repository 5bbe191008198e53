#include "kube/wire/pod_field_values.h"

namespace propscaler::kube {
namespace {

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

}  // namespace

Result<TaintEffect> ParseTaintEffect(std::string_view text,
                                     const std::string& path) {
  if (text == "NoSchedule") return TaintEffect::kNoSchedule;
  if (text == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (text == "NoExecute") return TaintEffect::kNoExecute;
  return Status::Invalid(path + ": " + Quoted(text) +
                         " is not NoSchedule, PreferNoSchedule or NoExecute");
}

Result<Toleration::Op> ParseTolerationOp(std::string_view text,
                                         const std::string& path) {
  if (text == "Exists") return Toleration::Op::kExists;
  if (text.empty() || text == "Equal") return Toleration::Op::kEqual;
  return Status::Invalid(path + ": " + Quoted(text) +
                         " is not Equal or Exists");
}

Result<NodeSelectorRequirement::Op> ParseNodeSelectorOp(
    std::string_view text, const std::string& path) {
  using Op = NodeSelectorRequirement::Op;
  if (text == "In") return Op::kIn;
  if (text == "NotIn") return Op::kNotIn;
  if (text == "Exists") return Op::kExists;
  if (text == "DoesNotExist") return Op::kDoesNotExist;
  if (text == "Gt") return Op::kGt;
  if (text == "Lt") return Op::kLt;
  return Status::Invalid(path + ": " + Quoted(text) +
                         " is not In, NotIn, Exists, DoesNotExist, Gt or Lt");
}

Result<LabelRequirement::Op> ParseLabelSelectorOp(std::string_view text,
                                                  const std::string& path) {
  using Op = LabelRequirement::Op;
  if (text == "In") return Op::kIn;
  if (text == "NotIn") return Op::kNotIn;
  if (text == "Exists") return Op::kExists;
  if (text == "DoesNotExist") return Op::kDoesNotExist;
  return Status::Invalid(path + ": " + Quoted(text) +
                         " is not In, NotIn, Exists or DoesNotExist");
}

Status CheckTopologyKey(std::string_view key, const std::string& path) {
  if (key.empty()) return Status::Invalid(path + ": must not be empty");
  return Status::Ok();
}

Status CheckMaxSkew(int64_t max_skew, const std::string& path) {
  if (max_skew >= 1) return Status::Ok();
  return Status::Invalid(path + ": must be at least 1, is " +
                         std::to_string(max_skew));
}

}  // namespace propscaler::kube

#include "kube/wire/node_taint_patch.h"

#include <rapidjson/document.h>

#include <algorithm>

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

using rapidjson::Value;

constexpr int kAttempts = 5;
constexpr char kPropscaler[] = "propscaler";

std::string StringAt(const Value& object, const char* key) {
  if (!object.IsObject()) return "";
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsString()
             ? it->value.GetString()
             : "";
}

const Value* ObjectAt(const Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsObject() ? &it->value
                                                          : nullptr;
}

// The node's taints after the edit: the others verbatim, in their order.
Value EditedTaints(const Value* spec, const NodeTaintEdit& edit,
                   rapidjson::Document::AllocatorType& alloc) {
  Value taints(rapidjson::kArrayType);
  bool add_present = false;
  if (spec != nullptr) {
    auto it = spec->FindMember("taints");
    if (it != spec->MemberEnd() && it->value.IsArray()) {
      for (const Value& taint : it->value.GetArray()) {
        const std::string key = StringAt(taint, "key");
        if (std::find(edit.remove_keys.begin(), edit.remove_keys.end(), key) !=
            edit.remove_keys.end()) {
          continue;
        }
        if (edit.add && key == edit.add->key) {
          if (add_present || StringAt(taint, "effect") != edit.add->effect) {
            continue;
          }
          add_present = true;
        }
        taints.PushBack(Value(taint, alloc), alloc);
      }
    }
  }
  if (edit.add && !add_present) {
    Value taint(rapidjson::kObjectType);
    taint.AddMember("key", Value(edit.add->key, alloc), alloc);
    taint.AddMember("value", Value(edit.add->value, alloc), alloc);
    taint.AddMember("effect", Value(edit.add->effect, alloc), alloc);
    taints.PushBack(taint, alloc);
  }
  return taints;
}

struct CordonState {
  bool unschedulable = false;
  bool marked = false;  // propscaler set the cordon
};

CordonState Edited(CordonState now, NodeTaintEdit::Cordon cordon) {
  switch (cordon) {
    case NodeTaintEdit::Cordon::kLeave:
      return now;
    case NodeTaintEdit::Cordon::kCordon:
      return now.unschedulable ? now : CordonState{true, true};
    case NodeTaintEdit::Cordon::kUncordonOwn:
      return now.marked ? CordonState{false, false} : now;
  }
  return now;
}

// The merge patch, or "" when nothing changes.
std::string PatchFor(const rapidjson::Document& node,
                     const NodeTaintEdit& edit) {
  rapidjson::Document patch(rapidjson::kObjectType);
  auto& alloc = patch.GetAllocator();
  const Value* metadata = ObjectAt(node, "metadata");
  const Value* spec = ObjectAt(node, "spec");
  const Value* annotations =
      metadata != nullptr ? ObjectAt(*metadata, "annotations") : nullptr;

  Value old_taints(rapidjson::kArrayType);
  if (spec != nullptr && spec->HasMember("taints") &&
      (*spec)["taints"].IsArray()) {
    old_taints.CopyFrom((*spec)["taints"], alloc);
  }
  Value taints = EditedTaints(spec, edit, alloc);
  const bool taints_changed = JsonText(taints) != JsonText(old_taints);

  CordonState now;
  if (spec != nullptr && spec->HasMember("unschedulable") &&
      (*spec)["unschedulable"].IsBool()) {
    now.unschedulable = (*spec)["unschedulable"].GetBool();
  }
  now.marked = annotations != nullptr &&
               StringAt(*annotations, kCordonedByAnnotation) == kPropscaler;
  const CordonState next = Edited(now, edit.cordon);
  if (!taints_changed && next.unschedulable == now.unschedulable &&
      next.marked == now.marked) {
    return "";
  }
  Value patch_metadata(rapidjson::kObjectType);
  patch_metadata.AddMember(
      "resourceVersion",
      Value(metadata != nullptr ? StringAt(*metadata, "resourceVersion") : "",
            alloc),
      alloc);
  if (next.marked != now.marked) {
    Value marks(rapidjson::kObjectType);
    Value mark = next.marked ? Value(kPropscaler, alloc) : Value();
    marks.AddMember(Value(kCordonedByAnnotation, alloc), mark, alloc);
    patch_metadata.AddMember("annotations", marks, alloc);
  }
  patch.AddMember("metadata", patch_metadata, alloc);
  Value patch_spec(rapidjson::kObjectType);
  if (taints_changed) patch_spec.AddMember("taints", taints, alloc);
  if (next.unschedulable != now.unschedulable) {
    patch_spec.AddMember("unschedulable", Value(next.unschedulable), alloc);
  }
  patch.AddMember("spec", patch_spec, alloc);
  return JsonText(patch);
}

}  // namespace

Status EditNodeTaintsWith(
    const std::function<Result<std::string>()>& read,
    const std::function<Status(const std::string& merge_patch)>& patch,
    const std::string& name, const NodeTaintEdit& edit) {
  Status last;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    Result<std::string> body = read();
    if (!body.ok()) return body.status().WithContext("reading node " + name);
    rapidjson::Document node;
    node.Parse(body->data(), body->size());
    if (node.HasParseError() || !node.IsObject()) {
      return Status::Internal("reading node " + name + ": not a JSON object");
    }
    const std::string merge_patch = PatchFor(node, edit);
    if (merge_patch.empty()) return Status::Ok();
    last = patch(merge_patch);
    if (last.ok()) return Status::Ok();
    if (last.code() != StatusCode::kConflict) {
      return last.WithContext("updating node " + name);
    }
  }
  return last.WithContext("updating node " + name + " (changed under " +
                          std::to_string(kAttempts) + " attempts)");
}

}  // namespace propscaler::kube

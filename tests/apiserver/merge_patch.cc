#include "apiserver/merge_patch.h"

#include <string_view>

namespace propscaler::sim {
namespace {

bool MergesByName(std::string_view key) {
  return key == "containers" || key == "initContainers" ||
         key == "ephemeralContainers";
}

void Apply(rapidjson::Value& target, const rapidjson::Value& patch,
           rapidjson::Document::AllocatorType& alloc, bool strategic);

rapidjson::Value::ValueIterator FindByName(rapidjson::Value& list,
                                           const rapidjson::Value& name) {
  for (auto it = list.Begin(); it != list.End(); ++it) {
    if (!it->IsObject()) continue;
    auto found = it->FindMember("name");
    if (found != it->MemberEnd() && found->value == name) return it;
  }
  return list.End();
}

void MergeListByName(rapidjson::Value& target, const rapidjson::Value& patch,
                     rapidjson::Document::AllocatorType& alloc) {
  for (const rapidjson::Value& element : patch.GetArray()) {
    auto name = element.IsObject() ? element.FindMember("name")
                                   : rapidjson::Value::ConstMemberIterator();
    if (!element.IsObject() || name == element.MemberEnd()) {
      target.PushBack(rapidjson::Value(element, alloc), alloc);
      continue;
    }
    auto existing = FindByName(target, name->value);
    if (existing != target.End()) {
      Apply(*existing, element, alloc, true);
    } else {
      rapidjson::Value added;
      Apply(added, element, alloc, true);
      target.PushBack(added, alloc);
    }
  }
}

void Apply(rapidjson::Value& target, const rapidjson::Value& patch,
           rapidjson::Document::AllocatorType& alloc, bool strategic) {
  if (!patch.IsObject()) {
    target.CopyFrom(patch, alloc);
    return;
  }
  if (!target.IsObject()) target.SetObject();
  for (const auto& member : patch.GetObject()) {
    auto existing = target.FindMember(member.name);
    if (member.value.IsNull()) {
      if (existing != target.MemberEnd()) target.RemoveMember(existing);
      continue;
    }
    if (existing != target.MemberEnd()) {
      const std::string_view key(member.name.GetString(),
                                 member.name.GetStringLength());
      if (strategic && MergesByName(key) && member.value.IsArray() &&
          existing->value.IsArray()) {
        MergeListByName(existing->value, member.value, alloc);
      } else {
        Apply(existing->value, member.value, alloc, strategic);
      }
      continue;
    }
    rapidjson::Value value;
    Apply(value, member.value, alloc, strategic);
    target.AddMember(rapidjson::Value(member.name, alloc), value, alloc);
  }
}

}  // namespace

void ApplyMergePatch(rapidjson::Value& target, const rapidjson::Value& patch,
                     rapidjson::Document::AllocatorType& alloc) {
  Apply(target, patch, alloc, false);
}

void ApplyStrategicMergePatch(rapidjson::Value& target,
                              const rapidjson::Value& patch,
                              rapidjson::Document::AllocatorType& alloc) {
  Apply(target, patch, alloc, true);
}

}  // namespace propscaler::sim

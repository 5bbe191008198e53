#include "apiserver/merge_patch.h"

namespace propscaler::sim {

void ApplyMergePatch(rapidjson::Value& target, const rapidjson::Value& patch,
                     rapidjson::Document::AllocatorType& alloc) {
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
      ApplyMergePatch(existing->value, member.value, alloc);
      continue;
    }
    rapidjson::Value value;
    ApplyMergePatch(value, member.value, alloc);
    target.AddMember(rapidjson::Value(member.name, alloc), value, alloc);
  }
}

}  // namespace propscaler::sim

#include "kube/wire/proto_fields.h"

#include <chrono>

namespace propscaler::kube {

Status AddStringEntry(std::string_view entry, const std::string& path,
                      Labels* out) {
  std::string_view key, value;
  Status status =
      ProtoStrings(entry, path.c_str(), kEntryKey, &key, kEntryValue, &value);
  if (status.ok()) out->insert_or_assign(std::string(key), std::string(value));
  return status;
}

Status AddResourceEntry(std::string_view entry, const std::string& path,
                        Resources* out) {
  std::string_view name, quantity, text;
  Status status = ProtoStrings(entry, path.c_str(), kEntryKey, &name,
                               kEntryValue, &quantity);
  if (status.ok()) {
    status = ProtoStrings(quantity, path.c_str(), kQuantityString, &text);
  }
  if (status.ok()) status = SetResourceAmount(name, text, out);
  return status.ok() ? status
                     : status.WithContext(path + "." + std::string(name));
}

Result<TimePoint> TimeOf(std::string_view time, const std::string& path) {
  TimePoint out;
  Status status = EachProtoField(time, path.c_str(), [&](const ProtoField& f) {
    if (f.number == kTimeSeconds && IsVarint(f)) {
      out = TimePoint(std::chrono::seconds(SignedOf(f)));
    }
    return Status::Ok();
  });
  if (!status.ok()) return status;
  return out;
}

}  // namespace propscaler::kube

#include "kube/model/resource_version.h"

#include <algorithm>

namespace propscaler::kube {
namespace {

// A decimal number without leading zeros (as etcd's revisions are written).
bool IsRevision(std::string_view version) {
  if (version.empty() || (version.size() > 1 && version[0] == '0')) {
    return false;
  }
  return std::all_of(version.begin(), version.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

VersionOrder CompareResourceVersions(std::string_view version,
                                     std::string_view reference) {
  if (version == reference) {
    return version.empty() ? VersionOrder::kUnknown : VersionOrder::kSame;
  }
  if (!IsRevision(version) || !IsRevision(reference)) {
    return VersionOrder::kUnknown;
  }
  // Equal length: lexical order is numeric order; else the longer is newer.
  const bool newer = version.size() != reference.size()
                         ? version.size() > reference.size()
                         : version > reference;
  return newer ? VersionOrder::kNewer : VersionOrder::kOlder;
}

}  // namespace propscaler::kube

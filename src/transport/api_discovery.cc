#include "transport/api_discovery.h"

#include "kube/wire/discovery_json.h"

namespace propscaler::kube {

std::string ApiDiscovery::Path(const std::string& group_version) {
  return group_version.find('/') == std::string::npos
             ? "/api/" + group_version
             : "/apis/" + group_version;
}

Result<std::string> ApiDiscovery::Get(const std::string& path) const {
  Result<std::string> answer = api_->Call({.path = path});
  if (!answer.ok()) return answer.status().WithContext("GET " + path);
  return answer;
}

Result<std::vector<std::string>> ApiDiscovery::GroupVersions(
    const std::string& group) const {
  Result<std::string> answer = Get("/apis/" + group);
  if (!answer.ok()) return answer.status();
  return DecodeGroupVersions(*answer, group);
}

Result<std::string> ApiDiscovery::PreferredVersion(
    const std::string& group) const {
  Result<std::string> answer = Get("/apis/" + group);
  if (!answer.ok()) return answer.status();
  return DecodePreferredVersion(*answer, group);
}

Result<std::vector<std::string>> ApiDiscovery::Resources(
    const std::string& group_version) const {
  Result<std::string> answer = Get(Path(group_version));
  if (!answer.ok()) return answer.status();
  return DecodeResourceNames(*answer, group_version);
}

Result<std::string> ApiDiscovery::ResourceOfKind(
    const std::string& group_version, const std::string& kind) const {
  Result<std::string> answer = Get(Path(group_version));
  if (!answer.ok()) return answer.status();
  return DecodeResourceOfKind(*answer, group_version, kind);
}

bool ApiDiscovery::ServesList(const std::string& group_version,
                              const std::string& resource) const {
  const Result<std::string> answer =
      api_->Call({.path = Path(group_version) + "/" + resource + "?limit=1"});
  return answer.status().code() != StatusCode::kNotFound;
}

bool ApiDiscovery::Serves(const std::string& api_root) const {
  return api_->Call({.path = api_root}).status().code() !=
         StatusCode::kNotFound;
}

}  // namespace propscaler::kube

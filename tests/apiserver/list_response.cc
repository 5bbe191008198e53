#include "apiserver/list_response.h"

#include <optional>

#include "apiserver/json_util.h"

namespace propscaler::sim {
namespace {

std::string ListBody(const ResourceType& type, const ListChunk& chunk,
                     int64_t snapshot_rv, const std::string& next) {
  size_t size = 256;
  for (const auto& [key, object] : chunk.objects)
    size += object->json.size() + 1;
  std::string body;
  body.reserve(size);
  body += "{\"kind\":\"" + type.kind + "List\",\"apiVersion\":\"" +
          type.ApiVersion() + "\",\"metadata\":{\"resourceVersion\":\"" +
          std::to_string(snapshot_rv) + "\"";
  if (!next.empty()) {
    body += ",\"continue\":\"" + next + "\"";
    body += ",\"remainingItemCount\":" + std::to_string(chunk.remaining);
  }
  body += "},\"items\":[";
  for (size_t i = 0; i < chunk.objects.size(); ++i) {
    if (i > 0) body += ',';
    body += chunk.objects[i].second->json;
  }
  body += "]}";
  return body;
}

}  // namespace

ApiResult<std::string> ServeList(const ObjectStore& store,
                                 const ResourcePath& path,
                                 const ListOptions& options) {
  std::optional<ObjectKey> start_after;
  std::optional<int64_t> snapshot_rv;
  if (!options.continue_token.empty()) {
    // As kube-apiserver's etcd storage: "0" (any) is taken as unset.
    if (!options.resource_version.empty() && options.resource_version != "0") {
      return ApiError::BadRequest(
          "specifying resource version is not allowed when using continue");
    }
    ApiResult<ContinueToken> token = DecodeContinue(options.continue_token);
    if (!token.ok()) return token.error();
    if (token->resource_version < store.oldest_watchable()) {
      return ApiError::Expired(
          "The provided continue parameter is too old to display a consistent "
          "list result. You can start a new list without the continue "
          "parameter.");
    }
    start_after = token->last;
    snapshot_rv = token->resource_version;
  }
  bool from_cache = options.resource_version == "0" && !start_after;
  size_t limit = from_cache ? 0 : options.limit;
  ObjectFilter filter = [&options](const ObjectKey& key,
                                   const StoredObject& object) {
    return options.Matches(key, object);
  };
  ListChunk chunk = store.List(*path.type, path.ns, start_after, filter, limit);
  int64_t rv = snapshot_rv.value_or(chunk.resource_version);
  std::string next;
  if (chunk.more) {
    next = EncodeContinue(ContinueToken{rv, chunk.objects.back().first});
  }
  return ListBody(*path.type, chunk, rv, next);
}

}  // namespace propscaler::sim

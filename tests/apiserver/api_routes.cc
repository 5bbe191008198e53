#include "apiserver/api_routes.h"

#include <memory>
#include <optional>

#include "apiserver/json_util.h"
#include "apiserver/list_options.h"
#include "apiserver/list_response.h"
#include "apiserver/pod_resize.h"
#include "apiserver/responses.h"
#include "apiserver/scale_subresource.h"

namespace propscaler::sim {
namespace {

// The real server's rule: an Event's namespace is its object's, and an
// Event of a cluster-scoped object lives in "default" (or no namespace).
std::optional<ApiError> ValidateEventNamespace(const rapidjson::Value& event,
                                               const std::string& ns) {
  auto it = event.FindMember("involvedObject");
  const std::string object_ns = it != event.MemberEnd() && it->value.IsObject()
                                    ? GetString(it->value, "namespace")
                                    : "";
  if (object_ns.empty() ? ns == "default" : object_ns == ns) {
    return std::nullopt;
  }
  return ApiError::Invalid("Event \"" + GetString(Metadata(event), "name") +
                           "\" is invalid: involvedObject.namespace: Invalid "
                           "value: \"" +
                           object_ns + "\": does not match event.namespace");
}

constexpr char kApiPaths[] = R"(/apis?/.*)";

ApiError NoSuchPath() {
  return ApiError{404, "NotFound",
                  "the server could not find the requested resource"};
}

std::optional<ResourcePath> ResolvePath(const httplib::Request& req,
                                        httplib::Response& res,
                                        bool pod_resize) {
  std::optional<ResourcePath> path = ParseResourcePath(req.path);
  const bool known_subresource =
      path &&
      (path->subresource.empty() ||
       (path->subresource == "scale" && path->type->scalable) ||
       (path->subresource == "status" && path->type->status_subresource) ||
       (path->subresource == "resize" && path->type->plural == "pods" &&
        pod_resize));
  if (!known_subresource) {
    WriteError(res, NoSuchPath());
    return std::nullopt;
  }
  return path;
}

// Parses the body as a JSON object, or writes 400 and returns false.
bool ParseBody(const httplib::Request& req, httplib::Response& res,
               rapidjson::Document* doc) {
  std::string error;
  if (ParseJsonObject(req.body, doc, &error)) return true;
  WriteError(res, ApiError::BadRequest("the body of the request was in an "
                                       "unknown format: " +
                                       error));
  return false;
}

ApiResult<std::string> ObjectJson(const ApiResult<ObjectPtr>& result) {
  if (!result.ok()) return result.error();
  return (*result)->json;
}

std::string DeletedStatus(const ResourcePath& path,
                          const StoredObject& object) {
  rapidjson::Document doc;
  doc.Parse(object.json.data(), object.json.size());
  return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
         "\"status\":\"Success\",\"details\":{\"name\":" +
         QuoteJson(path.name) + ",\"kind\":" + QuoteJson(path.type->plural) +
         ",\"uid\":" + QuoteJson(GetString(Metadata(doc), "uid")) + "}}";
}

// A write to an object with a status subresource: through /status only
// its status (and the resourceVersion precondition) is kept, else
// everything but its status.
void KeepToSubresource(bool status, rapidjson::Document* patch) {
  if (!status) {
    patch->RemoveMember("status");
    return;
  }
  rapidjson::Document kept(rapidjson::kObjectType);
  auto& alloc = kept.GetAllocator();
  auto status_member = patch->FindMember("status");
  if (status_member != patch->MemberEnd()) {
    kept.AddMember("status", rapidjson::Value(status_member->value, alloc),
                   alloc);
  }
  const std::string version = GetString(Metadata(*patch), "resourceVersion");
  if (!version.empty()) {
    rapidjson::Value metadata(rapidjson::kObjectType);
    metadata.AddMember("resourceVersion", rapidjson::Value(version, alloc),
                       alloc);
    kept.AddMember("metadata", metadata, alloc);
  }
  patch->Swap(kept);
}

class ApiRoutes {
 public:
  explicit ApiRoutes(const ApiRouteContext& context) : context_(context) {}

  void Get(const httplib::Request& req, httplib::Response& res) const;
  void Post(const httplib::Request& req, httplib::Response& res) const;
  void Put(const httplib::Request& req, httplib::Response& res) const;
  void Patch(const httplib::Request& req, httplib::Response& res) const;
  void Delete(const httplib::Request& req, httplib::Response& res) const;

 private:
  void ListOrWatch(const httplib::Request& req, httplib::Response& res,
                   const ResourcePath& path) const;
  void StartWatch(const httplib::Request& req, httplib::Response& res,
                  const ResourcePath& path, ListOptions options) const;
  std::optional<ResourcePath> NamedPath(const httplib::Request& req,
                                        httplib::Response& res) const;

  ApiRouteContext context_;
};

void ApiRoutes::Get(const httplib::Request& req, httplib::Response& res) const {
  if (std::optional<std::string> discovery =
          DiscoveryDocument(req.path, context_.pod_resize)) {
    return WriteJson(res, 200, *discovery);
  }
  std::optional<ResourcePath> path = ResolvePath(req, res, context_.pod_resize);
  if (!path) return;
  if (path->is_collection()) return ListOrWatch(req, res, *path);
  if (path->subresource == "scale") {
    return WriteResult(res, 200, GetScale(*context_.store, *path));
  }
  WriteResult(
      res, 200,
      ObjectJson(context_.store->Get(*path->type, path->ns, path->name)));
}

void ApiRoutes::ListOrWatch(const httplib::Request& req, httplib::Response& res,
                            const ResourcePath& path) const {
  ApiResult<ListOptions> options =
      ParseListOptions(req.params, context_.watch_list);
  if (!options.ok()) return WriteError(res, options.error());
  if (options->watch) return StartWatch(req, res, path, *options);
  WriteResult(res, 200, ServeList(*context_.store, path, *options));
}

void ApiRoutes::StartWatch(const httplib::Request& req, httplib::Response& res,
                           const ResourcePath& path,
                           ListOptions options) const {
  auto stream = std::make_shared<WatchStream>(
      *context_.store, path, std::move(options), context_.watch);
  std::atomic<int>* open = context_.open_watches;
  ++*open;
  // httplib would gzip application/json for clients that accept it, and its
  // compressor holds data back; a distinct media type keeps events flowing.
  std::string encoding = req.get_header_value("Accept-Encoding");
  std::string type =
      encoding.empty() ? "application/json" : "application/json;stream=watch";
  res.set_chunked_content_provider(
      type,
      [stream](size_t, httplib::DataSink& sink) {
        std::string out;
        if (!stream->Next(&out)) {
          sink.done();
          return true;
        }
        return out.empty() || sink.write(out.data(), out.size());
      },
      [open](bool) { --*open; });
}

void ApiRoutes::Post(const httplib::Request& req,
                     httplib::Response& res) const {
  std::optional<ResourcePath> path = ResolvePath(req, res, context_.pod_resize);
  if (!path) return;
  if (!path->is_collection() || (path->type->namespaced && path->ns.empty())) {
    return WriteError(res, ApiError::MethodNotAllowed(
                               "POST is only allowed on a collection"));
  }
  rapidjson::Document body;
  if (!ParseBody(req, res, &body)) return;
  // A new object's status is the server's to set.
  if (path->type->status_subresource) body.RemoveMember("status");
  if (path->type->plural == "events") {
    if (std::optional<ApiError> invalid =
            ValidateEventNamespace(body, path->ns)) {
      return WriteError(res, *invalid);
    }
  }
  WriteResult(res, 201,
              ObjectJson(context_.store->Create(*path->type, path->ns,
                                                std::move(body))));
}

std::optional<ResourcePath> ApiRoutes::NamedPath(const httplib::Request& req,
                                                 httplib::Response& res) const {
  std::optional<ResourcePath> path = ResolvePath(req, res, context_.pod_resize);
  if (path && path->is_collection()) {
    WriteError(
        res, ApiError::MethodNotAllowed(req.method + " needs an object name"));
    return std::nullopt;
  }
  return path;
}

void ApiRoutes::Put(const httplib::Request& req, httplib::Response& res) const {
  std::optional<ResourcePath> path = NamedPath(req, res);
  if (!path) return;
  rapidjson::Document body;
  if (!ParseBody(req, res, &body)) return;
  if (path->subresource == "scale") {
    return WriteResult(res, 200, PutScale(*context_.store, *path, body));
  }
  if (path->subresource == "resize") {
    return WriteError(res, ApiError::MethodNotAllowed(
                               "PUT of pods/resize is not served here; PATCH "
                               "it"));
  }
  if (path->type->status_subresource) {
    return WriteError(res, ApiError::MethodNotAllowed(
                               "PUT of an object with a status subresource "
                               "is not served here; PATCH it"));
  }
  WriteResult(res, 200,
              ObjectJson(context_.store->Update(*path->type, path->ns,
                                                path->name, std::move(body))));
}

void ApiRoutes::Patch(const httplib::Request& req,
                      httplib::Response& res) const {
  std::optional<ResourcePath> path = NamedPath(req, res);
  if (!path) return;
  std::string type = req.get_header_value("Content-Type");
  if (type.rfind("application/merge-patch+json", 0) != 0 &&
      type.rfind("application/strategic-merge-patch+json", 0) != 0) {
    return WriteError(res, ApiError{415, "UnsupportedMediaType",
                                    "the body of the request was in an "
                                    "unknown format - accepted media types "
                                    "include: application/merge-patch+json, "
                                    "application/strategic-merge-patch+json"});
  }
  rapidjson::Document patch;
  if (!ParseBody(req, res, &patch)) return;
  if (path->subresource == "scale") {
    return WriteResult(res, 200, PatchScale(*context_.store, *path, patch));
  }
  const auto patch_type =
      type.rfind("application/strategic-merge-patch+json", 0) == 0
          ? ObjectStore::PatchType::kStrategic
          : ObjectStore::PatchType::kMerge;
  if (path->subresource == "resize") {
    return WriteResult(res, 200,
                       ResizePod(*context_.store, *path, patch, patch_type));
  }
  if (path->type->status_subresource) {
    KeepToSubresource(path->subresource == "status", &patch);
  }
  WriteResult(res, 200,
              ObjectJson(context_.store->Patch(*path->type, path->ns,
                                               path->name, patch, patch_type)));
}

void ApiRoutes::Delete(const httplib::Request& req,
                       httplib::Response& res) const {
  std::optional<ResourcePath> path = NamedPath(req, res);
  if (!path) return;
  if (!path->subresource.empty()) {
    return WriteError(res, ApiError::MethodNotAllowed(
                               "DELETE is not allowed on a subresource"));
  }
  ObjectStore::Preconditions preconditions;
  if (!req.body.empty()) {
    rapidjson::Document options;
    options.Parse(req.body.data(), req.body.size());
    if (options.HasParseError() || !options.IsObject()) {
      return WriteError(res, ApiError::BadRequest(
                                 "the body of a DELETE must be DeleteOptions"));
    }
    auto pre = options.FindMember("preconditions");
    if (pre != options.MemberEnd() && pre->value.IsObject()) {
      for (auto& [member, into] :
           {std::pair<const char*, std::string*>{"uid", &preconditions.uid},
            {"resourceVersion", &preconditions.resource_version}}) {
        auto m = pre->value.FindMember(member);
        if (m != pre->value.MemberEnd() && m->value.IsString()) {
          *into = m->value.GetString();
        }
      }
    }
  }
  ApiResult<ObjectPtr> deleted =
      context_.store->Delete(*path->type, path->ns, path->name, preconditions);
  if (!deleted.ok()) return WriteError(res, deleted.error());
  WriteJson(res, 200, DeletedStatus(*path, **deleted));
}

}  // namespace

bool IsWatchRequest(const httplib::Request& req) {
  std::string watch = req.get_param_value("watch");
  return req.method == "GET" && (watch == "1" || watch == "true");
}

void InstallApiRoutes(httplib::Server& server, const ApiRouteContext& context) {
  auto routes = std::make_shared<ApiRoutes>(context);
  server.Get(kApiPaths,
             [routes](const auto& req, auto& res) { routes->Get(req, res); });
  server.Post(kApiPaths,
              [routes](const auto& req, auto& res) { routes->Post(req, res); });
  server.Put(kApiPaths,
             [routes](const auto& req, auto& res) { routes->Put(req, res); });
  server.Patch(kApiPaths, [routes](const auto& req, auto& res) {
    routes->Patch(req, res);
  });
  server.Delete(kApiPaths, [routes](const auto& req, auto& res) {
    routes->Delete(req, res);
  });
}

}  // namespace propscaler::sim

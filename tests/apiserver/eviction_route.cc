#include "apiserver/eviction_route.h"

#include "apiserver/json_util.h"
#include "apiserver/responses.h"

namespace propscaler::sim {
namespace {

bool HasFinalizers(const rapidjson::Value& object) {
  const rapidjson::Value& metadata = Metadata(object);
  return metadata.HasMember("finalizers") && metadata["finalizers"].IsArray() &&
         !metadata["finalizers"].Empty();
}

// The eviction's deleteOptions.gracePeriodSeconds, or -1 when it gives none.
int64_t GracePeriodOf(const std::string& body) {
  rapidjson::Document eviction;
  eviction.Parse(body.c_str());
  if (eviction.HasParseError() || !eviction.IsObject() ||
      !eviction.HasMember("deleteOptions") ||
      !eviction["deleteOptions"].IsObject()) {
    return -1;
  }
  const rapidjson::Value& options = eviction["deleteOptions"];
  return options.HasMember("gracePeriodSeconds") &&
                 options["gracePeriodSeconds"].IsInt64()
             ? options["gracePeriodSeconds"].GetInt64()
             : -1;
}

// Deletes the pod, or, when it has finalizers, only sets its
// deletionTimestamp and deletionGracePeriodSeconds (as kube-apiserver does;
// the pod stays Running).
ApiResult<ObjectPtr> DeleteOrMark(ObjectStore* store, const std::string& ns,
                                  const std::string& name,
                                  int64_t grace_seconds) {
  const ResourceType* pods = FindResourceType("pods");
  return store->Mutate(
      *pods, ns, name,
      [grace_seconds,
       store](rapidjson::Document& pod) -> std::optional<ApiError> {
        auto& alloc = pod.GetAllocator();
        rapidjson::Value& metadata = EnsureObject(pod, "metadata", alloc);
        if (!GetString(metadata, "deletionTimestamp").empty()) {
          return std::nullopt;
        }
        SetString(metadata, "deletionTimestamp", Rfc3339(store->clock()->Now()),
                  alloc);
        if (grace_seconds >= 0) {
          metadata.RemoveMember("deletionGracePeriodSeconds");
          metadata.AddMember("deletionGracePeriodSeconds",
                             rapidjson::Value(grace_seconds), alloc);
        }
        return std::nullopt;
      });
}

}  // namespace

ApiResult<ObjectPtr> EvictPod(ObjectStore* store, const std::string& ns,
                              const std::string& name,
                              const std::string& eviction_json) {
  const ResourceType* pods = FindResourceType("pods");
  ApiResult<ObjectPtr> current = store->Get(*pods, ns, name);
  if (!current.ok()) return current.error();
  rapidjson::Document pod;
  pod.Parse((*current)->json.c_str());
  return HasFinalizers(pod)
             ? DeleteOrMark(store, ns, name, GracePeriodOf(eviction_json))
             : store->Delete(*pods, ns, name);
}

void InstallEvictionRoute(httplib::Server& server, ObjectStore* store) {
  server.Post(R"(/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction)",
              [store](const httplib::Request& req, httplib::Response& res) {
                ApiResult<ObjectPtr> done =
                    EvictPod(store, req.matches[1], req.matches[2], req.body);
                if (!done.ok()) return WriteError(res, done.error());
                WriteJson(res, 201,
                          R"({"kind":"Status","apiVersion":"v1",)"
                          R"("metadata":{},"status":"Success"})");
              });
}

}  // namespace propscaler::sim

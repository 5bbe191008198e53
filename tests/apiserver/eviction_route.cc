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

// Deletes the pod, or, when it has finalizers, only sets its
// deletionTimestamp (as kube-apiserver does; the pod stays Running).
ApiResult<ObjectPtr> DeleteOrMark(ObjectStore* store, const std::string& ns,
                                  const std::string& name) {
  const ResourceType* pods = FindResourceType("pods");
  return store->Mutate(*pods, ns, name,
                       [](rapidjson::Document& pod) -> std::optional<ApiError> {
                         rapidjson::Value& metadata =
                             EnsureObject(pod, "metadata", pod.GetAllocator());
                         if (GetString(metadata, "deletionTimestamp").empty()) {
                           SetString(metadata, "deletionTimestamp",
                                     NowRfc3339(), pod.GetAllocator());
                         }
                         return std::nullopt;
                       });
}

}  // namespace

void InstallEvictionRoute(httplib::Server& server, ObjectStore* store) {
  server.Post(R"(/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction)",
              [store](const httplib::Request& req, httplib::Response& res) {
                const ResourceType* pods = FindResourceType("pods");
                const std::string ns = req.matches[1];
                const std::string name = req.matches[2];
                ApiResult<ObjectPtr> current = store->Get(*pods, ns, name);
                if (!current.ok()) return WriteError(res, current.error());
                rapidjson::Document pod;
                pod.Parse((*current)->json.c_str());
                ApiResult<ObjectPtr> done =
                    HasFinalizers(pod) ? DeleteOrMark(store, ns, name)
                                       : store->Delete(*pods, ns, name);
                if (!done.ok()) return WriteError(res, done.error());
                WriteJson(res, 201,
                          R"({"kind":"Status","apiVersion":"v1",)"
                          R"("metadata":{},"status":"Success"})");
              });
}

}  // namespace propscaler::sim

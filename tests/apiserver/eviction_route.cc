#include "apiserver/eviction_route.h"

#include "apiserver/json_util.h"
#include "apiserver/responses.h"
#include "kube/wire/object_json.h"

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

int64_t IntegerOr(const rapidjson::Value& object, const char* key,
                  int64_t fallback) {
  if (!object.IsObject()) return fallback;
  auto it = object.FindMember(key);
  return it != object.MemberEnd() && it->value.IsInt64() ? it->value.GetInt64()
                                                         : fallback;
}

bool PodReady(const rapidjson::Document& pod) {
  if (!pod.HasMember("status") || !pod["status"].HasMember("conditions") ||
      !pod["status"]["conditions"].IsArray()) {
    return false;
  }
  for (const rapidjson::Value& condition :
       pod["status"]["conditions"].GetArray()) {
    if (GetString(condition, "type") == "Ready") {
      return GetString(condition, "status") == "True";
    }
  }
  return false;
}

// The PodDisruptionBudgets of the pod's namespace whose selector matches
// it; a nil or empty selector matches nothing here (kube-apiserver's
// eviction says so, even in policy/v1).
std::vector<kube::PdbState> BudgetsCovering(const ObjectStore& store,
                                            const std::string& ns,
                                            const Labels& pod_labels) {
  const ResourceType* pdbs = FindResourceType("poddisruptionbudgets");
  ListChunk chunk = store.List(
      *pdbs, ns, std::nullopt,
      [](const ObjectKey&, const StoredObject&) { return true; }, 0);
  std::vector<kube::PdbState> out;
  for (const auto& [key, object] : chunk.objects) {
    rapidjson::Document doc;
    doc.Parse(object->json.c_str());
    Result<kube::PdbState> pdb =
        kube::DecodePdbObject(doc, key.name, kube::PdbVersion::kV1);
    if (!pdb.ok() || pdb->no_selector || pdb->selector.empty()) continue;
    if (pdb->selector.Matches(pod_labels)) out.push_back(*pdb);
  }
  return out;
}

// kube-apiserver's eviction check (pkg/registry/core/pod/storage/
// eviction.go): a pod that is not running or already terminating goes
// without one; more than one budget is a 500; a pod that is not Ready goes
// without taking from a budget that has its healthy pods; a budget whose
// status is older than its spec, or that allows no disruption now, refuses
// with 429; otherwise its status.disruptionsAllowed is taken down by one.
std::optional<ApiError> TakeDisruption(ObjectStore* store,
                                       const std::string& ns,
                                       const rapidjson::Document& pod,
                                       const Labels& pod_labels) {
  const std::string phase =
      pod.HasMember("status") ? GetString(pod["status"], "phase") : "";
  if (phase == "Succeeded" || phase == "Failed" || phase == "Pending" ||
      !GetString(Metadata(pod), "deletionTimestamp").empty()) {
    return std::nullopt;
  }
  const std::vector<kube::PdbState> budgets =
      BudgetsCovering(*store, ns, pod_labels);
  if (budgets.empty()) return std::nullopt;
  if (budgets.size() > 1) {
    return ApiError::ForCode(
        500,
        "This pod has more than one PodDisruptionBudget, which the eviction "
        "subresource does not support.");
  }
  const ResourceType* pdbs = FindResourceType("poddisruptionbudgets");
  ApiResult<ObjectPtr> stored = store->Get(*pdbs, ns, budgets.front().name);
  if (!stored.ok()) return stored.error();
  rapidjson::Document budget;
  budget.Parse((*stored)->json.c_str());
  static const rapidjson::Value kNull;
  const rapidjson::Value& budget_status =
      budget.HasMember("status") ? budget["status"] : kNull;
  // A pod that is not Ready does not count as healthy: while the budget
  // has its healthy pods it goes without taking the allowance down.
  const int64_t desired = IntegerOr(budget_status, "desiredHealthy", 0);
  if (!PodReady(pod) && desired > 0 &&
      IntegerOr(budget_status, "currentHealthy", 0) >= desired) {
    return std::nullopt;
  }
  const ApiError refused = ApiError::ForCode(
      429, "Cannot evict pod as it would violate the pod's disruption budget.");
  ApiResult<ObjectPtr> taken = store->Mutate(
      *pdbs, ns, budgets.front().name,
      [&refused](rapidjson::Document& pdb) -> std::optional<ApiError> {
        static const rapidjson::Value kNull;
        const rapidjson::Value& status =
            pdb.HasMember("status") ? pdb["status"] : kNull;
        // kube-apiserver sets metadata.generation 1 on create.
        if (IntegerOr(status, "observedGeneration", 0) <
            IntegerOr(Metadata(pdb), "generation", 1)) {
          return refused;
        }
        const int64_t allowed = IntegerOr(status, "disruptionsAllowed", 0);
        if (allowed <= 0) return refused;
        rapidjson::Value& out = EnsureObject(pdb, "status", pdb.GetAllocator());
        out.RemoveMember("disruptionsAllowed");
        out.AddMember("disruptionsAllowed", rapidjson::Value(allowed - 1),
                      pdb.GetAllocator());
        return std::nullopt;
      });
  if (!taken.ok()) return taken.error();
  return std::nullopt;
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
  if (std::optional<ApiError> refused =
          TakeDisruption(store, ns, pod, (*current)->labels)) {
    return *refused;
  }
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

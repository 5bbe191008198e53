#include "apiserver/scale_subresource.h"

#include "apiserver/json_util.h"
#include "apiserver/merge_patch.h"

namespace propscaler::sim {
namespace {

int64_t IntAt(const rapidjson::Value& object, const char* outer,
              const char* inner, int64_t fallback) {
  if (!object.IsObject()) return fallback;
  auto o = object.FindMember(outer);
  if (o == object.MemberEnd() || !o->value.IsObject()) return fallback;
  auto i = o->value.FindMember(inner);
  if (i == o->value.MemberEnd() || !i->value.IsInt64()) return fallback;
  return i->value.GetInt64();
}

void SetIntAt(rapidjson::Document& doc, const char* outer, const char* inner,
              int64_t value) {
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& o = EnsureObject(doc, outer, alloc);
  auto i = o.FindMember(inner);
  if (i != o.MemberEnd()) {
    i->value.SetInt64(value);
  } else {
    o.AddMember(rapidjson::Value(inner, alloc), rapidjson::Value(value), alloc);
  }
}

rapidjson::Document ScaleOf(const rapidjson::Value& workload) {
  rapidjson::Document scale(rapidjson::kObjectType);
  auto& alloc = scale.GetAllocator();
  SetString(scale, "kind", "Scale", alloc);
  SetString(scale, "apiVersion", "autoscaling/v1", alloc);
  rapidjson::Value& metadata = EnsureObject(scale, "metadata", alloc);
  const rapidjson::Value& source = Metadata(workload);
  for (const char* field :
       {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    std::string value = GetString(source, field);
    if (!value.empty()) SetString(metadata, field, value, alloc);
  }
  int64_t replicas = SpecReplicas(workload);
  SetIntAt(scale, "spec", "replicas", replicas);
  SetIntAt(scale, "status", "replicas",
           IntAt(workload, "status", "replicas", replicas));
  return scale;
}

ApiResult<std::string> ScaleJson(const ApiResult<ObjectPtr>& workload) {
  if (!workload.ok()) return workload.error();
  rapidjson::Document doc;
  doc.Parse((*workload)->json.data(), (*workload)->json.size());
  return ToJson(ScaleOf(doc));
}

// Applies a desired Scale (whole, or `patch` of the current one) to the
// workload in `doc`.
ApiResult<std::string> SetScale(ObjectStore& store, const ResourcePath& path,
                                const rapidjson::Value& body, bool patch) {
  auto apply = [&](rapidjson::Document& doc) -> std::optional<ApiError> {
    rapidjson::Document wanted = ScaleOf(doc);
    std::string current_rv = GetString(Metadata(doc), "resourceVersion");
    if (patch) {
      ApplyMergePatch(wanted, body, wanted.GetAllocator());
    } else {
      wanted.CopyFrom(body, wanted.GetAllocator());
    }
    std::string rv = GetString(Metadata(wanted), "resourceVersion");
    if (!rv.empty() && rv != current_rv) {
      return ApiError::Conflict(path.type->QualifiedName(), path.name,
                                "the object has been modified; please apply "
                                "your changes to the latest version and try "
                                "again");
    }
    int64_t replicas = IntAt(wanted, "spec", "replicas", -1);
    if (replicas < 0) {
      return ApiError::Invalid("Scale.autoscaling \"" + path.name +
                               "\" is invalid: spec.replicas: Invalid value: "
                               "must be a non-negative integer");
    }
    SetIntAt(doc, "spec", "replicas", replicas);
    SetIntAt(doc, "status", "replicas", replicas);
    return std::nullopt;
  };
  return ScaleJson(store.Mutate(*path.type, path.ns, path.name, apply));
}

}  // namespace

int64_t SpecReplicas(const rapidjson::Value& workload) {
  return IntAt(workload, "spec", "replicas", 1);
}

ApiResult<std::string> GetScale(const ObjectStore& store,
                                const ResourcePath& path) {
  return ScaleJson(store.Get(*path.type, path.ns, path.name));
}

ApiResult<std::string> PutScale(ObjectStore& store, const ResourcePath& path,
                                const rapidjson::Value& scale) {
  return SetScale(store, path, scale, /*patch=*/false);
}

ApiResult<std::string> PatchScale(ObjectStore& store, const ResourcePath& path,
                                  const rapidjson::Value& patch) {
  return SetScale(store, path, patch, /*patch=*/true);
}

}  // namespace propscaler::sim

#include "envtest/real_objects.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <chrono>

#include "common/utc_time.h"
#include "e2e/process.h"
#include "kube/wire/decode.h"
#include "kube/wire/json_list_watch.h"
#include "transport/api.h"

namespace propscaler::envtest {
namespace {

// `text` as a JSON string literal.
std::string Quoted(const std::string& text) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(text.c_str(), static_cast<rapidjson::SizeType>(text.size()));
  return buffer.GetString();
}

// A plain (unquoted) YAML scalar as a JSON bool or integer where it is
// one; false when it is a string.
bool WriteTypedScalar(const YAML::Node& node,
                      rapidjson::Writer<rapidjson::StringBuffer>* out) {
  if (node.Tag() != "?") return false;  // quoted: a string
  const std::string& text = node.Scalar();
  if (text == "true" || text == "false") {
    out->Bool(text == "true");
    return true;
  }
  int64_t number = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size()) return false;
  out->Int64(number);
  return true;
}

// YAML as JSON: maps, sequences, and scalars as strings, bools or integers.
void WriteJson(const YAML::Node& node,
               rapidjson::Writer<rapidjson::StringBuffer>* out) {
  if (node.IsMap()) {
    out->StartObject();
    for (const auto& entry : node) {
      out->Key(entry.first.as<std::string>().c_str());
      WriteJson(entry.second, out);
    }
    out->EndObject();
  } else if (node.IsSequence()) {
    out->StartArray();
    for (const auto& item : node) WriteJson(item, out);
    out->EndArray();
  } else if (node.IsScalar()) {
    if (!WriteTypedScalar(node, out)) out->String(node.Scalar().c_str());
  } else {
    out->Null();
  }
}

std::string ToJson(const YAML::Node& node) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  WriteJson(node, &writer);
  return buffer.GetString();
}

Result<rapidjson::Document> ParseBody(const std::string& body,
                                      const std::string& what) {
  rapidjson::Document doc;
  doc.Parse(body.c_str());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::Internal(what +
                            ": not a JSON object: " + body.substr(0, 200));
  }
  return doc;
}

std::string RbacPath(const std::string& kind, const std::string& ns) {
  const std::string base = "/apis/rbac.authorization.k8s.io/v1";
  if (kind == "Role") return base + "/namespaces/" + ns + "/roles";
  if (kind == "RoleBinding")
    return base + "/namespaces/" + ns + "/rolebindings";
  if (kind == "ClusterRole") return base + "/clusterroles";
  return base + "/clusterrolebindings";
}

std::string NodeJson(const RealNode& node) {
  std::string labels;
  if (!node.label.empty()) {
    const size_t eq = node.label.find('=');
    labels = ",\"labels\":{" + Quoted(node.label.substr(0, eq)) + ":" +
             Quoted(node.label.substr(eq + 1)) + "}";
  }
  return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":" +
         Quoted(node.name) + labels + "},\"spec\":{\"unschedulable\":" +
         (node.unschedulable ? "true" : "false") +
         "},\"status\":{\"capacity\":{\"cpu\":" + Quoted(node.cpu) +
         ",\"memory\":\"16Gi\",\"pods\":\"110\"},\"allocatable\":{\"cpu\":" +
         Quoted(node.cpu) +
         ",\"memory\":\"16Gi\",\"pods\":\"110\"},\"conditions\":[{\"type\":"
         "\"Ready\",\"status\":" +
         (node.ready ? "\"True\"" : "\"False\"") + "}]}}";
}

Result<std::vector<YAML::Node>> LoadYaml(const std::string& yaml) {
  try {
    return YAML::LoadAll(yaml);
  } catch (const YAML::Exception& e) {
    return Status::Invalid(std::string("manifest: ") + e.what());
  }
}

}  // namespace

Result<std::string> AdminCall(const RealCluster& cluster,
                              const std::string& method,
                              const std::string& path, const std::string& body,
                              const std::string& content_type) {
  Result<kube::HttpResponse> response =
      cluster.Admin(method, path, body, content_type);
  if (!response.ok()) return response.status().WithContext(method + " " + path);
  if (response->status < 200 || response->status >= 300) {
    const StatusCode code = response->status == 404   ? StatusCode::kNotFound
                            : response->status == 409 ? StatusCode::kConflict
                                                      : StatusCode::kInternal;
    return Status(code, method + " " + path + ": HTTP " +
                            std::to_string(response->status) + ": " +
                            kube::DecodeStatusMessage(response->body));
  }
  return std::move(response->body);
}

Status CreateNamespace(const RealCluster& cluster, const std::string& ns) {
  return AdminCall(cluster, "POST", "/api/v1/namespaces",
                   "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                   "\"metadata\":{\"name\":" +
                       Quoted(ns) + "}}")
      .status();
}

Status CreateServiceAccount(const RealCluster& cluster, const std::string& ns,
                            const std::string& name) {
  return AdminCall(cluster, "POST",
                   "/api/v1/namespaces/" + ns + "/serviceaccounts",
                   "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
                   "\"metadata\":{\"name\":" +
                       Quoted(name) + "}}")
      .status();
}

Result<std::string> ServiceAccountToken(const RealCluster& cluster,
                                        const std::string& ns,
                                        const std::string& account,
                                        const std::string& bound_secret,
                                        int valid_seconds) {
  std::string bound;
  if (!bound_secret.empty()) {
    Result<std::string> secret =
        AdminCall(cluster, "GET",
                  "/api/v1/namespaces/" + ns + "/secrets/" + bound_secret);
    if (!secret.ok()) return secret.status();
    Result<rapidjson::Document> doc = ParseBody(*secret, "secret");
    if (!doc.ok()) return doc.status();
    bound =
        ",\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
        "\"name\":" +
        Quoted(bound_secret) +
        ",\"uid\":" + Quoted((*doc)["metadata"]["uid"].GetString()) + "}";
  }
  Result<std::string> body = AdminCall(
      cluster, "POST",
      "/api/v1/namespaces/" + ns + "/serviceaccounts/" + account + "/token",
      "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
      "\"spec\":{\"expirationSeconds\":" +
          std::to_string(valid_seconds) + bound + "}}");
  if (!body.ok()) return body.status();
  Result<rapidjson::Document> doc = ParseBody(*body, "token request");
  if (!doc.ok()) return doc.status();
  const auto& status = (*doc)["status"];
  if (!status.IsObject() || !status.HasMember("token")) {
    return Status::Internal("token request answered without status.token");
  }
  return std::string(status["token"].GetString());
}

Status CreateCustomResourceDefinitions(const RealCluster& cluster,
                                       const std::string& yaml) {
  Result<std::vector<YAML::Node>> documents = LoadYaml(yaml);
  if (!documents.ok()) return documents.status();
  const std::string crds =
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  for (const YAML::Node& document : *documents) {
    if (!document.IsMap()) continue;
    Result<std::string> created =
        AdminCall(cluster, "POST", crds, ToJson(document));
    // Another test on the shared server installed it already.
    if (!created.ok() && created.status().code() != StatusCode::kConflict) {
      return created.status();
    }
    const std::string name = document["metadata"]["name"].as<std::string>();
    const bool established = e2e::WaitUntil(
        [&] {
          Result<std::string> crd =
              AdminCall(cluster, "GET", crds + "/" + name);
          return crd.ok() &&
                 crd->find(R"("type":"Established","status":"True")") !=
                     std::string::npos;
        },
        std::chrono::seconds(30));
    if (!established) {
      return Status::Unavailable("CRD " + name + " not established in 30s");
    }
  }
  return Status::Ok();
}

// The collection a kind is created in, and whether it is namespaced; the
// kinds deploy/ holds.
struct KindPath {
  const char* kind;
  const char* group_version_path;  // "/api/v1", "/apis/apps/v1"
  const char* plural;
  bool namespaced;
};
constexpr KindPath kManifestKinds[] = {
    {"Namespace", "/api/v1", "namespaces", false},
    {"ServiceAccount", "/api/v1", "serviceaccounts", true},
    {"ConfigMap", "/api/v1", "configmaps", true},
    {"Service", "/api/v1", "services", true},
    {"Deployment", "/apis/apps/v1", "deployments", true},
    {"Role", "/apis/rbac.authorization.k8s.io/v1", "roles", true},
    {"RoleBinding", "/apis/rbac.authorization.k8s.io/v1", "rolebindings", true},
    {"ClusterRole", "/apis/rbac.authorization.k8s.io/v1", "clusterroles",
     false},
    {"ClusterRoleBinding", "/apis/rbac.authorization.k8s.io/v1",
     "clusterrolebindings", false},
    {"CustomResourceDefinition", "/apis/apiextensions.k8s.io/v1",
     "customresourcedefinitions", false},
};

Result<int> DryRunManifest(const RealCluster& cluster, const std::string& yaml,
                           const std::string& ns) {
  Result<std::vector<YAML::Node>> documents = LoadYaml(yaml);
  if (!documents.ok()) return documents.status();
  int accepted = 0;
  for (YAML::Node document : *documents) {
    if (!document.IsMap()) continue;
    const std::string kind = document["kind"].as<std::string>("");
    const std::string name = document["metadata"]["name"].as<std::string>("");
    const KindPath* known = nullptr;
    for (const KindPath& entry : kManifestKinds) {
      if (kind == entry.kind) known = &entry;
    }
    if (known == nullptr) {
      return Status::Invalid("kind " + kind + " of " + name +
                             " is not known to DryRunManifest");
    }
    std::string path = known->group_version_path;
    if (known->namespaced) {
      document["metadata"]["namespace"] = ns;
      path += "/namespaces/" + ns;
    }
    path += std::string("/") + known->plural;
    Result<std::string> created =
        AdminCall(cluster, "POST", path + "?dryRun=All", ToJson(document));
    // A CRD has one name on the server, and another test may have
    // installed it: the manifest is then validated as an update of it.
    if (!created.ok() && created.status().code() == StatusCode::kConflict &&
        kind == "CustomResourceDefinition") {
      Result<std::string> current =
          AdminCall(cluster, "GET", path + "/" + name);
      if (!current.ok()) return current.status();
      Result<rapidjson::Document> doc =
          kube::ParseJsonObject(*current, "CustomResourceDefinition");
      if (!doc.ok()) return doc.status();
      document["metadata"]["resourceVersion"] =
          kube::JsonString((*doc)["metadata"], "resourceVersion");
      created = AdminCall(cluster, "PUT", path + "/" + name + "?dryRun=All",
                          ToJson(document));
    }
    if (!created.ok()) {
      return created.status().WithContext(kind + " " + name);
    }
    ++accepted;
  }
  return accepted;
}

Status ApplyRbacManifest(const RealCluster& cluster, const std::string& yaml,
                         const std::string& ns) {
  Result<std::vector<YAML::Node>> documents = LoadYaml(yaml);
  if (!documents.ok()) return documents.status();
  for (YAML::Node document : *documents) {
    if (!document.IsMap()) continue;
    const std::string kind = document["kind"].as<std::string>("");
    const bool cluster_scoped =
        kind == "ClusterRole" || kind == "ClusterRoleBinding";
    if (!cluster_scoped && kind != "Role" && kind != "RoleBinding") continue;
    YAML::Node metadata = document["metadata"];
    if (cluster_scoped) {
      metadata["name"] = metadata["name"].as<std::string>() + "-" + ns;
    } else {
      metadata["namespace"] = ns;
    }
    if (document["roleRef"] &&
        document["roleRef"]["kind"].as<std::string>("") == "ClusterRole") {
      document["roleRef"]["name"] =
          document["roleRef"]["name"].as<std::string>() + "-" + ns;
    }
    if (document["subjects"]) {
      for (YAML::Node subject : document["subjects"]) {
        // As kustomize's namespace transformer does.
        if (subject["kind"].as<std::string>("") == "ServiceAccount") {
          subject["namespace"] = ns;
        }
      }
    }
    Result<std::string> created =
        AdminCall(cluster, "POST", RbacPath(kind, ns), ToJson(document));
    if (!created.ok()) return created.status();
  }
  return Status::Ok();
}

Status CreateNode(const RealCluster& cluster, const RealNode& node) {
  Status created =
      AdminCall(cluster, "POST", "/api/v1/nodes", NodeJson(node)).status();
  if (!created.ok() || !node.ready) return created;
  return ClearNotReadyTaint(cluster, node.name);
}

Status ClearNotReadyTaint(const RealCluster& cluster, const std::string& name) {
  Result<std::string> json = AdminCall(cluster, "GET", "/api/v1/nodes/" + name);
  if (!json.ok()) return json.status();
  Result<rapidjson::Document> node = ParseBody(*json, "node " + name);
  if (!node.ok()) return node.status();
  const auto spec = node->FindMember("spec");
  if (spec == node->MemberEnd() || !spec->value.HasMember("taints")) {
    return Status::Ok();
  }
  const auto& taints = spec->value["taints"];
  for (rapidjson::SizeType i = 0; i < taints.Size(); ++i) {
    if (std::string(taints[i]["key"].GetString()) !=
        "node.kubernetes.io/not-ready") {
      continue;
    }
    // The test op makes a concurrent change fail instead of removing
    // another taint.
    const std::string at = "/spec/taints/" + std::to_string(i);
    return AdminCall(cluster, "PATCH", "/api/v1/nodes/" + name,
                     R"([{"op":"test","path":")" + at +
                         R"(/key","value":"node.kubernetes.io/not-ready"},)"
                         R"({"op":"remove","path":")" +
                         at + R"("}])",
                     "application/json-patch+json")
        .status();
  }
  return Status::Ok();
}

Status SetNodeReady(const RealCluster& cluster, const std::string& name,
                    bool ready) {
  return AdminCall(cluster, "PATCH", "/api/v1/nodes/" + name + "/status",
                   std::string("{\"status\":{\"conditions\":[{\"type\":"
                               "\"Ready\",\"status\":") +
                       (ready ? "\"True\"" : "\"False\"") + "}]}}",
                   "application/strategic-merge-patch+json")
      .status();
}

Status CordonNode(const RealCluster& cluster, const std::string& name) {
  return AdminCall(cluster, "PATCH", "/api/v1/nodes/" + name,
                   "{\"spec\":{\"unschedulable\":true}}",
                   "application/strategic-merge-patch+json")
      .status();
}

Status DeleteNode(const RealCluster& cluster, const std::string& name) {
  return AdminCall(cluster, "DELETE", "/api/v1/nodes/" + name).status();
}

Status CreateDeployment(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, int64_t replicas) {
  const std::string labels = "{\"app\":" + Quoted(name) + "}";
  return AdminCall(
             cluster, "POST", "/apis/apps/v1/namespaces/" + ns + "/deployments",
             "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
             "\"metadata\":{\"name\":" +
                 Quoted(name) +
                 "},\"spec\":{\"replicas\":" + std::to_string(replicas) +
                 ",\"selector\":{\"matchLabels\":" + labels +
                 "},\"template\":{\"metadata\":{\"labels\":" + labels +
                 "},\"spec\":{\"containers\":[{\"name\":\"dns\",\"image\":"
                 "\"registry.k8s.io/coredns/coredns:v1.11.1\"}]}}}}")
      .status();
}

Result<int64_t> DeploymentReplicas(const RealCluster& cluster,
                                   const std::string& ns,
                                   const std::string& name) {
  Result<std::string> body =
      AdminCall(cluster, "GET",
                "/apis/apps/v1/namespaces/" + ns + "/deployments/" + name);
  if (!body.ok()) return body.status();
  Result<rapidjson::Document> doc = ParseBody(*body, "deployment " + name);
  if (!doc.ok()) return doc.status();
  return (*doc)["spec"]["replicas"].GetInt64();
}

Status ScaleDeployment(const RealCluster& cluster, const std::string& ns,
                       const std::string& name, int64_t replicas) {
  return AdminCall(cluster, "PATCH",
                   "/apis/apps/v1/namespaces/" + ns + "/deployments/" + name +
                       "/scale",
                   kube::EncodeReplicasPatch(replicas),
                   "application/merge-patch+json")
      .status();
}

Status PutConfigMap(const RealCluster& cluster, const std::string& ns,
                    const std::string& name, const std::string& key,
                    const std::string& value) {
  const std::string path = "/api/v1/namespaces/" + ns + "/configmaps";
  const std::string body =
      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":" +
      Quoted(name) + "},\"data\":{" + Quoted(key) + ":" + Quoted(value) + "}}";
  Result<kube::HttpResponse> existing = cluster.Admin("GET", path + "/" + name);
  if (existing.ok() && existing->status == 200) {
    return AdminCall(cluster, "PUT", path + "/" + name, body).status();
  }
  return AdminCall(cluster, "POST", path, body).status();
}

Result<std::string> ConfigMapValue(const RealCluster& cluster,
                                   const std::string& ns,
                                   const std::string& name,
                                   const std::string& key) {
  Result<std::string> body = AdminCall(
      cluster, "GET", "/api/v1/namespaces/" + ns + "/configmaps/" + name);
  if (!body.ok()) return body.status();
  Result<rapidjson::Document> doc = ParseBody(*body, "configmap " + name);
  if (!doc.ok()) return doc.status();
  if (!doc->HasMember("data") || !(*doc)["data"].HasMember(key.c_str())) {
    return Status::NotFound("configmap " + name + " has no data." + key);
  }
  return std::string((*doc)["data"][key.c_str()].GetString());
}

Status DeleteConfigMap(const RealCluster& cluster, const std::string& ns,
                       const std::string& name) {
  return AdminCall(cluster, "DELETE",
                   "/api/v1/namespaces/" + ns + "/configmaps/" + name)
      .status();
}

Status CreatePendingPod(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, const std::string& cpu,
                        const PodExtras& extras) {
  const Status created = CreateUntriedPod(cluster, ns, name, cpu, extras);
  return created.ok() ? MarkUnschedulable(cluster, ns, name) : created;
}

Status CreateUntriedPod(const RealCluster& cluster, const std::string& ns,
                        const std::string& name, const std::string& cpu,
                        const PodExtras& extras) {
  // No token is mounted: without a controller manager the service account
  // has no token Secret, and admission refuses pods that would mount one.
  return AdminCall(
             cluster, "POST", "/api/v1/namespaces/" + ns + "/pods",
             "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
             "\"name\":" +
                 Quoted(name) +
                 (extras.labels.empty() ? "" : ",\"labels\":" + extras.labels) +
                 (extras.annotations.empty()
                      ? ""
                      : ",\"annotations\":" + extras.annotations) +
                 ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\","
                 "\"kind\":\"ReplicaSet\",\"name\":\"web\",\"uid\":"
                 "\"00000000-0000-0000-0000-000000000001\","
                 "\"controller\":true}]},\"spec\":{"
                 "\"automountServiceAccountToken\":false,\"containers\":[{"
                 "\"name\":\"c\",\"image\":\"registry.k8s.io/pause:3.9\","
                 "\"resources\":{\"requests\":{\"cpu\":" +
                 Quoted(cpu) + ",\"memory\":" + Quoted(extras.memory) + "}}}]" +
                 (extras.spec.empty() ? "" : "," + extras.spec) + "}}")
      .status();
}

Status MarkUnschedulable(const RealCluster& cluster, const std::string& ns,
                         const std::string& name) {
  return AdminCall(cluster, "PATCH",
                   "/api/v1/namespaces/" + ns + "/pods/" + name + "/status",
                   "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\","
                   "\"status\":\"False\",\"reason\":\"Unschedulable\","
                   "\"message\":\"0/0 nodes are available\","
                   "\"lastTransitionTime\":" +
                       Quoted(FormatUtc(std::chrono::system_clock::now(),
                                        "%Y-%m-%dT%H:%M:%SZ")) +
                       "}]}}",
                   "application/strategic-merge-patch+json")
      .status();
}

Status BindPod(const RealCluster& cluster, const std::string& ns,
               const std::string& name, const std::string& node) {
  return AdminCall(cluster, "POST",
                   "/api/v1/namespaces/" + ns + "/pods/" + name + "/binding",
                   "{\"apiVersion\":\"v1\",\"kind\":\"Binding\","
                   "\"metadata\":{\"name\":" +
                       Quoted(name) +
                       "},\"target\":{\"apiVersion\":\"v1\",\"kind\":"
                       "\"Node\",\"name\":" +
                       Quoted(node) + "}}")
      .status();
}

Status CreateBoundClaim(const RealCluster& cluster, const std::string& ns,
                        const RealBoundClaim& bound) {
  const std::string volume = ns + "-" + bound.claim;
  std::string affinity;
  if (!bound.zone.empty()) {
    affinity = R"(,"nodeAffinity":{"required":{"nodeSelectorTerms":[{)"
               R"("matchExpressions":[{"key":"topology.kubernetes.io/zone",)"
               R"("operator":"In","values":[)" +
               Quoted(bound.zone) + "]}]}]}}";
  }
  Status pv =
      AdminCall(cluster, "POST", "/api/v1/persistentvolumes",
                R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":)"
                R"({"name":)" +
                    Quoted(volume) +
                    R"(},"spec":{"capacity":{"storage":"1Gi"},)"
                    R"("accessModes":["ReadWriteOnce"],)"
                    R"("storageClassName":"disk","csi":{"driver":)" +
                    Quoted(bound.driver) + R"(,"volumeHandle":)" +
                    Quoted(bound.handle) + R"(},"claimRef":{"namespace":)" +
                    Quoted(ns) + R"(,"name":)" + Quoted(bound.claim) + "}" +
                    affinity + "}}")
          .status();
  if (!pv.ok()) return pv;
  return AdminCall(
             cluster, "POST",
             "/api/v1/namespaces/" + ns + "/persistentvolumeclaims",
             R"({"apiVersion":"v1","kind":"PersistentVolumeClaim",)"
             R"("metadata":{"name":)" +
                 Quoted(bound.claim) +
                 R"(,"annotations":{"pv.kubernetes.io/bind-completed":"yes"}},)"
                 R"("spec":{"accessModes":["ReadWriteOnce"],)"
                 R"("storageClassName":"disk","volumeName":)" +
                 Quoted(volume) +
                 R"(,"resources":{"requests":{"storage":"1Gi"}}}})")
      .status();
}

Status DeletePod(const RealCluster& cluster, const std::string& ns,
                 const std::string& name) {
  return AdminCall(cluster, "DELETE",
                   "/api/v1/namespaces/" + ns + "/pods/" + name +
                       "?gracePeriodSeconds=0")
      .status();
}

Result<rapidjson::Document> AdminList(const RealCluster& cluster,
                                      const std::string& path) {
  Result<std::string> body = AdminCall(cluster, "GET", path);
  if (!body.ok()) return body.status();
  Result<rapidjson::Document> doc = ParseBody(*body, "GET " + path);
  if (doc.ok() && !(doc->HasMember("items") && (*doc)["items"].IsArray())) {
    return Status::Internal("GET " + path +
                            ": not a list: " + body->substr(0, 200));
  }
  return doc;
}

Result<std::vector<std::string>> NodeNames(const RealCluster& cluster,
                                           const std::string& selector) {
  Result<rapidjson::Document> doc = AdminList(
      cluster, "/api/v1/nodes?labelSelector=" + kube::QueryEscape(selector));
  if (!doc.ok()) return doc.status();
  std::vector<std::string> names;
  for (const auto& item : (*doc)["items"].GetArray()) {
    names.emplace_back(item["metadata"]["name"].GetString());
  }
  return names;
}

Result<std::string> LeaseHolder(const RealCluster& cluster,
                                const std::string& ns,
                                const std::string& name) {
  Result<std::string> body = AdminCall(
      cluster, "GET",
      "/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/" + name);
  if (!body.ok()) return body.status();
  Result<rapidjson::Document> doc = ParseBody(*body, "lease " + name);
  if (!doc.ok()) return doc.status();
  const auto& spec = (*doc)["spec"];
  if (!spec.IsObject() || !spec.HasMember("holderIdentity"))
    return std::string();
  return std::string(spec["holderIdentity"].GetString());
}

}  // namespace propscaler::envtest

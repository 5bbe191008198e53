#include "apiserver/fake_apiserver.h"

#include <httplib.h>

#include <algorithm>

#include "apiserver/api_routes.h"
#include "apiserver/eviction_route.h"
#include "apiserver/json_util.h"
#include "apiserver/node_file.h"
#include "apiserver/node_generator.h"
#include "apiserver/request_gate.h"
#include "apiserver/resources.h"
#include "apiserver/scale_subresource.h"
#include "apiserver/sim_routes.h"
#include "server/background_listener.h"

namespace propscaler::sim {
namespace {

const ResourceType& Nodes() { return *FindResourceType("nodes"); }

ApiResult<rapidjson::Document> ParseObject(const std::string& json) {
  rapidjson::Document doc;
  std::string error;
  if (!ParseJsonObject(json, &doc, &error)) return ApiError::BadRequest(error);
  return doc;
}

Status ToStatus(const ApiResult<ObjectPtr>& result) {
  return result.ok() ? Status::Ok() : result.error().ToStatus();
}

Result<const ResourceType*> WorkloadType(const std::string& kind) {
  const ResourceType* type = FindResourceType(kind);
  if (type == nullptr || !type->scalable) {
    return Status::Invalid("not a scalable workload kind: " + kind);
  }
  return type;
}

std::string ConfigMapJson(const std::string& name,
                          const std::map<std::string, std::string>& data) {
  std::string json =
      "{\"metadata\":{\"name\":" + QuoteJson(name) + "},\"data\":{";
  bool first = true;
  for (const auto& [key, value] : data) {
    if (!first) json += ',';
    first = false;
    json += QuoteJson(key) + ":" + QuoteJson(value);
  }
  return json + "}}";
}

}  // namespace

FakeApiServer::FakeApiServer() = default;

FakeApiServer::~FakeApiServer() { Stop(); }

Status FakeApiServer::Start(const FakeApiServerOptions& options) {
  if (server_) return Status::Internal("FakeApiServer already started");
  store_.SetHistorySize(options.history_size);
  if (Status s = LoadInitialNodes(options); !s.ok()) return s;
  if (Status s = MakeServer(options); !s.ok()) return s;
  InstallRoutes(options);
  host_ = options.host;
  port_ = options.port == 0 ? server_->bind_to_any_port(options.host)
                            : (server_->bind_to_port(options.host, options.port)
                                   ? options.port
                                   : -1);
  if (port_ <= 0) {
    server_.reset();
    return Status::Unavailable("cannot listen on " + options.host + ":" +
                               std::to_string(options.port));
  }
  listener_ = ListenInBackground(server_.get());
  return Status::Ok();
}

Status FakeApiServer::LoadInitialNodes(const FakeApiServerOptions& options) {
  std::vector<std::string> nodes;
  if (!options.nodes_file.empty()) {
    Result<std::vector<std::string>> loaded = ReadNodeFile(options.nodes_file);
    if (!loaded.ok()) return loaded.status();
    nodes = *std::move(loaded);
  }
  for (std::string& node : GenerateNodes("sim-node-", options.generate_nodes,
                                         options.generated_node_cores)) {
    nodes.push_back(std::move(node));
  }
  for (const std::string& node : nodes) {
    if (Status s = CreateNode(node); !s.ok()) return s;
  }
  return Status::Ok();
}

Status FakeApiServer::MakeServer(const FakeApiServerOptions& options) {
  bool tls = !options.tls_cert_file.empty() || !options.tls_key_file.empty();
  if (!tls) {
    server_ = std::make_unique<httplib::Server>();
  } else {
    const char* ca = options.client_ca_file.empty()
                         ? nullptr
                         : options.client_ca_file.c_str();
    auto ssl = std::make_unique<httplib::SSLServer>(
        options.tls_cert_file.c_str(), options.tls_key_file.c_str(), ca);
    if (!ssl->is_valid()) {
      return Status::Invalid(
          "cannot load TLS certificate " + options.tls_cert_file + " / key " +
          options.tls_key_file +
          (ca ? " / client CA " + options.client_ca_file : std::string()));
    }
    server_ = std::move(ssl);
    scheme_ = "https";
  }
  server_->set_keep_alive_timeout(options.keep_alive_timeout.count());
  int threads = options.threads;
  server_->new_task_queue = [threads] {
    return new httplib::ThreadPool(threads);
  };
  return Status::Ok();
}

void FakeApiServer::InstallRoutes(const FakeApiServerOptions& options) {
  InstallRequestGate(
      *server_, RequestGateContext{&counter_, &faults_, options.bearer_token});
  InstallSimRoutes(*server_, SimRouteContext{&store_, &counter_, &faults_});
  ApiRouteContext api;
  api.store = &store_;
  api.watch.default_timeout = options.default_watch_timeout;
  api.watch.bookmark_interval = options.bookmark_interval;
  api.open_watches = &open_watches_;
  InstallEvictionRoute(*server_, &store_);
  InstallApiRoutes(*server_, api);
}

void FakeApiServer::Stop() {
  if (!server_) return;
  store_.Shutdown();
  server_->stop();
  if (listener_.joinable()) listener_.join();
  server_.reset();
}

std::string FakeApiServer::url() const {
  return scheme_ + "://" + host_ + ":" + std::to_string(port_);
}

Status FakeApiServer::CreateNode(const std::string& node_json) {
  ApiResult<rapidjson::Document> doc = ParseObject(node_json);
  if (!doc.ok()) return doc.error().ToStatus();
  return ToStatus(store_.Create(Nodes(), "", std::move(doc).value()));
}

Status FakeApiServer::UpdateNode(const std::string& node_json) {
  ApiResult<rapidjson::Document> doc = ParseObject(node_json);
  if (!doc.ok()) return doc.error().ToStatus();
  std::string name = GetString(Metadata(*doc), "name");
  return ToStatus(store_.Update(Nodes(), "", name, std::move(doc).value()));
}

Status FakeApiServer::PatchNode(const std::string& name,
                                const std::string& merge_patch) {
  ApiResult<rapidjson::Document> patch = ParseObject(merge_patch);
  if (!patch.ok()) return patch.error().ToStatus();
  return ToStatus(store_.Patch(Nodes(), "", name, *patch));
}

Status FakeApiServer::DeleteNode(const std::string& name) {
  return ToStatus(store_.Delete(Nodes(), "", name));
}

std::vector<std::string> FakeApiServer::NodeNames() const {
  ListChunk chunk = store_.List(
      Nodes(), "", std::nullopt,
      [](const ObjectKey&, const StoredObject&) { return true; }, 0);
  std::vector<std::string> names;
  for (const auto& [key, object] : chunk.objects) names.push_back(key.name);
  return names;
}

std::optional<std::string> FakeApiServer::GetObject(
    const std::string& path) const {
  std::optional<ResourcePath> parsed = ParseResourcePath(path);
  if (!parsed || parsed->is_collection()) return std::nullopt;
  ApiResult<ObjectPtr> object =
      store_.Get(*parsed->type, parsed->ns, parsed->name);
  if (!object.ok()) return std::nullopt;
  return (*object)->json;
}

Status FakeApiServer::CreateObject(const std::string& collection_path,
                                   const std::string& object_json) {
  std::optional<ResourcePath> parsed = ParseResourcePath(collection_path);
  if (!parsed || !parsed->is_collection()) {
    return Status::Invalid("not a collection path: " + collection_path);
  }
  ApiResult<rapidjson::Document> doc = ParseObject(object_json);
  if (!doc.ok()) return doc.error().ToStatus();
  return ToStatus(
      store_.Create(*parsed->type, parsed->ns, std::move(doc).value()));
}

Status FakeApiServer::PutConfigMap(
    const std::string& ns, const std::string& name,
    const std::map<std::string, std::string>& data) {
  const ResourceType& type = *FindResourceType("configmaps");
  std::string json = ConfigMapJson(name, data);
  ApiResult<ObjectPtr> updated =
      store_.Update(type, ns, name, std::move(ParseObject(json)).value());
  if (updated.ok() || updated.error().code != 404) return ToStatus(updated);
  return ToStatus(
      store_.Create(type, ns, std::move(ParseObject(json)).value()));
}

std::optional<std::map<std::string, std::string>> FakeApiServer::ConfigMapData(
    const std::string& ns, const std::string& name) const {
  ApiResult<ObjectPtr> object =
      store_.Get(*FindResourceType("configmaps"), ns, name);
  if (!object.ok()) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse((*object)->json.data(), (*object)->json.size());
  std::map<std::string, std::string> data;
  auto it = doc.FindMember("data");
  if (it == doc.MemberEnd() || !it->value.IsObject()) return data;
  for (const auto& m : it->value.GetObject()) {
    if (m.value.IsString()) data[m.name.GetString()] = m.value.GetString();
  }
  return data;
}

Status FakeApiServer::CreateWorkload(const std::string& kind,
                                     const std::string& ns,
                                     const std::string& name,
                                     int64_t replicas) {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  std::string json =
      "{\"metadata\":{\"name\":" + QuoteJson(name) +
      ",\"labels\":{\"app\":" + QuoteJson(name) +
      "}},\"spec\":{\"replicas\":" + std::to_string(replicas) +
      ",\"selector\":{\"matchLabels\":{\"app\":" + QuoteJson(name) +
      "}}},\"status\":{\"replicas\":" + std::to_string(replicas) + "}}";
  return ToStatus(
      store_.Create(**type, ns, std::move(ParseObject(json)).value()));
}

Result<int64_t> FakeApiServer::GetReplicas(const std::string& kind,
                                           const std::string& ns,
                                           const std::string& name) const {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  ApiResult<ObjectPtr> object = store_.Get(**type, ns, name);
  if (!object.ok()) return object.error().ToStatus();
  rapidjson::Document doc;
  doc.Parse((*object)->json.data(), (*object)->json.size());
  return SpecReplicas(doc);
}

Status FakeApiServer::SetReplicas(const std::string& kind,
                                  const std::string& ns,
                                  const std::string& name, int64_t replicas) {
  Result<const ResourceType*> type = WorkloadType(kind);
  if (!type.ok()) return type.status();
  ResourcePath path{*type, ns, name, "scale"};
  rapidjson::Document patch;
  patch.Parse(
      ("{\"spec\":{\"replicas\":" + std::to_string(replicas) + "}}").c_str());
  ApiResult<std::string> scale = PatchScale(store_, path, patch);
  return scale.ok() ? Status::Ok() : scale.error().ToStatus();
}

std::vector<std::string> FakeApiServer::Events(const std::string& ns) const {
  ListChunk chunk = store_.List(
      *FindResourceType("events"), ns, std::nullopt,
      [](const ObjectKey&, const StoredObject&) { return true; }, 0);
  std::vector<std::pair<int64_t, std::string>> events;
  for (const auto& [key, object] : chunk.objects) {
    events.emplace_back(object->resource_version, object->json);
  }
  std::sort(events.begin(), events.end());
  std::vector<std::string> result;
  for (auto& [rv, json] : events) result.push_back(std::move(json));
  return result;
}

}  // namespace propscaler::sim

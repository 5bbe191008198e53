#include "kube/wire/lease_json.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "kube/wire/json_list_watch.h"

namespace propscaler::kube {
namespace {

constexpr char kLeases[] = "/apis/coordination.k8s.io/v1/namespaces/";

int IntOf(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject() || !object.HasMember(name)) return 0;
  return object[name].IsInt() ? object[name].GetInt() : 0;
}

}  // namespace

Result<Lease> DecodeLease(std::string_view body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    return Status::Invalid("lease: not a JSON object: " +
                           std::string(body.substr(0, 200)));
  }
  static const rapidjson::Value kEmpty(rapidjson::kObjectType);
  const rapidjson::Value& metadata =
      doc.HasMember("metadata") ? doc["metadata"] : kEmpty;
  const rapidjson::Value& spec = doc.HasMember("spec") ? doc["spec"] : kEmpty;
  Lease lease;
  lease.namespace_ = JsonString(metadata, "namespace");
  lease.name = JsonString(metadata, "name");
  lease.resource_version = JsonString(metadata, "resourceVersion");
  lease.holder = JsonString(spec, "holderIdentity");
  lease.lease_duration_seconds = IntOf(spec, "leaseDurationSeconds");
  lease.renew_time = JsonString(spec, "renewTime");
  lease.transitions = IntOf(spec, "leaseTransitions");
  return lease;
}

std::string EncodeLease(const Lease& lease) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("apiVersion");
  w.String("coordination.k8s.io/v1");
  w.Key("kind");
  w.String("Lease");
  w.Key("metadata");
  w.StartObject();
  w.Key("name");
  w.String(lease.name);
  w.Key("namespace");
  w.String(lease.namespace_);
  if (!lease.resource_version.empty()) {
    w.Key("resourceVersion");
    w.String(lease.resource_version);
  }
  w.EndObject();
  w.Key("spec");
  w.StartObject();
  w.Key("holderIdentity");
  w.String(lease.holder);
  w.Key("leaseDurationSeconds");
  w.Int(lease.lease_duration_seconds);
  w.Key("renewTime");
  w.String(lease.renew_time);
  w.Key("leaseTransitions");
  w.Int(lease.transitions);
  w.EndObject();
  w.EndObject();
  return buffer.GetString();
}

std::string LeasesPath(const std::string& ns) {
  return kLeases + ns + "/leases";
}

}  // namespace propscaler::kube

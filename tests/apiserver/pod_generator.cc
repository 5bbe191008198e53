#include "apiserver/pod_generator.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <array>
#include <cstdint>
#include <string_view>

namespace propscaler::sim {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct Container {
  const char* name;
  const char* image;
  const char* cpu_request;
  const char* memory_request;
  const char* memory_limit;
  int port;
};

constexpr std::array<Container, 3> kContainers = {{
    {"app", "registry.example.com/shop/app", "250m", "512Mi", "1Gi", 8080},
    {"envoy", "docker.io/envoyproxy/envoy:v1.29.4", "100m", "128Mi", "256Mi",
     15001},
    {"fluent-bit", "docker.io/fluent/fluent-bit:3.0.3", "50m", "64Mi", "128Mi",
     2020},
}};

void Str(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value);
}

// The app's image carries its version; the sidecars' name theirs.
std::string Image(const Container& c) {
  return std::string(c.image) +
         (c.name == std::string("app") ? ":v1.42.0" : "");
}

void WriteResources(Writer& w, const Container& c) {
  w.Key("resources");
  w.StartObject();
  w.Key("requests");
  w.StartObject();
  Str(w, "cpu", c.cpu_request);
  Str(w, "memory", c.memory_request);
  w.EndObject();
  w.Key("limits");
  w.StartObject();
  Str(w, "memory", c.memory_limit);
  w.EndObject();
  w.EndObject();
}

// A Deployment's pods share its namespace, team and labels.
std::string AppName(int index) { return "app-" + std::to_string(index / 20); }

std::string Team(int index) { return "team-" + std::to_string(index / 20 % 7); }

std::string Hex(int64_t value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(digits, '0');
  for (int i = digits - 1; i >= 0; --i, value /= 16) {
    out[i] = kHex[value % 16];
  }
  return out;
}

// The Deployment's manifest as `kubectl apply` records it.
std::string LastApplied(int index) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  const std::string app = AppName(index);
  w.StartObject();
  Str(w, "apiVersion", "apps/v1");
  Str(w, "kind", "Deployment");
  w.Key("metadata");
  w.StartObject();
  w.Key("labels");
  w.StartObject();
  Str(w, "app", app);
  Str(w, "team", Team(index));
  w.EndObject();
  Str(w, "name", app);
  Str(w, "namespace", RealisticPodNamespace(index));
  w.EndObject();
  w.Key("spec");
  w.StartObject();
  w.Key("replicas");
  w.Int(20);
  w.Key("selector");
  w.StartObject();
  w.Key("matchLabels");
  w.StartObject();
  Str(w, "app", app);
  w.EndObject();
  w.EndObject();
  w.Key("template");
  w.StartObject();
  w.Key("spec");
  w.StartObject();
  w.Key("containers");
  w.StartArray();
  for (const Container& c : kContainers) {
    w.StartObject();
    Str(w, "name", c.name);
    Str(w, "image", Image(c));
    WriteResources(w, c);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

void WriteMetadata(Writer& w, int index) {
  const std::string app = AppName(index);
  const std::string hash =
      Hex(index / 20 * 7919 % 65536, 4) + "d8f" + Hex(index / 20 % 4096, 3);
  w.Key("metadata");
  w.StartObject();
  Str(w, "name",
      app + "-" + hash + "-" + Hex(int64_t{index} * 2654435 % 1048576, 5));
  Str(w, "generateName", app + "-" + hash + "-");
  Str(w, "namespace", RealisticPodNamespace(index));
  w.Key("labels");
  w.StartObject();
  Str(w, "app", app);
  Str(w, "app.kubernetes.io/name", app);
  Str(w, "app.kubernetes.io/part-of", "shop");
  Str(w, "pod-template-hash", hash);
  Str(w, "team", Team(index));
  Str(w, "version", "v1.42.0");
  w.EndObject();
  w.Key("annotations");
  w.StartObject();
  Str(w, "kubectl.kubernetes.io/last-applied-configuration",
      LastApplied(index) + "\n");
  Str(w, "kubectl.kubernetes.io/restartedAt", "2024-04-30T09:12:44Z");
  Str(w, "prometheus.io/scrape", "true");
  Str(w, "prometheus.io/port", "9102");
  w.EndObject();
  w.Key("ownerReferences");
  w.StartArray();
  w.StartObject();
  Str(w, "apiVersion", "apps/v1");
  Str(w, "kind", "ReplicaSet");
  Str(w, "name", app + "-" + hash);
  Str(w, "uid",
      "4c3a" + Hex(index / 20 % 65536, 4) + "-8e1b-4f0e-9a6d-0c2b7d5e91aa");
  w.Key("controller");
  w.Bool(true);
  w.Key("blockOwnerDeletion");
  w.Bool(true);
  w.EndObject();
  w.EndArray();
  w.EndObject();
}

void WriteContainer(Writer& w, const Container& c) {
  w.StartObject();
  Str(w, "name", c.name);
  Str(w, "image", Image(c));
  w.Key("ports");
  w.StartArray();
  w.StartObject();
  w.Key("containerPort");
  w.Int(c.port);
  Str(w, "protocol", "TCP");
  w.EndObject();
  w.EndArray();
  w.Key("env");
  w.StartArray();
  for (const char* name : {"LOG_LEVEL", "REGION", "OTEL_EXPORTER_ENDPOINT",
                           "POD_NAME", "POD_NAMESPACE"}) {
    w.StartObject();
    Str(w, "name", name);
    Str(w, "value", "value-of-" + std::string(name));
    w.EndObject();
  }
  w.EndArray();
  WriteResources(w, c);
  w.Key("volumeMounts");
  w.StartArray();
  for (const char* mount : {"config", "certs", "kube-api-access"}) {
    w.StartObject();
    Str(w, "name", mount);
    Str(w, "mountPath", std::string("/var/run/") + mount);
    w.Key("readOnly");
    w.Bool(true);
    w.EndObject();
  }
  w.EndArray();
  w.Key("readinessProbe");
  w.StartObject();
  w.Key("httpGet");
  w.StartObject();
  Str(w, "path", "/healthz");
  w.Key("port");
  w.Int(c.port);
  w.EndObject();
  w.Key("periodSeconds");
  w.Int(10);
  w.EndObject();
  Str(w, "terminationMessagePath", "/dev/termination-log");
  Str(w, "imagePullPolicy", "IfNotPresent");
  w.EndObject();
}

// The projected token volume the ServiceAccount admission adds (1.21+).
void WriteApiAccessVolume(Writer& w) {
  constexpr std::string_view kVolume =
      R"({"name":"kube-api-access","projected":{"defaultMode":420,)"
      R"("sources":[{"serviceAccountToken":{"expirationSeconds":3607,)"
      R"("path":"token"}},{"configMap":{"name":"kube-root-ca.crt",)"
      R"("items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":)"
      R"({"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1",)"
      R"("fieldPath":"metadata.namespace"}}]}}]}})";
  w.RawValue(kVolume.data(), kVolume.size(), rapidjson::kObjectType);
}

void WriteSpec(Writer& w, const std::string& node) {
  w.Key("spec");
  w.StartObject();
  w.Key("containers");
  w.StartArray();
  for (const Container& c : kContainers) WriteContainer(w, c);
  w.EndArray();
  w.Key("volumes");
  w.StartArray();
  for (const char* volume : {"config", "certs"}) {
    w.StartObject();
    Str(w, "name", volume);
    w.Key("configMap");
    w.StartObject();
    Str(w, "name", std::string("shop-") + volume);
    w.EndObject();
    w.EndObject();
  }
  WriteApiAccessVolume(w);
  w.EndArray();
  Str(w, "nodeName", node);
  Str(w, "serviceAccountName", "shop");
  Str(w, "restartPolicy", "Always");
  Str(w, "dnsPolicy", "ClusterFirst");
  Str(w, "schedulerName", "default-scheduler");
  w.Key("terminationGracePeriodSeconds");
  w.Int(30);
  w.Key("priority");
  w.Int(0);
  w.Key("tolerations");
  w.StartArray();
  for (const char* key :
       {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
    w.StartObject();
    Str(w, "key", key);
    Str(w, "operator", "Exists");
    Str(w, "effect", "NoExecute");
    w.Key("tolerationSeconds");
    w.Int(300);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteStatus(Writer& w, int index) {
  w.Key("status");
  w.StartObject();
  Str(w, "phase", "Running");
  w.Key("conditions");
  w.StartArray();
  for (const char* type :
       {"Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    w.StartObject();
    Str(w, "type", type);
    Str(w, "status", "True");
    Str(w, "lastTransitionTime", "2024-05-01T08:00:00Z");
    w.EndObject();
  }
  w.EndArray();
  Str(w, "hostIP", "10.0." + std::to_string(index / 30 % 250) + ".4");
  Str(w, "podIP",
      "192.168." + std::to_string(index / 250 % 250) + "." +
          std::to_string(index % 250 + 2));
  Str(w, "startTime", "2024-05-01T08:00:00Z");
  Str(w, "qosClass", "Burstable");
  w.Key("containerStatuses");
  w.StartArray();
  for (const Container& c : kContainers) {
    w.StartObject();
    Str(w, "name", c.name);
    w.Key("ready");
    w.Bool(true);
    w.Key("restartCount");
    w.Int(0);
    Str(w, "image", Image(c));
    Str(w, "imageID",
        std::string(c.image) + "@sha256:" + Hex(index, 8) +
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822c");
    Str(w, "containerID",
        "containerd://" + Hex(int64_t{index} * 31 % 1048576, 5) +
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4");
    w.Key("started");
    w.Bool(true);
    w.Key("state");
    w.StartObject();
    w.Key("running");
    w.StartObject();
    Str(w, "startedAt", "2024-05-01T08:00:05Z");
    w.EndObject();
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string RealisticPodNamespace(int index) {
  return "apps-" + std::to_string(index / 20 % 10);
}

std::string MakeRealisticPodJson(int index, const std::string& node) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "apiVersion", "v1");
  Str(w, "kind", "Pod");
  WriteMetadata(w, index);
  WriteSpec(w, node);
  WriteStatus(w, index);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace propscaler::sim

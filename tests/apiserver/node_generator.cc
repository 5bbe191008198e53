#include "apiserver/node_generator.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <array>

namespace propscaler::sim {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct InstanceType {
  const char* name;
  int cpu_cores;
  int memory_gib;
};

constexpr std::array<InstanceType, 4> kInstanceTypes = {{
    {"m5.xlarge", 4, 16},
    {"m5.2xlarge", 8, 32},
    {"c5.xlarge", 4, 8},
    {"r5.large", 2, 16},
}};

constexpr std::array<const char*, 3> kZones = {"us-east-1a", "us-east-1b",
                                               "us-east-1c"};

struct Image {
  const char* name;
  const char* digest_prefix;
  int64_t size;
};

constexpr std::array<Image, 7> kImages = {{
    {"registry.k8s.io/kube-proxy:v1.29.4", "b2f8a7c1", 29523870},
    {"registry.k8s.io/coredns/coredns:v1.11.1", "1eeb4c7f", 18182961},
    {"registry.k8s.io/pause:3.9", "7031c1b2", 321520},
    {"docker.io/calico/node:v3.27.3", "3b1a7c4e", 116452917},
    {"docker.io/calico/cni:v3.27.3", "9c2d1e6a", 94471386},
    {"602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.1",
     "5e4f1a9d", 48732210},
    {"registry.k8s.io/ingress-nginx/controller:v1.10.1", "e24f39d3", 105302521},
}};

void Str(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value);
}

std::string Ip(int index) {
  return "10.0." + std::to_string((index / 250) % 250) + "." +
         std::to_string(index % 250 + 4);
}

std::string Zone(const NodeShape& shape) {
  return kZones[shape.index % kZones.size()];
}

void WriteMetadata(Writer& w, const NodeShape& shape) {
  w.Key("metadata");
  w.StartObject();
  Str(w, "name", shape.name);
  w.Key("labels");
  w.StartObject();
  Str(w, "beta.kubernetes.io/arch", "amd64");
  Str(w, "beta.kubernetes.io/instance-type", shape.instance_type);
  Str(w, "beta.kubernetes.io/os", "linux");
  Str(w, "failure-domain.beta.kubernetes.io/region", "us-east-1");
  Str(w, "failure-domain.beta.kubernetes.io/zone", Zone(shape));
  Str(w, "kubernetes.io/arch", "amd64");
  Str(w, "kubernetes.io/hostname", shape.name);
  Str(w, "kubernetes.io/os", "linux");
  Str(w, "node.kubernetes.io/instance-type", shape.instance_type);
  Str(w, "topology.kubernetes.io/region", "us-east-1");
  Str(w, "topology.kubernetes.io/zone", Zone(shape));
  for (const auto& [key, value] : shape.extra_labels) {
    Str(w, key.c_str(), value);
  }
  w.EndObject();
  w.Key("annotations");
  w.StartObject();
  Str(w, "node.alpha.kubernetes.io/ttl", "0");
  Str(w, "volumes.kubernetes.io/controller-managed-attach-detach", "true");
  Str(w, "csi.volume.kubernetes.io/nodeid",
      "{\"ebs.csi.aws.com\":\"i-0" + std::to_string(1000000 + shape.index) +
          "abcdef\"}");
  w.EndObject();
  w.EndObject();
}

void WriteSpec(Writer& w, const NodeShape& shape) {
  w.Key("spec");
  w.StartObject();
  Str(w, "podCIDR", "192.168." + std::to_string(shape.index % 256) + ".0/24");
  Str(w, "providerID",
      "aws:///" + Zone(shape) + "/i-0" + std::to_string(1000000 + shape.index) +
          "abcdef");
  if (shape.unschedulable) {
    w.Key("unschedulable");
    w.Bool(true);
    w.Key("taints");
    w.StartArray();
    w.StartObject();
    Str(w, "key", "node.kubernetes.io/unschedulable");
    Str(w, "effect", "NoSchedule");
    w.EndObject();
    w.EndArray();
  }
  w.EndObject();
}

void WriteResources(Writer& w, const char* key, const NodeShape& shape,
                    bool allocatable) {
  w.Key(key);
  w.StartObject();
  if (allocatable) {
    Str(w, "cpu", std::to_string(shape.cpu_cores * 1000 - 80) + "m");
    Str(w, "memory", std::to_string(shape.memory_gib * 1024 - 600) + "Mi");
    Str(w, "ephemeral-storage", "95491281146");
  } else {
    Str(w, "cpu", std::to_string(shape.cpu_cores));
    Str(w, "memory", std::to_string(shape.memory_gib) + "Gi");
    Str(w, "ephemeral-storage", "104845292Ki");
  }
  Str(w, "hugepages-1Gi", "0");
  Str(w, "hugepages-2Mi", "0");
  Str(w, "pods", std::to_string(shape.max_pods));
  w.EndObject();
}

void WriteCondition(Writer& w, const char* type, const char* status,
                    const char* reason, const char* message) {
  w.StartObject();
  Str(w, "type", type);
  Str(w, "status", status);
  Str(w, "lastHeartbeatTime", "2024-05-01T12:00:00Z");
  Str(w, "lastTransitionTime", "2024-05-01T08:00:00Z");
  Str(w, "reason", reason);
  Str(w, "message", message);
  w.EndObject();
}

void WriteConditions(Writer& w) {
  w.Key("conditions");
  w.StartArray();
  WriteCondition(w, "MemoryPressure", "False", "KubeletHasSufficientMemory",
                 "kubelet has sufficient memory available");
  WriteCondition(w, "DiskPressure", "False", "KubeletHasNoDiskPressure",
                 "kubelet has no disk pressure");
  WriteCondition(w, "PIDPressure", "False", "KubeletHasSufficientPID",
                 "kubelet has sufficient PID available");
  WriteCondition(w, "Ready", "True", "KubeletReady",
                 "kubelet is posting ready status");
  w.EndArray();
}

void WriteAddresses(Writer& w, const NodeShape& shape) {
  w.Key("addresses");
  w.StartArray();
  const std::pair<const char*, std::string> addresses[] = {
      {"InternalIP", Ip(shape.index)},
      {"Hostname", shape.name},
      {"InternalDNS", "ip-" + Ip(shape.index) + ".ec2.internal"},
  };
  for (const auto& [type, address] : addresses) {
    w.StartObject();
    Str(w, "type", type);
    Str(w, "address", address);
    w.EndObject();
  }
  w.EndArray();
}

void WriteImages(Writer& w) {
  w.Key("images");
  w.StartArray();
  for (const Image& image : kImages) {
    std::string repo(image.name);
    repo = repo.substr(0, repo.rfind(':'));
    w.StartObject();
    w.Key("names");
    w.StartArray();
    w.String(repo + "@sha256:" + image.digest_prefix +
             "9f3c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6");
    w.String(image.name);
    w.EndArray();
    w.Key("sizeBytes");
    w.Int64(image.size);
    w.EndObject();
  }
  w.EndArray();
}

void WriteNodeInfo(Writer& w, const NodeShape& shape) {
  w.Key("daemonEndpoints");
  w.StartObject();
  w.Key("kubeletEndpoint");
  w.StartObject();
  w.Key("Port");
  w.Int(10250);
  w.EndObject();
  w.EndObject();
  w.Key("nodeInfo");
  w.StartObject();
  Str(w, "architecture", "amd64");
  Str(w, "bootID",
      "6b1f2c3d-4e5f-4a6b-8c7d-" + std::to_string(100000000000 + shape.index));
  Str(w, "containerRuntimeVersion", "containerd://1.7.11");
  Str(w, "kernelVersion", "5.10.215-203.850.amzn2.x86_64");
  Str(w, "kubeProxyVersion", "v1.29.4");
  Str(w, "kubeletVersion", "v1.29.4");
  Str(w, "machineID",
      "ec2" + std::to_string(1000000000 + shape.index) + "f4d1a");
  Str(w, "operatingSystem", "linux");
  Str(w, "osImage", "Amazon Linux 2");
  Str(w, "systemUUID",
      "ec2a1b2c-3d4e-5f60-7182-" + std::to_string(100000000000 + shape.index));
  w.EndObject();
}

void WriteStatus(Writer& w, const NodeShape& shape) {
  w.Key("status");
  w.StartObject();
  WriteResources(w, "capacity", shape, /*allocatable=*/false);
  WriteResources(w, "allocatable", shape, /*allocatable=*/true);
  WriteConditions(w);
  WriteAddresses(w, shape);
  WriteNodeInfo(w, shape);
  WriteImages(w);
  w.EndObject();
}

}  // namespace

std::string MakeNodeJson(const NodeShape& shape) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  Str(w, "kind", "Node");
  Str(w, "apiVersion", "v1");
  WriteMetadata(w, shape);
  WriteSpec(w, shape);
  WriteStatus(w, shape);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

NodeShape GeneratedNodeShape(const std::string& prefix, int index,
                             int cpu_cores) {
  NodeShape shape;
  shape.name = prefix + std::to_string(index);
  shape.index = index;
  const InstanceType& type = kInstanceTypes[index % kInstanceTypes.size()];
  shape.instance_type = type.name;
  shape.cpu_cores = type.cpu_cores;
  shape.memory_gib = type.memory_gib;
  if (cpu_cores > 0) {
    shape.instance_type = kInstanceTypes[0].name;
    shape.cpu_cores = cpu_cores;
    shape.memory_gib = cpu_cores * 4;
  }
  return shape;
}

std::vector<std::string> GenerateNodes(const std::string& prefix, int count,
                                       int cpu_cores) {
  std::vector<std::string> nodes;
  nodes.reserve(count);
  for (int i = 1; i <= count; ++i) {
    nodes.push_back(MakeNodeJson(GeneratedNodeShape(prefix, i, cpu_cores)));
  }
  return nodes;
}

}  // namespace propscaler::sim

// The protobuf pod list decoder against pods encoded here by hand, field by
// field as kube-apiserver writes them (the real server's own protobuf is
// compared with its JSON in NodeScaleRealServerTest): every field the JSON
// decoder reads comes out the same, the same errors name the same paths,
// and a list cut anywhere is handed over in batches of kListBatch.
#include "kube/wire/pod_proto_decode.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/wire/pod_decode.h"
#include "unit/live_pod_text.h"
#include "unit/proto_test_encoding.h"

namespace propscaler::kube {
namespace {

using namespace prototest;  // NOLINT: the encoding helpers
using testing::LivePodText;

std::string Requirement(const std::string& key, const std::string& op,
                        const std::vector<std::string>& values) {
  std::string out = Bytes(1, key) + Bytes(2, op);
  for (const std::string& value : values) out += Bytes(3, value);
  return out;
}

std::string Time(int64_t seconds) { return Int(1, seconds) + Int(2, 500); }

// A pending pod with every scheduling field propscaler reads, and others
// it skips (generateName, managedFields, a limit, an init container's
// port), and preferences (a preferred node and pod affinity term, a
// ScheduleAnyway spread).
std::string PendingPodMessage(const std::string& name,
                              const std::string& toleration_op = "Equal",
                              const std::string& cpu = "500m") {
  const std::string meta =
      Bytes(1, name) + Bytes(2, "web-") + Bytes(3, "shop") +
      Bytes(5, "uid-" + name) + Bytes(6, "123") + Bytes(8, Time(1767225600)) +
      Entry(11, "app", "web") + Entry(11, "tier", "front") +
      Entry(12, "cluster-autoscaler.kubernetes.io/safe-to-evict", "false") +
      Entry(12, "kubectl.kubernetes.io/last-applied-configuration", "{}") +
      Bytes(13, Bytes(1, "Other") + Bytes(3, "x") + Bool(6, false)) +
      Bytes(13, Bytes(1, "ReplicaSet") + Bytes(3, "web-abc") +
                    Bytes(4, "uid-rs") + Bytes(5, "apps/v1") + Bool(6, true)) +
      Bytes(17, Bytes(1, "kubectl"));
  const std::string app =
      Bytes(1, "app") + Bytes(2, "nginx") +
      Bytes(6, Bytes(1, "http") + Int(2, 8080) + Int(3, 80) + Bytes(4, "TCP")) +
      Bytes(6, Int(3, 9090)) +
      Bytes(8, Entry(1, "cpu", "2", true) + Entry(2, "cpu", cpu, true) +
                   Entry(2, "memory", "256Mi", true) +
                   Entry(2, "nvidia.com/gpu", "1", true));
  const std::string sidecar = Bytes(8, Entry(2, "cpu", "100m", true)) +
                              Bytes(6, Int(2, 53) + Bytes(4, "UDP"));
  const std::string init =
      Bytes(8, Entry(2, "cpu", "1", true) + Entry(2, "memory", "1Gi", true)) +
      Bytes(6, Int(2, 7000));
  const std::string node_affinity = Bytes(
      1, Bytes(1, Bytes(1, Requirement("zone", "In", {"a", "b"})) +
                      Bytes(1, Requirement("gpu", "Exists", {}))) +
             Bytes(1, Bytes(2, Requirement("metadata.name", "In", {"n1"}))) +
             Bytes(1, ""));
  const std::string affinity =
      Bytes(1, node_affinity +
                   Bytes(2, Int(1, 10) +
                                Bytes(2, Bytes(1, Requirement("disk", "In",
                                                              {"nvme"}))))) +
      Bytes(
          2,
          Bytes(1, Bytes(1, Entry(1, "app", "db")) +
                       Bytes(3, "topology.kubernetes.io/zone")) +
              Bytes(2, Int(1, 5) +
                           Bytes(2, Bytes(1, Entry(1, "app", "cache")) +
                                        Bytes(3, "kubernetes.io/hostname")))) +
      Bytes(
          3,
          Bytes(1, Bytes(1, Bytes(2, Requirement("tier", "NotIn", {"back"}))) +
                       Bytes(2, "shop") + Bytes(2, "other") +
                       Bytes(3, "kubernetes.io/hostname")));
  const std::string spec =
      Bytes(1, Bytes(1, "config") + Bytes(2, Bytes(6, Bytes(1, "cm")))) +
      Bytes(1, Bytes(1, "data") + Bytes(2, Bytes(10, Bytes(1, "data-web-0")))) +
      Bytes(1,
            Bytes(1, "scratch") + Bytes(2, Bytes(29, Bytes(1, Bytes(2, ""))))) +
      Bytes(2, app) + Bytes(2, sidecar) + Bytes(20, init) + Int(4, 45) +
      Entry(7, "disk", "ssd") + Bytes(18, affinity) +
      Bytes(22, Bytes(1, "dedicated") + Bytes(2, toleration_op) +
                    Bytes(3, "gpu") + Bytes(4, "NoSchedule")) +
      Bytes(22, Bytes(2, "Exists") + Int(5, 300)) + Int(25, -5) +
      Entry(32, "cpu", "250m", true) +
      Bytes(33, Int(1, 2) + Bytes(2, "topology.kubernetes.io/zone") +
                    Bytes(3, "DoNotSchedule") +
                    Bytes(4, Entry(1, "app", "web")) + Int(5, 3)) +
      Bytes(33, Int(1, 1) + Bytes(2, "kubernetes.io/hostname") +
                    Bytes(3, "ScheduleAnyway"));
  const std::string status =
      Bytes(1, "Pending") +
      Bytes(2, Bytes(1, "PodScheduled") + Bytes(2, "False") +
                   Bytes(4, Time(1767225660)) + Bytes(5, "Unschedulable") +
                   Bytes(6, "0/3 nodes are available")) +
      Bytes(11, "node-9");
  return Bytes(1, meta) + Bytes(2, spec) + Bytes(3, status);
}

std::string PendingPodJson(const std::string& name,
                           const std::string& toleration_op = "Equal",
                           const std::string& cpu = "500m") {
  return R"({"metadata":{"name":")" + name +
         R"(","generateName":"web-","namespace":"shop","uid":"uid-)" + name +
         R"(","resourceVersion":"123","creationTimestamp":"2026-01-01T00:00:00Z",
  "labels":{"app":"web","tier":"front"},
  "annotations":{"cluster-autoscaler.kubernetes.io/safe-to-evict":"false","kubectl.kubernetes.io/last-applied-configuration":"{}"},
  "ownerReferences":[{"kind":"Other","name":"x","controller":false},{"kind":"ReplicaSet","name":"web-abc","uid":"uid-rs","apiVersion":"apps/v1","controller":true}]},
 "spec":{"volumes":[{"name":"config","configMap":{"name":"cm"}},
   {"name":"data","persistentVolumeClaim":{"claimName":"data-web-0"}},
   {"name":"scratch","ephemeral":{"volumeClaimTemplate":{"spec":{}}}}],
  "containers":[{"name":"app","image":"nginx","ports":[{"name":"http","hostPort":8080,"containerPort":80,"protocol":"TCP"},{"containerPort":9090}],
    "resources":{"limits":{"cpu":"2"},"requests":{"cpu":")" +
         cpu + R"(","memory":"256Mi","nvidia.com/gpu":"1"}}},
   {"resources":{"requests":{"cpu":"100m"}},"ports":[{"hostPort":53,"protocol":"UDP"}]}],
  "initContainers":[{"resources":{"requests":{"cpu":"1","memory":"1Gi"}},"ports":[{"hostPort":7000}]}],
  "terminationGracePeriodSeconds":45,"nodeSelector":{"disk":"ssd"},
  "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
      {"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]},{"key":"gpu","operator":"Exists"}]},
      {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]},{}]},
     "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["nvme"]}]}}]},
   "podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"topology.kubernetes.io/zone"}],
     "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"cache"}},"topologyKey":"kubernetes.io/hostname"}}]},
   "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchExpressions":[{"key":"tier","operator":"NotIn","values":["back"]}]},"namespaces":["shop","other"],"topologyKey":"kubernetes.io/hostname"}]}},
  "tolerations":[{"key":"dedicated","operator":")" +
         toleration_op +
         R"(","value":"gpu","effect":"NoSchedule"},{"operator":"Exists","tolerationSeconds":300}],
  "priority":-5,"overhead":{"cpu":"250m"},
  "topologySpreadConstraints":[{"maxSkew":2,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}},"minDomains":3},
   {"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}]},
 "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","lastTransitionTime":"2026-01-01T00:01:00Z","reason":"Unschedulable","message":"0/3 nodes are available"}],"nominatedNodeName":"node-9"}})";
}

// Bound and running, in the default namespace (no namespace field), with a
// hostPath volume and grace 0.
std::string RunningPodMessage() {
  const std::string meta =
      Bytes(1, "db-0") + Bytes(5, "uid-db-0") + Bytes(8, Time(1767225000));
  const std::string spec =
      Bytes(1, Bytes(1, "logs") + Bytes(2, Bytes(1, Bytes(1, "/var/log")))) +
      Bytes(2, Bytes(8, Entry(2, "memory", "1Gi", true))) + Int(4, 0) +
      Bytes(10, "node-1");
  const std::string status =
      Bytes(1, "Running") +
      Bytes(2, Bytes(1, "PodScheduled") + Bytes(2, "True")) +
      Bytes(2,
            Bytes(1, "Ready") + Bytes(2, "True") + Bytes(4, Time(1767225130))) +
      Bytes(7, Time(1767225100));
  return Bytes(1, meta) + Bytes(2, spec) + Bytes(3, status);
}

constexpr char kRunningPodJson[] =
    R"({"metadata":{"name":"db-0","uid":"uid-db-0","creationTimestamp":"2025-12-31T23:50:00Z"},
 "spec":{"volumes":[{"name":"logs","hostPath":{"path":"/var/log"}}],
  "containers":[{"resources":{"requests":{"memory":"1Gi"}}}],
  "terminationGracePeriodSeconds":0,"nodeName":"node-1"},
 "status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True"},{"type":"Ready","status":"True","lastTransitionTime":"2025-12-31T23:52:10Z"}],"startTime":"2025-12-31T23:51:40Z"}})";

// A finished pod with no spec.
std::string DonePodMessage() {
  return Bytes(1, Bytes(1, "job-1") + Bytes(3, "batch")) +
         Bytes(3, Bytes(1, "Succeeded"));
}
constexpr char kDonePodJson[] =
    R"({"metadata":{"name":"job-1","namespace":"batch"},"status":{"phase":"Succeeded"}})";

std::string ProtoList(const std::vector<std::string>& pods) {
  std::string list = Bytes(1, Bytes(2, "91"));
  for (const std::string& pod : pods) list += Bytes(2, pod);
  return Envelope("PodList", list);
}
std::string JsonList(const std::vector<std::string>& pods) {
  std::string json =
      R"({"kind":"PodList","metadata":{"resourceVersion":"91"},"items":[)";
  for (size_t i = 0; i < pods.size(); ++i) {
    json += (i > 0 ? "," : "") + pods[i];
  }
  return json + "]}";
}

Result<ListPage<LivePod>> DecodeProto(
    const std::string& body, size_t piece = 4096,
    const ItemBatches<LivePod>& batches = {}) {
  JsonChunkStream stream = Cut(body, piece);
  return DecodeLivePodListProto(&stream, batches);
}

TEST(PodProtoDecodeTest, EveryFieldAsTheJsonDecoderReadsIt) {
  Result<ListPage<LivePod>> json = DecodeLivePodList(
      JsonList({PendingPodJson("web-0"), kRunningPodJson, kDonePodJson}));
  ASSERT_TRUE(json.ok()) << json.status().message();
  ASSERT_EQ(json->items.size(), 3u) << json->item_errors[0];
  for (size_t piece : {1, 3, 64, 1 << 20}) {
    Result<ListPage<LivePod>> proto =
        DecodeProto(ProtoList({PendingPodMessage("web-0"), RunningPodMessage(),
                               DonePodMessage()}),
                    piece);
    ASSERT_TRUE(proto.ok()) << proto.status().message();
    ASSERT_EQ(proto->items.size(), 3u);
    EXPECT_TRUE(proto->item_errors.empty());
    EXPECT_EQ(proto->resource_version, "91");
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(LivePodText(proto->items[i]), LivePodText(json->items[i]))
          << "pod " << i << ", pieces of " << piece;
    }
  }
  // And what it reads, spelled out once for the pending pod.
  Result<LivePod> pod = DecodeLivePodProto(PendingPodMessage("web-0"), "x");
  ASSERT_TRUE(pod.ok()) << pod.status().message();
  const PodState& state = pod->state;
  EXPECT_EQ(state.Key(), "shop/web-0");
  // A claim by name; an ephemeral volume by its volume's name.
  EXPECT_EQ(state.claims.get(),
            (std::vector<PodClaim>{{"data-web-0", false}, {"scratch", true}}));
  EXPECT_EQ(ClaimNameOf(state, state.claims[1]), "web-0-scratch");
  EXPECT_EQ(state.owner_kind.get() + "/" + state.owner_name.get(),
            "ReplicaSet/web-abc");
  // max(500m + 100m, 1) + 250m overhead; 1Gi from the init container.
  EXPECT_EQ(state.requests.cpu_millis, 1250);
  EXPECT_EQ(state.requests.memory_bytes, int64_t{1} << 30);
  EXPECT_EQ(state.requests.Extended("nvidia.com/gpu"), 1);
  EXPECT_EQ(state.annotations.get().size(), 1u);
  EXPECT_EQ(state.node_affinity.get().size(), 2u);  // matchFields dropped
  EXPECT_EQ(state.host_ports.get().size(), 2u);     // 8080/TCP, 53/UDP
  EXPECT_EQ(state.spread.get().size(), 1u);         // DoNotSchedule
  // Preferred: a node term of weight 10, a pod affinity term of weight 5,
  // the ScheduleAnyway spread.
  const PodPreferences& preferences = state.preferences;
  ASSERT_EQ(preferences.node_affinity.size(), 1u);
  EXPECT_EQ(preferences.node_affinity[0].weight, 10);
  ASSERT_EQ(preferences.affinity.size(), 1u);
  EXPECT_EQ(preferences.affinity[0].weight, 5);
  EXPECT_EQ(preferences.affinity[0].term.topology_key,
            "kubernetes.io/hostname");
  EXPECT_TRUE(preferences.anti_affinity.empty());
  ASSERT_EQ(preferences.spread.size(), 1u);
  EXPECT_EQ(preferences.spread[0].topology_key, "kubernetes.io/hostname");
  EXPECT_EQ(state.priority, -5);
  EXPECT_FALSE(state.has_local_storage);  // a configMap volume
  EXPECT_TRUE(pod->unschedulable);
  EXPECT_EQ(pod->nominated_node, "node-9");
  EXPECT_EQ(pod->created, TimePoint(std::chrono::seconds(1767225600)));
  EXPECT_EQ(pod->unschedulable_since,
            TimePoint(std::chrono::seconds(1767225660)));
  EXPECT_EQ(pod->ready_since, TimePoint()) << "not Ready";
  EXPECT_EQ(pod->phase, PodPhase::kPending);
  // A 2-cpu limit and the 250m overhead; no memory limit, so no overhead.
  EXPECT_EQ(pod->limit_cpu_millis, 2250);
  EXPECT_EQ(pod->limit_memory_bytes, 0);
  Result<LivePod> running = DecodeLivePodProto(RunningPodMessage(), "x");
  ASSERT_TRUE(running.ok()) << running.status().message();
  EXPECT_EQ(running->ready_since, TimePoint(std::chrono::seconds(1767225130)));
  EXPECT_EQ(running->phase, PodPhase::kRunning);
}

TEST(PodProtoDecodeTest, BadFieldsAreItemErrorsNamedAsInJson) {
  struct Case {
    std::string toleration_op;
    std::string cpu;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {"Bogus", "500m",
            "items[1].spec.tolerations[0].operator: \"Bogus\" is not Equal or "
            "Exists"},
           {"Equal", "4x",
            "items[1].spec.containers[0].resources.requests.cpu"},
       }) {
    Result<ListPage<LivePod>> proto = DecodeProto(ProtoList(
        {PendingPodMessage("a"), PendingPodMessage("b", c.toleration_op, c.cpu),
         DonePodMessage()}));
    Result<ListPage<LivePod>> json = DecodeLivePodList(
        JsonList({PendingPodJson("a"),
                  PendingPodJson("b", c.toleration_op, c.cpu), kDonePodJson}));
    ASSERT_TRUE(proto.ok()) << proto.status().message();
    ASSERT_TRUE(json.ok()) << json.status().message();
    EXPECT_EQ(proto->items.size(), 2u);
    ASSERT_EQ(proto->item_errors.size(), 1u);
    EXPECT_EQ(proto->item_errors, json->item_errors);
    EXPECT_EQ(proto->item_errors[0].rfind(c.error, 0), 0u)
        << proto->item_errors[0];
  }
  Result<LivePod> spread =
      DecodeLivePodProto(Bytes(1, Bytes(1, "s")) +
                             Bytes(2, Bytes(33, Int(1, 0) + Bytes(2, "zone") +
                                                    Bytes(3, "DoNotSchedule"))),
                         "items[4]");
  ASSERT_FALSE(spread.ok());
  EXPECT_EQ(spread.status().message(),
            "items[4].spec.topologySpreadConstraints[0].maxSkew: must be at "
            "least 1, is 0");
  Result<LivePod> nameless = DecodeLivePodProto(Bytes(1, Bytes(3, "ns")), "p");
  ASSERT_FALSE(nameless.ok());
  EXPECT_EQ(nameless.status().message(), "p.metadata.name: missing");
  Result<LivePod> garbled = DecodeLivePodProto(Bytes(2,
                                                     "\x12\x05"
                                                     "ab"),
                                               "p");
  ASSERT_FALSE(garbled.ok());
  EXPECT_NE(garbled.status().message().find("p.spec: "), std::string::npos)
      << garbled.status().message();
}

// A preferred term without its term is refused, as the JSON decoder
// refuses it; a term of matchFields alone keeps the next one's index.
TEST(PodProtoDecodeTest, PreferredTermsAreCheckedAsInJson) {
  const std::string fields_only = Bytes(
      2, Int(1, 3) +
             Bytes(2, Bytes(2, Requirement("metadata.name", "In", {"n1"}))));
  const std::string no_preference = Bytes(2, Int(1, 5));
  Result<LivePod> pod = DecodeLivePodProto(
      Bytes(1, Bytes(1, "p")) +
          Bytes(2, Bytes(18, Bytes(1, fields_only + no_preference))),
      "x");
  ASSERT_FALSE(pod.ok());
  EXPECT_NE(pod.status().message().find(
                "preferredDuringSchedulingIgnoredDuringExecution[1]."
                "preference: missing"),
            std::string::npos)
      << pod.status().message();
  Result<LivePod> anti = DecodeLivePodProto(
      Bytes(1, Bytes(1, "p")) +
          Bytes(2, Bytes(18, Bytes(3, Bytes(2, Int(1, 50))))),
      "x");
  ASSERT_FALSE(anti.ok());
  EXPECT_NE(
      anti.status().message().find(
          "podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution"
          "[0].podAffinityTerm: missing"),
      std::string::npos)
      << anti.status().message();
}

TEST(PodProtoDecodeTest, AListCutAnywhereComesInBatches) {
  std::vector<std::string> pods;
  for (int i = 0; i < 1100; ++i) {
    pods.push_back(PendingPodMessage("web-" + std::to_string(i)));
  }
  const std::string body = ProtoList(pods);
  for (size_t piece : {7, 4096}) {
    std::vector<size_t> batches;
    std::vector<std::string> names;
    Result<ListPage<LivePod>> page =
        DecodeProto(body, piece, [&](std::vector<LivePod> batch) {
          batches.push_back(batch.size());
          for (const LivePod& pod : batch) names.push_back(pod.state.name);
        });
    ASSERT_TRUE(page.ok()) << page.status().message();
    EXPECT_TRUE(page->items.empty());
    EXPECT_EQ(page->resource_version, "91");
    EXPECT_EQ(batches, (std::vector<size_t>{kListBatch, kListBatch, 100}));
    ASSERT_EQ(names.size(), 1100u);
    EXPECT_EQ(names[1099], "web-1099");
  }
}

TEST(PodProtoDecodeTest, MalformedListsAreErrorsThatSayWhat) {
  const std::string good =
      ProtoList({PendingPodMessage("a"), DonePodMessage()});
  struct Case {
    std::string body;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {good.substr(0, good.size() - 20), "pod list (protobuf): "},
           {Envelope("NodeList", ""),
            "pod list (protobuf): the server sent a \"NodeList\", not a "
            "PodList"},
           {std::string(kKubeProtobufMagic), "pod list (protobuf): no list"},
           {"{\"items\":[]}", "does not start with"},
       }) {
    Result<ListPage<LivePod>> page = DecodeProto(c.body);
    ASSERT_FALSE(page.ok()) << c.error;
    EXPECT_NE(page.status().message().find(c.error), std::string::npos)
        << page.status().message();
  }
}

// The codec node-scale mode lists pods with asks for protobuf and reads
// whichever the server answers.
TEST(PodProtoDecodeTest, CodecReadsProtobufAndJson) {
  ListWatchCodec<LivePod> codec = LivePodCodec();
  EXPECT_TRUE(codec.list_stream_protobuf);
  for (const std::string& body :
       {ProtoList({DonePodMessage()}), JsonList({kDonePodJson})}) {
    JsonChunkStream stream = Cut(body, 5);
    Result<ListPage<LivePod>> page = codec.decode_list_stream(&stream, {});
    ASSERT_TRUE(page.ok()) << page.status().message();
    ASSERT_EQ(page->items.size(), 1u);
    EXPECT_EQ(page->items[0].state.Key(), "batch/job-1");
    EXPECT_TRUE(page->items[0].state.terminated);
  }
}

}  // namespace
}  // namespace propscaler::kube

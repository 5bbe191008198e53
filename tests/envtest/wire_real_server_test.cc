// What goes over the wire to the real kube-apiserver, seen from
// propscaler's HTTP client (its counters): big responses gzip'd, small ones
// not (the rule tests/apiserver copies), and one connection for many
// requests.
#include <rapidjson/document.h>

#include <algorithm>
#include <map>
#include <thread>
#include <vector>

#include "apiserver/pod_generator.h"
#include "common/metrics.h"
#include "envtest/real_server_fixture.h"
#include "kube/wire/decode.h"
#include "kube/wire/live_node_proto_decode.h"
#include "kube/wire/node_proto_decode.h"
#include "kube/wire/pod_decode.h"
#include "kube/wire/pod_proto_decode.h"
#include "kube/wire/proto_wire.h"
#include "transport/api.h"
#include "unit/live_node_text.h"
#include "unit/live_pod_text.h"

namespace propscaler::envtest {
namespace {

double Counted(const char* metric) { return GlobalMetrics().Value(metric); }

std::vector<kube::NodeInfo> ByName(std::vector<kube::NodeInfo> nodes) {
  std::sort(nodes.begin(), nodes.end(),
            [](const kube::NodeInfo& a, const kube::NodeInfo& b) {
              return a.name < b.name;
            });
  return nodes;
}

// A list's items and its continue token.
struct ListSeen {
  size_t items = 0;
  std::string continue_token;
};
ListSeen SeeList(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("items")) {
    ADD_FAILURE() << "not a list: " << body.substr(0, 300);
    return {};
  }
  ListSeen seen{doc["items"].Size(), ""};
  const auto& meta = doc["metadata"];
  if (meta.HasMember("continue"))
    seen.continue_token = meta["continue"].GetString();
  return seen;
}

class WireRealServerTest : public RealServerTest {};

TEST_F(WireRealServerTest, BigListsComeGzippedSmallOnesNot) {
  AddNodes(0, 400);
  const std::string path = "/api/v1/nodes?labelSelector=envtest-ns%3D" + ns();
  double before = Counted("propscaler_api_received_bytes_total");
  Result<kube::HttpResponse> big = cluster().Admin("GET", path);
  ASSERT_TRUE(big.ok());
  ASSERT_EQ(big->status, 200);
  ASSERT_GT(big->body.size(), 128u * 1024);
  const double wire = Counted("propscaler_api_received_bytes_total") - before;
  EXPECT_LT(wire, static_cast<double>(big->body.size()) / 8)
      << wire << " bytes on the wire for " << big->body.size();

  before = Counted("propscaler_api_received_bytes_total");
  Result<kube::HttpResponse> small =
      cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
  ASSERT_TRUE(small.ok());
  ASSERT_EQ(small->status, 200);
  EXPECT_EQ(Counted("propscaler_api_received_bytes_total") - before,
            static_cast<double>(small->body.size()));
}

TEST_F(WireRealServerTest, ManyRequestsOneConnection) {
  AddNodes(0, 1);
  const double before = Counted("propscaler_api_connections_total");
  for (int i = 0; i < 50; ++i) {
    Result<kube::HttpResponse> got =
        cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got->status, 200);
  }
  EXPECT_LE(Counted("propscaler_api_connections_total") - before, 1);
}

// kube-apiserver offers HTTP/2 over TLS (ALPN) and libcurl takes it: each
// response is counted by the protocol it came in.
TEST_F(WireRealServerTest, ResponsesComeOverHttp2) {
  AddNodes(0, 1);
  const MetricLabels h2 = {{"protocol", "HTTP/2"}};
  const double before =
      GlobalMetrics().Value("propscaler_api_responses_total", h2);
  Result<kube::HttpResponse> got =
      cluster().Admin("GET", "/api/v1/nodes/" + NodeName(0));
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->status, 200);
  EXPECT_EQ(
      GlobalMetrics().Value("propscaler_api_responses_total", h2) - before, 1);
}

// The rules propscaler's first list relies on and tests/apiserver copies: a
// list of resourceVersion 0 comes whole from the watch cache (the limit
// ignored, no continue token); a continued list refuses any other version.
TEST_F(WireRealServerTest, AnyVersionListIsWholeAndContinueTakesNoVersion) {
  AddNodes(0, 5);
  const std::string path =
      "/api/v1/nodes?labelSelector=envtest-ns%3D" + ns() + "&limit=2";
  Result<kube::HttpResponse> whole =
      cluster().Admin("GET", path + "&resourceVersion=0");
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->status, 200) << whole->body;
  const ListSeen any = SeeList(whole->body);
  EXPECT_EQ(any.items, 5u);
  EXPECT_EQ(any.continue_token, "");

  Result<kube::HttpResponse> first = cluster().Admin("GET", path);
  ASSERT_TRUE(first.ok() && first->status == 200);
  const ListSeen page = SeeList(first->body);
  EXPECT_EQ(page.items, 2u);
  ASSERT_NE(page.continue_token, "");
  const std::string next = path + "&continue=" + page.continue_token;
  Result<kube::HttpResponse> refused =
      cluster().Admin("GET", next + "&resourceVersion=1");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->status, 400) << refused->body;
  EXPECT_NE(refused->body.find("specifying resource version is not allowed "
                               "when using continue"),
            std::string::npos)
      << refused->body;
  Result<kube::HttpResponse> zero =
      cluster().Admin("GET", next + "&resourceVersion=0");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->status, 200) << zero->body;
  EXPECT_EQ(SeeList(zero->body).items, 2u);
}

// The nodes' list asks for protobuf; kube-apiserver answers it, and the
// protobuf decoder reads the same nodes from it as the JSON decoder reads
// from the JSON of the same list (every field it reads set some way).
TEST_F(WireRealServerTest, ProtobufNodeListDecodesAsItsJson) {
  ASSERT_TRUE(
      CreateNode(cluster(),
                 {.name = NodeName(0), .cpu = "1500m", .label = NodeLabel()})
          .ok());
  ASSERT_TRUE(
      CreateNode(cluster(),
                 {.name = NodeName(1), .ready = false, .label = NodeLabel()})
          .ok());
  ASSERT_TRUE(CreateNode(cluster(), {.name = NodeName(2),
                                     .cpu = "64",
                                     .unschedulable = true,
                                     .label = NodeLabel()})
                  .ok());
  // And one with every field node-scale mode reads; the server adds its
  // not-ready taint, which stays (no lifecycle controller here).
  const size_t equals = NodeLabel().find('=');
  ASSERT_TRUE(
      AdminCall(cluster(), "POST", "/api/v1/nodes",
                R"({"metadata":{"name":")" + NodeName(3) + R"(","labels":{")" +
                    NodeLabel().substr(0, equals) + R"(":")" +
                    NodeLabel().substr(equals + 1) +
                    R"(","propscaler.io/node-group":"gpu"},)"
                    R"("annotations":{"propscaler.io/template-hash":"abc"}},)"
                    R"("spec":{"providerID":"kwok://)" +
                    NodeName(3) +
                    R"(","taints":[{"key":"dedicated","value":"gpu",)"
                    R"("effect":"NoSchedule"}]}})")
          .ok());
  ASSERT_TRUE(
      AdminCall(cluster(), "PATCH", "/api/v1/nodes/" + NodeName(3) + "/status",
                R"({"status":{"allocatable":{"cpu":"7500m","memory":"30Gi",)"
                R"("pods":"58","nvidia.com/gpu":"4"},"capacity":{"cpu":"8",)"
                R"("memory":"32Gi","pods":"58","nvidia.com/gpu":"4"},)"
                R"("conditions":[{"type":"Ready","status":"True"}]}})",
                "application/merge-patch+json")
          .ok());
  const std::string path =
      "/api/v1/nodes?labelSelector=" + kube::QueryEscape(NodeLabel()) +
      "&resourceVersion=0&limit=500";
  kube::HttpRequest request;
  request.path = path;
  request.accept = std::string(kube::kKubeProtobufType) + ", application/json";
  // Both lists come from the watch cache, which may still be catching up
  // with the nodes' last writes: compared only once both are of the same
  // resourceVersion and hold the last write.
  Result<kube::HttpResponse> proto = Status::Unavailable("not read");
  Result<kube::HttpResponse> json = Status::Unavailable("not read");
  for (int attempt = 0; attempt < 50; ++attempt) {
    proto = cluster().admin_http().Do(request);
    json = cluster().Admin("GET", path);
    ASSERT_TRUE(proto.ok() && proto->status == 200);
    ASSERT_TRUE(json.ok() && json->status == 200);
    const std::string version = R"("resourceVersion":")";
    const size_t at = json->body.find(version);
    ASSERT_NE(at, std::string::npos);
    const std::string json_version = json->body.substr(
        at + version.size(),
        json->body.find('"', at + version.size()) - at - version.size());
    std::string_view whole = proto->body;
    kube::JsonChunkStream peek([&](std::string_view* chunk) {
      if (whole.empty()) return false;
      *chunk = whole;
      whole = {};
      return true;
    });
    Result<kube::ListPage<kube::NodeInfo>> peeked = kube::DecodeNodeListProto(
        &peek, TaintFilter(), kube::CountedCpu::kAllocatable, {});
    ASSERT_TRUE(peeked.ok()) << peeked.status().message();
    // The last write (node 3's status) in both: every earlier one is.
    if (peeked->resource_version == json_version &&
        json->body.find("7500m") != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(kube::IsKubeProtobuf(proto->body)) << proto->body.substr(0, 40);

  const TaintFilter not_ready =
      TaintFilter::Parse("node.kubernetes.io/not-ready").value();
  for (const TaintFilter& excluded : {TaintFilter(), not_ready}) {
    for (kube::CountedCpu cpu :
         {kube::CountedCpu::kAllocatable, kube::CountedCpu::kCapacity}) {
      Result<kube::ListPage<kube::NodeInfo>> from_json =
          kube::DecodeNodeList(json->body, excluded, cpu);
      ASSERT_TRUE(from_json.ok()) << from_json.status().message();
      std::string_view rest = proto->body;
      kube::JsonChunkStream stream([&](std::string_view* chunk) {
        if (rest.empty()) return false;
        *chunk = rest.substr(0, 1000);
        rest.remove_prefix(chunk->size());
        return true;
      });
      Result<kube::ListPage<kube::NodeInfo>> from_proto =
          kube::DecodeNodeListProto(&stream, excluded, cpu, {});
      ASSERT_TRUE(from_proto.ok()) << from_proto.status().message();
      ASSERT_EQ(from_json->items.size(), 4u);
      // The watch cache lists in no particular order (etcd by name).
      EXPECT_EQ(ByName(from_proto->items), ByName(from_json->items));
      EXPECT_EQ(from_proto->resource_version, from_json->resource_version);
    }
  }
  // Node-scale mode's decoders of the same two lists.
  Result<kube::ListPage<kube::LiveNode>> live_json =
      kube::DecodeLiveNodeList(json->body);
  ASSERT_TRUE(live_json.ok()) << live_json.status().message();
  std::string_view rest = proto->body;
  kube::JsonChunkStream stream([&](std::string_view* chunk) {
    if (rest.empty()) return false;
    *chunk = rest.substr(0, 1000);
    rest.remove_prefix(chunk->size());
    return true;
  });
  Result<kube::ListPage<kube::LiveNode>> live_proto =
      kube::DecodeLiveNodeListProto(&stream, {});
  ASSERT_TRUE(live_proto.ok()) << live_proto.status().message();
  auto by_name = [](const std::vector<kube::LiveNode>& nodes) {
    std::map<std::string, std::string> out;
    for (const kube::LiveNode& node : nodes) {
      out[node.state.name] = kube::testing::LiveNodeText(node);
    }
    return out;
  };
  EXPECT_TRUE(live_json->item_errors.empty() &&
              live_proto->item_errors.empty());
  const std::map<std::string, std::string> from_json =
      by_name(live_json->items);
  ASSERT_EQ(from_json.size(), 4u);
  EXPECT_EQ(by_name(live_proto->items), from_json);
  const std::string& every = from_json.at(NodeName(3));
  for (const char* line :
       {"propscaler.io/node-group=gpu", "propscaler.io/template-hash=abc",
        "taint dedicated=gpu", "taint node.kubernetes.io/not-ready=",
        "allocatable cpu=7500m mem=32212254720 eph=0 pods=58 nvidia.com/gpu=4",
        "ready 0 unschedulable 0"}) {
    EXPECT_NE(every.find(line), std::string::npos) << line << "\n" << every;
  }
  EXPECT_NE(every.find("providerID kwok://" + NodeName(3)), std::string::npos)
      << every;
}

// Pods as the real server encodes them, realistic ones (the memory
// benchmark's) and ones with every scheduling field propscaler reads: the
// protobuf list decodes to exactly what its JSON decodes to.
TEST_F(WireRealServerTest, ProtobufPodListDecodesAsItsJson) {
  // The realistic pods run as "shop"; no token controller runs here to
  // fill a token Secret, so the account mounts none.
  ASSERT_TRUE(AdminCall(cluster(), "POST",
                        "/api/v1/namespaces/" + ns() + "/serviceaccounts",
                        R"({"metadata":{"name":"shop"},)"
                        R"("automountServiceAccountToken":false})")
                  .ok());
  for (int i = 0; i < 12; ++i) {
    std::string pod = sim::MakeRealisticPodJson(i, i % 3 == 0 ? "" : "n-1");
    const std::string from =
        "\"namespace\":\"" + sim::RealisticPodNamespace(i) + "\"";
    pod.replace(pod.find(from), from.size(), "\"namespace\":\"" + ns() + "\"");
    Result<std::string> created = AdminCall(
        cluster(), "POST", "/api/v1/namespaces/" + ns() + "/pods", pod);
    ASSERT_TRUE(created.ok()) << created.status().message();
  }
  const PodExtras scheduling{
      .labels = R"({"app":"web","tier":"front"})",
      .spec =
          R"("nodeSelector":{"disk":"ssd"},"terminationGracePeriodSeconds":45,
          "tolerations":[{"key":"dedicated","operator":"Equal","value":"gpu","effect":"NoSchedule"},
                         {"operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
          "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
              {"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]},{"key":"gpu","operator":"Exists"}]},
              {"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}},
            "podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"app":"db"}},"topologyKey":"topology.kubernetes.io/zone"}]},
            "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchExpressions":[{"key":"tier","operator":"NotIn","values":["back"]}]},"namespaces":["shop"],"topologyKey":"kubernetes.io/hostname"}]}},
          "topologySpreadConstraints":[{"maxSkew":2,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}}},
                                       {"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"}],
          "initContainers":[{"name":"init","image":"busybox","resources":{"requests":{"cpu":"5","memory":"1Gi"}}}],
          "volumes":[{"name":"logs","hostPath":{"path":"/var/log"}},
            {"name":"ebs","awsElasticBlockStore":{"volumeID":"vol-1"}},
            {"name":"pd","gcePersistentDisk":{"pdName":"disk-1","readOnly":true}},
            {"name":"lun","iscsi":{"targetPortal":"10.0.0.1:3260","iqn":"iqn.2001-04.com.example:storage","lun":0,"readOnly":true}},
            {"name":"cinder","cinder":{"volumeID":"c-1"}},
            {"name":"azure","azureDisk":{"kind":"Managed","diskName":"d","diskURI":"/subscriptions/s/disks/d","readOnly":true}}])"};
  for (Status created :
       {CreateServiceAccount(cluster(), ns(), "default"),
        CreatePendingPod(cluster(), ns(), "every-field", "3", scheduling),
        CreatePendingPod(cluster(), ns(), "plain", "250m"),
        BindPod(cluster(), ns(), "plain", "n-2")}) {
    ASSERT_TRUE(created.ok()) << created.message();
  }

  const std::string path =
      "/api/v1/namespaces/" + ns() + "/pods?resourceVersion=0&limit=500";
  kube::HttpRequest request;
  request.path = path;
  request.accept = std::string(kube::kKubeProtobufType) + ", application/json";
  auto by_key = [](std::vector<kube::LivePod> pods) {
    std::map<std::string, std::string> out;
    for (const kube::LivePod& pod : pods) {
      out[pod.state.Key()] = kube::testing::LivePodText(pod);
    }
    return out;
  };
  // Both lists come from the watch cache, which may still be catching up:
  // compared once both hold every pod.
  std::map<std::string, std::string> from_json, from_proto;
  for (int attempt = 0; attempt < 50; ++attempt) {
    Result<kube::HttpResponse> proto = cluster().admin_http().Do(request);
    Result<kube::HttpResponse> json = cluster().Admin("GET", path);
    ASSERT_TRUE(proto.ok() && proto->status == 200);
    ASSERT_TRUE(json.ok() && json->status == 200);
    ASSERT_TRUE(kube::IsKubeProtobuf(proto->body)) << proto->body.substr(0, 40);
    Result<kube::ListPage<kube::LivePod>> json_page =
        kube::DecodeLivePodList(json->body);
    ASSERT_TRUE(json_page.ok()) << json_page.status().message();
    std::string_view rest = proto->body;
    kube::JsonChunkStream stream([&](std::string_view* chunk) {
      if (rest.empty()) return false;
      *chunk = rest.substr(0, 1000);
      rest.remove_prefix(chunk->size());
      return true;
    });
    Result<kube::ListPage<kube::LivePod>> proto_page =
        kube::DecodeLivePodListProto(&stream, {});
    ASSERT_TRUE(proto_page.ok()) << proto_page.status().message();
    EXPECT_TRUE(json_page->item_errors.empty() &&
                proto_page->item_errors.empty());
    from_json = by_key(json_page->items);
    from_proto = by_key(proto_page->items);
    if (from_json.size() == 14 && from_proto.size() == 14 &&
        from_json.at(ns() + "/every-field").find("unschedulable 1") !=
            std::string::npos &&
        from_proto.at(ns() + "/plain").find("node n-2") != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(from_json.size(), 14u);
  EXPECT_EQ(from_proto, from_json);
  // The fields of the pod that has them all were read, not just equal.
  const std::string& every = from_proto[ns() + "/every-field"];
  for (const char* line :
       {"requests cpu=5000m mem=1073741824", "nodeSelector {disk=ssd,}",
        "nodeAffinity term: zone op0 [a,b,] gpu op2 []",
        "toleration dedicated op0 gpu any 0 effect0",
        "antiAffinity [kubernetes.io/hostname {tier op3 [back,];} [shop,]]",
        "spread 2 topology.kubernetes.io/zone {app op0 [web,];} min 0",
        "owner ReplicaSet/web", "localStorage 1", "grace 45",
        "disk ebs.csi.aws.com vol-1\n",
        "disk pd.csi.storage.gke.io disk-1 read-only",
        "disk iscsi iqn.2001-04.com.example:storage read-only",
        "disk cinder.csi.openstack.org c-1\n",
        "disk disk.csi.azure.com /subscriptions/s/disks/d read-only",
        "unschedulable 1"}) {
    EXPECT_NE(every.find(line), std::string::npos) << line << "\n" << every;
  }
}

// An error answering a protobuf request comes as a protobuf Status; its
// message is read from it.
TEST_F(WireRealServerTest, ProtobufErrorMessageIsRead) {
  kube::HttpRequest request;
  request.path = "/api/v1/nodes?labelSelector=a+in+(b";
  request.accept = std::string(kube::kKubeProtobufType) + ", application/json";
  Result<kube::HttpResponse> got = cluster().admin_http().Do(request);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->status, 400);
  ASSERT_TRUE(kube::IsKubeProtobuf(got->body));
  EXPECT_NE(kube::DecodeStatusMessage(got->body).find("unable to parse"),
            std::string::npos)
      << kube::DecodeStatusMessage(got->body);
}

// kube-apiserver 1.20 refuses a WatchList request with 422 and the message
// the simulated server's WatchListSupport::kBefore copies; propscaler then
// lists in pages (the fallback every real-server test runs through).
TEST_F(WireRealServerTest, WatchListIsRefusedBeforeKubernetes127) {
  AddNodes(0, 1);
  Result<kube::HttpResponse> got = cluster().Admin(
      "GET",
      "/api/v1/nodes?watch=1&allowWatchBookmarks=true&sendInitialEvents=true"
      "&resourceVersionMatch=NotOlderThan&timeoutSeconds=5");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->status, 422) << got->body;
  EXPECT_NE(got->body.find("resourceVersionMatch: Forbidden: "
                           "resourceVersionMatch is forbidden for watch"),
            std::string::npos)
      << got->body;
}

}  // namespace
}  // namespace propscaler::envtest

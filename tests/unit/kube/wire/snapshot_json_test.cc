#include "kube/wire/snapshot_json.h"

#include <gtest/gtest.h>

#include "nodescale/domain/node_groups_json.h"
#include "nodescale/domain/node_marks.h"

namespace propscaler::kube {
namespace {

using nodescale::ConsolidationPolicy;
using nodescale::DecodeNodeGroupsJson;
using nodescale::NodeGroup;
using nodescale::NodeGroupOf;
using nodescale::NodePool;

constexpr int64_t kMi = int64_t{1} << 20;

TEST(NodescaleSnapshotJsonTest, DecodesSchedulingFieldsOfPods) {
  Result<std::vector<PodState>> pods = DecodePodListJson(R"({"items":[{
    "metadata":{"name":"p","namespace":"web","labels":{"app":"web"},
      "ownerReferences":[{"kind":"ReplicaSet","name":"web-1","controller":true}]},
    "spec":{
      "containers":[{"resources":{"requests":{"cpu":"250m","memory":"64Mi",
                                              "nvidia.com/gpu":"1"}}},
                    {"resources":{"requests":{"cpu":"250m","memory":"64Mi"}},
                     "ports":[{"containerPort":53,"hostPort":53,"protocol":"UDP"},
                              {"containerPort":9153},
                              {"containerPort":8080,"hostPort":8080}]}],
      "initContainers":[{"resources":{"requests":{"cpu":"1","memory":"16Mi"}}}],
      "overhead":{"cpu":"10m"},
      "nodeSelector":{"disk":"ssd"},
      "tolerations":[{"key":"gpu","operator":"Exists","effect":"NoSchedule"}],
      "affinity":{
        "nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{
          "nodeSelectorTerms":[{"matchExpressions":[
            {"key":"cores","operator":"Gt","values":["4"]}]},
            {"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}},
        "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
          {"topologyKey":"kubernetes.io/hostname",
           "labelSelector":{"matchLabels":{"app":"web"}}},
          {"topologyKey":"topology.kubernetes.io/zone",
           "labelSelector":{"matchLabels":{"app":"web"}}}]},
        "podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
          {"topologyKey":"topology.kubernetes.io/zone","namespaces":["db"],
           "labelSelector":{"matchExpressions":[
             {"key":"app","operator":"In","values":["db"]}]}}],
          "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,
           "podAffinityTerm":{"topologyKey":"kubernetes.io/hostname"}}]}},
      "topologySpreadConstraints":[
        {"maxSkew":2,"topologyKey":"topology.kubernetes.io/zone",
         "whenUnsatisfiable":"DoNotSchedule","minDomains":3,
         "labelSelector":{"matchLabels":{"app":"web"}}},
        {"maxSkew":1,"topologyKey":"kubernetes.io/hostname",
         "whenUnsatisfiable":"ScheduleAnyway",
         "labelSelector":{"matchLabels":{"app":"web"}}}],
      "volumes":[{"name":"tmp","emptyDir":{}}],
      "terminationGracePeriodSeconds":120},
    "status":{"phase":"Pending"}}]})");
  ASSERT_TRUE(pods.ok()) << pods.status().message();
  ASSERT_EQ(pods->size(), 1u);
  const PodState& pod = (*pods)[0];
  EXPECT_EQ(pod.Key(), "web/p");
  EXPECT_EQ(pod.owner_kind, "ReplicaSet");
  EXPECT_EQ(pod.termination_grace_seconds, 120);
  EXPECT_EQ(pod.requests.cpu_millis, 1010);  // init container + overhead
  EXPECT_EQ(pod.requests.memory_bytes, 128 * kMi);
  EXPECT_EQ(pod.requests.Extended("nvidia.com/gpu"), 1);
  EXPECT_EQ(pod.node_selector.at("disk"), "ssd");
  ASSERT_EQ(pod.tolerations.size(), 1u);
  EXPECT_EQ(pod.tolerations[0].op, Toleration::Op::kExists);
  ASSERT_EQ(pod.node_affinity.size(), 1u);  // matchFields-only term dropped
  EXPECT_EQ(pod.node_affinity[0].requirements[0].op,
            NodeSelectorRequirement::Op::kGt);
  ASSERT_EQ(pod.anti_affinity.size(), 2u);
  EXPECT_EQ(pod.anti_affinity[1].topology_key, "topology.kubernetes.io/zone");
  ASSERT_EQ(pod.affinity.size(), 1u);  // required terms only
  EXPECT_EQ(pod.affinity[0].namespaces, std::vector<std::string>{"db"});
  EXPECT_TRUE(pod.affinity[0].selector.Matches({{"app", "db"}}));
  ASSERT_EQ(pod.spread.size(), 1u);  // ScheduleAnyway is not kept
  EXPECT_EQ(pod.spread[0].max_skew, 2);
  EXPECT_EQ(pod.spread[0].min_domains, 3);
  EXPECT_EQ(pod.spread[0].topology_key, "topology.kubernetes.io/zone");
  EXPECT_TRUE(pod.has_local_storage);
  EXPECT_EQ(pod.host_ports,
            (std::vector<HostPort>{{53, "UDP"}, {8080, "TCP"}}));
  EXPECT_TRUE(IsPending(pod));
}

// Only the annotations a decision reads are kept: a pod's
// last-applied-configuration and the like cost memory per pod and are read
// by nothing.
TEST(NodescaleSnapshotJsonTest, KeepsOnlyThePodAnnotationsThatMatter) {
  Result<std::vector<PodState>> pods = DecodePodListJson(R"({"items":[{
    "metadata":{"name":"p","namespace":"web","annotations":{
      "kubectl.kubernetes.io/last-applied-configuration":"{\"big\":1}",
      "cluster-autoscaler.kubernetes.io/safe-to-evict":"false",
      "kubernetes.io/config.mirror":"abc",
      "prometheus.io/scrape":"true"}},
    "spec":{"containers":[{}]}}]})");
  ASSERT_TRUE(pods.ok()) << pods.status().message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].annotations,
            (Labels{{"cluster-autoscaler.kubernetes.io/safe-to-evict", "false"},
                    {"kubernetes.io/config.mirror", "abc"}}));
  EXPECT_TRUE(IsMirrorPod((*pods)[0]));
}

// Attachable in-tree disks and iSCSI LUNs in a pod's own volumes, as the
// CSI drivers they migrate to; other volumes are not disks.
TEST(NodescaleSnapshotJsonTest, DecodesInlineDisks) {
  Result<std::vector<PodState>> pods = DecodePodListJson(R"({"items":[{
    "metadata":{"name":"p"},
    "spec":{"containers":[{}],"volumes":[
      {"name":"a","awsElasticBlockStore":{"volumeID":"vol-1"}},
      {"name":"b","gcePersistentDisk":{"pdName":"pd-1","readOnly":true}},
      {"name":"c","iscsi":{"iqn":"iqn.2001-04.com.example:x","lun":0}},
      {"name":"d","nfs":{"server":"s","path":"/"}},
      {"name":"e","configMap":{"name":"x"}}]}}]})");
  ASSERT_TRUE(pods.ok()) << pods.status().message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].inline_disks.get(),
            (std::vector<InlineDisk>{{"ebs.csi.aws.com", "vol-1", false},
                                     {"pd.csi.storage.gke.io", "pd-1", true},
                                     {std::string(kIscsiDisk),
                                      "iqn.2001-04.com.example:x", false}}));
  auto bad = DecodePodListJson(R"({"items":[{"metadata":{"name":"p"},
    "spec":{"volumes":[{"name":"a","gcePersistentDisk":{"pdName":"x",
      "readOnly":"yes"}}]}}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(
                "items[0].spec.volumes[0].gcePersistentDisk.readOnly"),
            std::string::npos)
      << bad.status().message();
}

TEST(NodescaleSnapshotJsonTest, DecodesNodes) {
  Result<std::vector<NodeState>> nodes = DecodeNodeListJson(R"({"items":[{
    "metadata":{"name":"n1","labels":{"propscaler.io/node-group":"g"}},
    "spec":{"unschedulable":true, "providerID":"aws:///us-east-1a/i-1",
            "taints":[{"key":"k","value":"v","effect":"NoExecute"}]},
    "status":{"allocatable":{"cpu":"3920m","memory":"16Gi","pods":"110"},
              "conditions":[{"type":"Ready","status":"True"}]}}]})");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  const NodeState& node = (*nodes)[0];
  EXPECT_EQ(NodeGroupOf(node), "g");
  EXPECT_TRUE(node.ready);
  EXPECT_TRUE(node.unschedulable);
  EXPECT_EQ(node.allocatable.cpu_millis, 3920);
  EXPECT_EQ(node.allocatable.memory_bytes, 16 * 1024 * kMi);
  EXPECT_EQ(node.taints[0].effect, TaintEffect::kNoExecute);
  EXPECT_EQ(node.provider_id, "aws:///us-east-1a/i-1");
}

TEST(NodescaleSnapshotJsonTest, ErrorsNameTheFieldAndValue) {
  auto nodes = DecodeNodeListJson(
      R"({"items":[{"metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4x"}}}]})");
  ASSERT_FALSE(nodes.ok());
  EXPECT_NE(nodes.status().message().find(
                "items[0].status.allocatable.cpu: quantity \"4x\""),
            std::string::npos)
      << nodes.status().message();
  auto groups = DecodeNodeGroupsJson(
      R"({"nodeGroups":[{"name":"g","minSize":3,"maxSize":2}]})");
  ASSERT_FALSE(groups.ok());
  EXPECT_EQ(groups.status().message(),
            "nodeGroups[0]: minSize 3 is above maxSize 2");
  auto taint = DecodeNodeGroupsJson(
      R"({"nodeGroups":[{"name":"g","maxSize":2,"template":{"allocatable":{"pods":"1"},"taints":[{"key":"a","effect":"Never"}]}}]})");
  ASSERT_FALSE(taint.ok());
  EXPECT_NE(taint.status().message().find(
                "nodeGroups[0].template.taints[0].effect: \"Never\""),
            std::string::npos)
      << taint.status().message();
  EXPECT_FALSE(DecodePodListJson("{").ok());
  auto grace = DecodePodListJson(
      R"({"items":[{"metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":"30"}}]})");
  ASSERT_FALSE(grace.ok());
  EXPECT_NE(grace.status().message().find(
                "items[0].spec.terminationGracePeriodSeconds"),
            std::string::npos)
      << grace.status().message();
  auto skew = DecodePodListJson(
      R"({"items":[{"metadata":{"name":"p"},"spec":{"topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]}}]})");
  ASSERT_FALSE(skew.ok());
  EXPECT_NE(skew.status().message().find(
                "items[0].spec.topologySpreadConstraints[0].maxSkew: must be "
                "at least 1, is 0"),
            std::string::npos)
      << skew.status().message();
  // Preferred terms: weights the API server admits, and a term each.
  const std::pair<std::string, std::string> preferred[] = {
      {R"("nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":0,"preference":{}}]})",
       "items[0].spec.affinity.nodeAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].weight: 0 is not "
       "from 1 to 100"},
      {R"("nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5}]})",
       "items[0].spec.affinity.nodeAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].preference: "
       "missing"},
      {R"("podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":101,"podAffinityTerm":{"topologyKey":"zone"}}]})",
       "items[0].spec.affinity.podAntiAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].weight: 101 is "
       "not from 1 to 100"},
      {R"("podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1}]})",
       "items[0].spec.affinity.podAffinity."
       "preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm: "
       "missing"},
  };
  for (const auto& [affinity, want] : preferred) {
    auto pods = DecodePodListJson(
        R"({"items":[{"metadata":{"name":"p"},"spec":{"affinity":{)" +
        affinity + "}}}]}");
    ASSERT_FALSE(pods.ok()) << affinity;
    EXPECT_NE(pods.status().message().find(want), std::string::npos)
        << pods.status().message() << "\nwanted: " << want;
  }
  auto provider_id = DecodeNodeListJson(
      R"({"items":[{"metadata":{"name":"n"},"spec":{"providerID":7}}]})");
  ASSERT_FALSE(provider_id.ok());
  EXPECT_NE(provider_id.status().message().find("items[0].spec.providerID"),
            std::string::npos)
      << provider_id.status().message();
}

TEST(NodescaleSnapshotJsonTest, DecodesGroupsAndPriorities) {
  auto file = DecodeNodeGroupsJson(R"({"nodeGroups":[{"name":"g","minSize":0,
    "maxSize":10,"targetSize":0,"price":0.2,"template":{"allocatable":
    {"cpu":"4","memory":"16Gi","pods":"110"},"labels":{"a":"b"},"taints":[]}}],
    "priorities":{"10":["^small-.*"],"50":["^big-.*"]}})");
  ASSERT_TRUE(file.ok()) << file.status().message();
  const NodeGroup& g = file->groups[0];
  EXPECT_EQ(g.max_size, 10);
  EXPECT_DOUBLE_EQ(*g.price, 0.2);
  EXPECT_EQ(g.declared_template->allocatable.memory_bytes, 16 * 1024 * kMi);
  EXPECT_EQ(file->priorities.at(50), std::vector<std::string>{"^big-.*"});
}

TEST(SnapshotJsonTest, PoolsWithKarpenterDefaultsAndTheirErrors) {
  auto file = DecodeNodeGroupsJson(R"({"nodeGroups":[
      {"name":"g","minSize":0,"maxSize":3,"targetSize":0,"pool":"p",
       "capacityType":"spot","price":0.5}],
    "pools":[{"name":"p","expireAfter":"Never","migrateToPreferred":true,
      "disruption":{"consolidationPolicy":"WhenEmpty","consolidateAfter":"1m",
        "budgets":[{"nodes":"10%","reasons":["Drifted"],
                    "schedule":"0 9 * * mon-fri","duration":"8h"}]}},
      {"name":"defaults"}]})");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->groups[0].pool, "p");
  EXPECT_EQ(file->groups[0].capacity_type, "spot");
  const NodePool& p = file->pools[0];
  EXPECT_EQ(p.consolidation_policy, ConsolidationPolicy::kWhenEmpty);
  EXPECT_EQ(p.consolidate_after,
            std::optional<Duration>(std::chrono::minutes(1)));
  EXPECT_FALSE(p.expire_after.has_value());
  EXPECT_TRUE(p.migrate_to_preferred);
  ASSERT_EQ(p.budgets.size(), 1u);
  EXPECT_EQ(p.budgets[0].schedule, "0 9 * * mon-fri");
  EXPECT_EQ(p.budgets[0].duration, Duration(std::chrono::hours(8)));
  EXPECT_EQ(file->pools[1], NodePool{"defaults"});
  EXPECT_EQ(file->pools[1].budgets[0].nodes, "10%");
  EXPECT_EQ(file->pools[1].expire_after,
            std::optional<Duration>(std::chrono::hours(720)));

  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"nodeGroups":[{"name":"g","pool":"nope"}]})",
       "nodeGroups[0].pool: \"nope\" is not in pools"},
      {R"({"nodeGroups":[{"name":"g","capacityType":"reserved"}]})",
       "nodeGroups[0].capacityType: \"reserved\" is not on-demand or spot"},
      {R"({"nodeGroups":[],"pools":[{"name":"p","disruption":
          {"budgets":[{"nodes":"110%"}]}}]})",
       "pools[0].disruption.budgets[0].nodes: \"110%\" is neither"},
      {R"({"nodeGroups":[],"pools":[{"name":"p","disruption":
          {"budgets":[{"nodes":"1","schedule":"@daily"}]}}]})",
       "pools[0].disruption.budgets[0]: schedule and duration go together"},
      {R"({"nodeGroups":[],"pools":[{"name":"p","disruption":
          {"consolidationPolicy":"Balanced"}}]})",
       "\"Balanced\" is not WhenEmpty or WhenEmptyOrUnderutilized"},
      {R"({"nodeGroups":[],"pools":[{"name":"p","expireAfter":"30 days"}]})",
       "pools[0].expireAfter"},
      {R"({"nodeGroups":[],"pools":[{"name":"p"},{"name":"p"}]})",
       "pools[1].name: \"p\" is declared twice"},
      {R"({"nodeGroups":[],"pools":[{"name":"p","disruption":
          {"budgets":[{"nodes":"1","reasons":["Expired"]}]}}]})",
       "\"Expired\" is not Empty, Drifted or Underutilized"},
  };
  for (const auto& [text, want] : bad) {
    auto decoded = DecodeNodeGroupsJson(text);
    ASSERT_FALSE(decoded.ok()) << text;
    EXPECT_NE(decoded.status().message().find(want), std::string::npos)
        << decoded.status().message();
  }
}

}  // namespace
}  // namespace propscaler::kube

namespace propscaler::kube {
namespace {

using nodescale::ConsolidationPolicy;
using nodescale::DecodeNodeGroupsJson;
using nodescale::NodeGroup;
using nodescale::NodeGroupOf;
using nodescale::NodePool;

TEST(SnapshotJsonTest, PodDisruptionBudgetsOfBothVersions) {
  const std::string items = R"([
    {"metadata":{"name":"web","namespace":"shop"},
     "spec":{"maxUnavailable":1,
             "selector":{"matchLabels":{"app":"web"},
                         "matchExpressions":[{"key":"tier","operator":"In",
                                              "values":["front"]}]}},
     "status":{"disruptionsAllowed":2}},
    {"metadata":{"name":"db","namespace":"shop"},
     "spec":{"maxUnavailable":"0%","selector":{}}},
    {"metadata":{"name":"all"},"spec":{"minAvailable":"100%"}}])";
  Result<std::vector<kube::PdbState>> v1 = kube::DecodePdbListJson(
      R"({"apiVersion":"policy/v1","items":)" + items + "}");
  ASSERT_TRUE(v1.ok()) << v1.status().message();
  ASSERT_EQ(v1->size(), 3u);
  const kube::PdbState& web = (*v1)[0];
  EXPECT_EQ(web.namespace_, "shop");
  EXPECT_EQ(web.disruptions_allowed, 2);
  EXPECT_FALSE(web.blocks_all);
  EXPECT_TRUE(web.selector.Matches({{"app", "web"}, {"tier", "front"}}));
  EXPECT_FALSE(web.selector.Matches({{"app", "web"}, {"tier", "back"}}));
  // policy/v1: an empty selector covers the namespace; "0%" blocks all.
  EXPECT_FALSE((*v1)[1].no_selector);
  EXPECT_TRUE((*v1)[1].blocks_all);
  EXPECT_EQ((*v1)[1].disruptions_allowed, 0);  // no status yet
  // No selector at all covers nothing; minAvailable "100%" blocks all.
  EXPECT_EQ((*v1)[2].namespace_, "default");
  EXPECT_TRUE((*v1)[2].no_selector);
  EXPECT_TRUE((*v1)[2].blocks_all);

  // policy/v1beta1: an empty selector covers nothing.
  Result<std::vector<kube::PdbState>> beta = kube::DecodePdbListJson(
      R"({"apiVersion":"policy/v1beta1","items":)" + items + "}");
  ASSERT_TRUE(beta.ok()) << beta.status().message();
  EXPECT_TRUE((*beta)[1].no_selector);
  EXPECT_FALSE((*beta)[0].no_selector);

  Result<std::vector<kube::PdbState>> bad = kube::DecodePdbListJson(
      R"({"items":[{"metadata":{"name":"x"},"status":{"disruptionsAllowed":"1"}}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "items[0].status.disruptionsAllowed: want an integer, got \"1\"");
  bad = kube::DecodePdbListJson(
      R"({"items":[{"metadata":{"name":"x"},"spec":{"selector":{"matchExpressions":[{"key":"a","operator":"Near"}]}}}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "items[0].spec.selector.matchExpressions[0].operator: \"Near\" is "
            "not In, NotIn, Exists or DoesNotExist");
}

}  // namespace
}  // namespace propscaler::kube

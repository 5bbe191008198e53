#include <gtest/gtest.h>

#include "apiserver/fake_apiserver.h"
#include "apiserver/resources.h"
#include "apiserver/store_objects.h"
#include "kube/controllers/reflector.h"
#include "nodescale/domain/node_marks.h"
#include "nodescale/provider/clusterapi.h"
#include "unit/nodescale_test_util.h"
#include "transport/api.h"
#include "transport/http_client.h"

namespace propscaler::nodescale {
namespace {

using testing_util::kGi;

constexpr char kCapacity[] = "capacity.cluster-autoscaler.kubernetes.io/";

Labels Capacity(const std::map<std::string, std::string>& values) {
  Labels out;
  for (const auto& [name, value] : values) out[kCapacity + name] = value;
  return out;
}

// The template without the labels every one has (kubernetes.io/arch=amd64
// and kubernetes.io/os=linux, checked here).
NodeTemplate TemplateOf(const std::map<std::string, std::string>& values) {
  Result<std::optional<NodeTemplate>> t =
      TemplateFromCapacityAnnotations(Capacity(values));
  EXPECT_TRUE(t.ok()) << t.status().message();
  if (!t.ok() || !t->has_value()) return {};
  NodeTemplate out = **t;
  EXPECT_EQ(out.labels["kubernetes.io/arch"], "amd64");
  EXPECT_EQ(out.labels["kubernetes.io/os"], "linux");
  out.labels.erase("kubernetes.io/arch");
  out.labels.erase("kubernetes.io/os");
  return out;
}

std::string ErrorOf(const std::map<std::string, std::string>& values) {
  Result<std::optional<NodeTemplate>> t =
      TemplateFromCapacityAnnotations(Capacity(values));
  return t.ok() ? "ok" : t.status().message();
}

TEST(ClusterApiTemplateTest, NoCpuOrMemoryMeansNoTemplate) {
  Result<std::optional<NodeTemplate>> t =
      TemplateFromCapacityAnnotations(Capacity({{"maxPods", "50"}}));
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->has_value());
}

TEST(ClusterApiTemplateTest, CpuAndMemoryWithDefaultPods) {
  NodeTemplate want;
  want.allocatable.cpu_millis = 4000;
  want.allocatable.memory_bytes = 16 * kGi;
  want.allocatable.pods = 110;
  EXPECT_EQ(TemplateOf({{"cpu", "4"}, {"memory", "16Gi"}}), want);
  // As Cluster Autoscaler: one of the two is no template.
  for (const auto& one : std::vector<std::map<std::string, std::string>>{
           {{"cpu", "500m"}}, {{"memory", "1Gi"}}}) {
    Result<std::optional<NodeTemplate>> t =
        TemplateFromCapacityAnnotations(Capacity(one));
    ASSERT_TRUE(t.ok()) << t.status().message();
    EXPECT_FALSE(t->has_value());
  }
}

TEST(ClusterApiTemplateTest, EphemeralDiskAndMaxPods) {
  NodeTemplate want;
  want.allocatable.cpu_millis = 2000;
  want.allocatable.memory_bytes = 8 * kGi;
  want.allocatable.ephemeral_storage_bytes = 100 * kGi;
  want.allocatable.pods = 32;
  EXPECT_EQ(TemplateOf({{"cpu", "2"},
                        {"memory", "8Gi"},
                        {"ephemeral-disk", "100Gi"},
                        {"maxPods", "32"}}),
            want);
}

// As Cluster Autoscaler: gpu-count without gpu-type adds no GPU.
TEST(ClusterApiTemplateTest, GpuCountWithoutTypeAddsNoGpu) {
  NodeTemplate want;
  want.allocatable.cpu_millis = 8000;
  want.allocatable.memory_bytes = 32 * kGi;
  want.allocatable.pods = 110;
  EXPECT_EQ(TemplateOf({{"cpu", "8"}, {"memory", "32Gi"}, {"gpu-count", "2"}}),
            want);
}

TEST(ClusterApiTemplateTest, GpuTypeIsTheResourceName) {
  NodeTemplate want;
  want.allocatable.cpu_millis = 8000;
  want.allocatable.memory_bytes = 32 * kGi;
  want.allocatable.pods = 110;
  want.allocatable.SetExtended("amd.com/gpu", 1);
  EXPECT_EQ(TemplateOf({{"cpu", "8"},
                        {"memory", "32Gi"},
                        {"gpu-count", "1"},
                        {"gpu-type", "amd.com/gpu"}}),
            want);
  // A type without a count adds no GPUs.
  want.allocatable.extended.clear();
  EXPECT_EQ(
      TemplateOf(
          {{"cpu", "8"}, {"memory", "32Gi"}, {"gpu-type", "nvidia.com/gpu"}}),
      want);
}

TEST(ClusterApiTemplateTest, LabelsAndTaintsInCasFormats) {
  NodeTemplate want;
  want.allocatable.cpu_millis = 4000;
  want.allocatable.memory_bytes = 16 * kGi;
  want.allocatable.pods = 110;
  want.labels = {{"topology.kubernetes.io/zone", "zone-a"},
                 {"workload", "batch"},
                 {"empty", ""}};
  want.taints = {{"workload", "batch", TaintEffect::kNoSchedule},
                 {"dedicated", "", TaintEffect::kPreferNoSchedule},
                 {"gpu", "true", TaintEffect::kNoExecute}};
  EXPECT_EQ(TemplateOf({{"cpu", "4"},
                        {"memory", "16Gi"},
                        {"labels",
                         "topology.kubernetes.io/zone=zone-a, workload=batch,"
                         "empty="},
                        {"taints",
                         "workload=batch:NoSchedule,dedicated:PreferNoSchedule,"
                         "gpu=true:NoExecute"}}),
            want);
}

TEST(ClusterApiTemplateTest, BadValuesNameTheAnnotationAndValue) {
  const std::map<std::string, std::string> base = {{"cpu", "4"},
                                                   {"memory", "16Gi"}};
  struct Case {
    std::string annotation;
    std::string value;
  };
  for (const Case& c : std::vector<Case>{{"cpu", "four"},
                                         {"memory", "16 GB"},
                                         {"memory", "-1Gi"},
                                         {"ephemeral-disk", "lots"},
                                         {"maxPods", "many"},
                                         {"gpu-count", "x"},
                                         {"gpu-count", "-2"},
                                         {"gpu-type", "tesla-t4"},
                                         {"labels", "novalue"},
                                         {"labels", "=v"},
                                         {"taints", "k=v"},
                                         {"taints", "k=v:Sometimes"},
                                         {"taints", ":NoSchedule"}}) {
    std::map<std::string, std::string> values = base;
    values[c.annotation] = c.value;
    const std::string error = ErrorOf(values);
    EXPECT_NE(error.find(kCapacity + c.annotation), std::string::npos)
        << c.annotation << "=" << c.value << ": " << error;
    EXPECT_NE(error.find(c.value), std::string::npos)
        << c.annotation << "=" << c.value << ": " << error;
  }
}

// A group with `annotations` (capacity.* keys) and the status of its
// infrastructure template.
Result<std::optional<NodeTemplate>> FromZero(
    const std::map<std::string, std::string>& annotations,
    const std::optional<kube::InfrastructureTemplate>& infrastructure,
    const Labels& machine_labels = {},
    const std::vector<Taint>& machine_taints = {},
    std::string_view default_arch = "amd64") {
  kube::ClusterApiObject group;
  group.annotations = Capacity(annotations);
  group.machine_labels = machine_labels;
  group.machine_taints = machine_taints;
  return ScaleFromZeroTemplate(
      group, infrastructure ? &*infrastructure : nullptr, default_arch);
}

// Cluster Autoscaler's precedence: the template's status.capacity, then
// every annotation over its key; pods always from maxPods (or 110), never
// the template's; values that do not parse left out.
TEST(ClusterApiScaleFromZeroTest, TemplateCapacityUnderTheAnnotations) {
  const kube::InfrastructureTemplate infra{{{"cpu", "2"},
                                            {"memory", "4Gi"},
                                            {"pods", "50"},
                                            {"nvidia.com/gpu", "1"},
                                            {"ephemeral-storage", "lots"}},
                                           "",
                                           ""};
  struct Case {
    std::map<std::string, std::string> annotations;
    Resources want;
  };
  Resources from_template;
  from_template.cpu_millis = 2000;
  from_template.memory_bytes = 4 * kGi;
  from_template.pods = 110;
  from_template.SetExtended("nvidia.com/gpu", 1);
  Resources overridden = from_template;
  overridden.cpu_millis = 4000;
  overridden.ephemeral_storage_bytes = 20 * kGi;
  overridden.pods = 30;
  overridden.SetExtended("nvidia.com/gpu", 2);
  for (const Case& c : std::vector<Case>{{{}, from_template},
                                         {{{"cpu", "4"},
                                           {"ephemeral-disk", "20Gi"},
                                           {"maxPods", "30"},
                                           {"gpu-count", "2"},
                                           {"gpu-type", "nvidia.com/gpu"}},
                                          overridden}}) {
    Result<std::optional<NodeTemplate>> t = FromZero(c.annotations, infra);
    ASSERT_TRUE(t.ok()) << t.status().message();
    ASSERT_TRUE(t->has_value());
    EXPECT_EQ((*t)->allocatable, c.want);
  }
}

// cpu and memory may come one from each source; without both there is no
// template.
TEST(ClusterApiScaleFromZeroTest, CpuAndMemoryFromEitherSource) {
  const kube::InfrastructureTemplate cpu_only{{{"cpu", "8"}}, "", ""};
  Result<std::optional<NodeTemplate>> t =
      FromZero({{"memory", "32Gi"}}, cpu_only);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_TRUE(t->has_value());
  EXPECT_EQ((*t)->allocatable.cpu_millis, 8000);
  EXPECT_EQ((*t)->allocatable.memory_bytes, 32 * kGi);
  for (const auto& [annotations, infra] :
       std::vector<std::pair<std::map<std::string, std::string>,
                             std::optional<kube::InfrastructureTemplate>>>{
           {{}, cpu_only},
           {{{"cpu", "1"}}, std::nullopt},
           {{{"memory", "1Gi"}}, kube::InfrastructureTemplate{}},
           {{},
            kube::InfrastructureTemplate{
                {{"cpu", "4"}, {"memory", "sixteen"}}, "", ""}}}) {
    Result<std::optional<NodeTemplate>> none = FromZero(annotations, infra);
    ASSERT_TRUE(none.ok()) << none.status().message();
    EXPECT_FALSE(none->has_value());
  }
}

// Labels, later wins, as CA's buildTemplateLabels: the default arch and
// linux; the template's status.nodeInfo; the Cluster API-managed labels of
// the machines' template (others are not put on the Node by Cluster API);
// the labels annotation.
TEST(ClusterApiScaleFromZeroTest, LabelsInClusterAutoscalersOrder) {
  const std::map<std::string, std::string> sized = {{"cpu", "4"},
                                                    {"memory", "16Gi"}};
  Result<std::optional<NodeTemplate>> plain =
      FromZero(sized, std::nullopt, {}, {}, "arm64");
  ASSERT_TRUE(plain.ok() && plain->has_value());
  EXPECT_EQ((*plain)->labels, (Labels{{"kubernetes.io/arch", "arm64"},
                                      {"kubernetes.io/os", "linux"}}));

  const kube::InfrastructureTemplate infra{{}, "s390x", "windows"};
  const Labels machine_labels = {
      {"node-role.kubernetes.io/worker", ""},
      {"node-restriction.kubernetes.io/pool", "a"},
      {"team.node-restriction.kubernetes.io/owner", "b"},
      {"node.cluster.x-k8s.io/tier", "gold"},
      {"x.node.cluster.x-k8s.io/y", "z"},
      {"app", "web"},
      {"evilnode.cluster.x-k8s.io/k", "v"},
      {"kubernetes.io/arch", "ppc64le"}};
  std::map<std::string, std::string> annotated = sized;
  annotated["labels"] = "node.cluster.x-k8s.io/tier=silver,disk=ssd";
  Result<std::optional<NodeTemplate>> t =
      FromZero(annotated, infra, machine_labels, {}, "arm64");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_TRUE(t->has_value());
  EXPECT_EQ((*t)->labels,
            (Labels{{"kubernetes.io/arch", "s390x"},
                    {"kubernetes.io/os", "windows"},
                    {"node-role.kubernetes.io/worker", ""},
                    {"node-restriction.kubernetes.io/pool", "a"},
                    {"team.node-restriction.kubernetes.io/owner", "b"},
                    {"node.cluster.x-k8s.io/tier", "silver"},
                    {"x.node.cluster.x-k8s.io/y", "z"},
                    {"disk", "ssd"}}));
}

TEST(ClusterApiScaleFromZeroTest, ManagedLabelDomains) {
  for (const auto& [key, managed] : std::vector<std::pair<std::string, bool>>{
           {"node-role.kubernetes.io/control-plane", true},
           {"node-role.kubernetes.io", false},
           {"sub.node-role.kubernetes.io/x", false},
           {"node-restriction.kubernetes.io/a", true},
           {"a.b.node-restriction.kubernetes.io/c", true},
           {"xnode-restriction.kubernetes.io/a", false},
           {"node.cluster.x-k8s.io/a", true},
           {"a.node.cluster.x-k8s.io/b", true},
           {"cluster.x-k8s.io/a", false},
           {"kubernetes.io/arch", false},
           {"app", false}}) {
    EXPECT_EQ(IsClusterApiManagedLabel(key), managed) << key;
  }
}

// The machines' template taints, with the annotation's winning on the same
// key and effect.
TEST(ClusterApiScaleFromZeroTest, TaintsFromTheMachineTemplateAndAnnotation) {
  std::map<std::string, std::string> annotations = {
      {"cpu", "4"},
      {"memory", "16Gi"},
      {"taints", "dedicated=batch:NoSchedule,extra:NoExecute"}};
  const std::vector<Taint> machine_taints = {
      {"dedicated", "infra", TaintEffect::kNoSchedule},
      {"dedicated", "infra", TaintEffect::kPreferNoSchedule},
      {"gpu", "true", TaintEffect::kNoSchedule}};
  Result<std::optional<NodeTemplate>> t =
      FromZero(annotations, std::nullopt, {}, machine_taints);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_TRUE(t->has_value());
  EXPECT_EQ((*t)->taints,
            (std::vector<Taint>{
                {"dedicated", "infra", TaintEffect::kPreferNoSchedule},
                {"gpu", "true", TaintEffect::kNoSchedule},
                {"dedicated", "batch", TaintEffect::kNoSchedule},
                {"extra", "", TaintEffect::kNoExecute}}));
}

// CA's csi-driver annotation: attach limits; 0 is a driver without one.
TEST(ClusterApiScaleFromZeroTest, CsiDriverLimits) {
  Result<std::optional<NodeTemplate>> t =
      FromZero({{"cpu", "4"},
                {"memory", "16Gi"},
                {"csi-driver", "ebs.csi.aws.com=25, efs.csi.aws.com=0"}},
               std::nullopt);
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_TRUE(t->has_value());
  EXPECT_EQ((*t)->volume_limits, (VolumeLimits{{"ebs.csi.aws.com", 25}}));
  for (const std::string bad : {"ebs", "=3", "ebs=-1", "ebs=many"}) {
    Result<std::optional<NodeTemplate>> error = FromZero(
        {{"cpu", "4"}, {"memory", "16Gi"}, {"csi-driver", bad}}, std::nullopt);
    ASSERT_FALSE(error.ok()) << bad;
    EXPECT_NE(
        error.status().message().find(std::string(kCapacity) + "csi-driver"),
        std::string::npos)
        << error.status().message();
    EXPECT_NE(error.status().message().find(bad), std::string::npos)
        << error.status().message();
  }
}

TEST(ClusterApiScaleFromZeroTest, DefaultArchAsClusterAutoscaler) {
  for (const auto& [env, want, warns] :
       std::vector<std::tuple<std::string, std::string, bool>>{
           {"", "amd64", false},
           {"amd64", "amd64", false},
           {"arm64", "arm64", false},
           {"ppc64le", "ppc64le", false},
           {"s390x", "s390x", false},
           {"riscv64", "amd64", true},
           {"ARM64", "amd64", true}}) {
    std::string warning;
    EXPECT_EQ(ScaleFromZeroDefaultArch(env, &warning), want) << env;
    EXPECT_EQ(!warning.empty(), warns) << env << ": " << warning;
    if (warns) {
      EXPECT_NE(warning.find(env), std::string::npos) << warning;
    }
  }
}

constexpr char kMinSizeKey[] =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
constexpr char kMaxSizeKey[] =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";

// Cluster Autoscaler's TestUtilParseScalingBounds (clusterapi_utils_test.go),
// its inputs and outcomes; a max of 0 (given or missing) is no node group.
TEST(ClusterApiScalingBoundsTest, CaseForCaseAsClusterAutoscaler) {
  struct Case {
    std::optional<std::string> min;
    std::optional<std::string> max;
    std::string error;  // a substring; empty: no error
    std::optional<std::pair<int64_t, int64_t>> bounds;  // nullopt: no group
  };
  const std::vector<Case> cases = {
      {std::nullopt, "0", "", std::nullopt},  // missing min is 0
      {"0", std::nullopt, "", std::nullopt},  // missing max is 0
      {"-1", "0", "min-size=\"-1\"", std::nullopt},
      {"not-an-int", "0", "min-size=\"not-an-int\"", std::nullopt},
      {"0", "-1", "max-size=\"-1\"", std::nullopt},
      {"0", "not-an-int", "max-size=\"not-an-int\"", std::nullopt},
      {"1", "0", "max-size=\"0\" is below", std::nullopt},
      {"0", "0", "", std::nullopt},
      {"0", "1", "", std::pair<int64_t, int64_t>{0, 1}},
      // Beyond CA's table: max alone is enough; strictly decimal.
      {std::nullopt, "5", "", std::pair<int64_t, int64_t>{0, 5}},
      {"2", "5", "", std::pair<int64_t, int64_t>{2, 5}},
      {"1k", "5", "min-size=\"1k\"", std::nullopt},
      {"1", " 5", "max-size=\" 5\"", std::nullopt},
      {"1", std::nullopt, "min-size=\"1\" without", std::nullopt},
  };
  for (const Case& c : cases) {
    Labels annotations;
    if (c.min) annotations[kMinSizeKey] = *c.min;
    if (c.max) annotations[kMaxSizeKey] = *c.max;
    const std::string label =
        "min " + c.min.value_or("(none)") + ", max " + c.max.value_or("(none)");
    Result<std::optional<ScalingBounds>> bounds =
        ParseScalingBounds(annotations, "MachineSet/default/test");
    if (!c.error.empty()) {
      ASSERT_FALSE(bounds.ok()) << label;
      EXPECT_NE(bounds.status().message().find(c.error), std::string::npos)
          << label << ": " << bounds.status().message();
      EXPECT_NE(bounds.status().message().find("MachineSet/default/test"),
                std::string::npos)
          << bounds.status().message();
      continue;
    }
    ASSERT_TRUE(bounds.ok()) << label << ": " << bounds.status().message();
    ASSERT_EQ(bounds->has_value(), c.bounds.has_value()) << label;
    if (!c.bounds) continue;
    EXPECT_EQ((*bounds)->min, c.bounds->first) << label;
    EXPECT_EQ((*bounds)->max, c.bounds->second) << label;
  }
}

// Cluster Autoscaler's per-NodeGroup autoscaling options: each key, values
// lower-cased, a bad value skipped (the flag's stays) and said.
TEST(ClusterApiGroupOptionsTest, AnnotationsOverrideTheFlags) {
  const ClusterApiKeys keys;
  const std::string prefix = "cluster.x-k8s.io/autoscaling-options-";
  std::vector<std::string> problems;
  const NodeGroupOptions options =
      ParseGroupOptions({{prefix + "scaledownutilizationthreshold", "0.3"},
                         {prefix + "scaledownunneededtime", "1M0S"},
                         {prefix + "scaledownunreadytime", "30m"},
                         {prefix + "maxnodeprovisiontime", "20m0s"},
                         {prefix + "maxnodestartuptime", "5m"}},
                        keys, "MachineDeployment/default/md", &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(options.scale_down_utilization_threshold, 0.3);
  EXPECT_EQ(options.scale_down_unneeded_time, std::chrono::minutes(1));
  EXPECT_EQ(options.scale_down_unready_time, std::chrono::minutes(30));
  EXPECT_EQ(options.max_node_provision_time, std::chrono::minutes(20));
  EXPECT_EQ(options.max_node_startup_time, std::chrono::minutes(5));

  const NodeGroupOptions bad =
      ParseGroupOptions({{prefix + "scaledownutilizationthreshold", "half"},
                         {prefix + "scaledownunneededtime", "soon"}},
                        keys, "MachineDeployment/default/md", &problems);
  EXPECT_EQ(bad, NodeGroupOptions());
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("MachineDeployment/default/md: annotation " +
                             prefix + "scaledownunneededtime=\"soon\""),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("\"half\""), std::string::npos) << problems[1];
}

// Cluster Autoscaler's TestUtilNormalizedProviderID.
TEST(ClusterApiProviderIdTest, NormalizedAsClusterAutoscaler) {
  const std::string vmss =
      "azure:///subscriptions/00000000-0000-0000-0000-000000000000/"
      "resourceGroups/resourceGroupName/providers/Microsoft.Compute/"
      "virtualMachineScaleSets/vmssName/virtualMachines/0";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"i-12345678", "i-12345678"},
      {"aws:////i-12345678", "i-12345678"},
      {"azure:///subscriptions/00000000-0000-0000-0000-000000000000/"
       "resourceGroups/resourceGroupName/providers/Microsoft.Compute/"
       "virtualMachines/control-plane-1cbe5-d4dx7",
       "control-plane-1cbe5-d4dx7"},
      {vmss, vmss},
  };
  for (const auto& [id, want] : cases) {
    EXPECT_EQ(NormalizedProviderId(id), want) << id;
  }
}

constexpr char kCapi[] = "/apis/cluster.x-k8s.io/v1beta1/namespaces/default/";
constexpr char kDeleteMachine[] = "cluster.x-k8s.io/delete-machine";

std::string GroupJson(const std::string& kind, const std::string& name,
                      int replicas, const std::string& owner_kind = "") {
  const std::string owner =
      owner_kind.empty()
          ? ""
          : R"(,"ownerReferences":[{"apiVersion":"cluster.x-k8s.io/v1beta1",)"
            R"("kind":")" +
                owner_kind + R"(","name":"workers","uid":"u"}])";
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":")" + kind +
         R"(","metadata":{"name":")" + name + R"(")" + owner +
         R"(,"annotations":{)"
         R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size":"0",)"
         R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5"}},)"
         R"("spec":{"replicas":)" +
         std::to_string(replicas) + "}}";
}

std::string MachineJson(const std::string& name,
                        const std::map<std::string, std::string>& labels,
                        const std::string& provider_id = "") {
  std::string label_json;
  for (const auto& [key, value] : labels) {
    label_json +=
        (label_json.empty() ? "\"" : ",\"") + key + "\":\"" + value + "\"";
  }
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
         R"("metadata":{"name":")" +
         name + R"(","labels":{)" + label_json +
         R"(}},"spec":{"providerID":")" + provider_id + R"("}})";
}

// A group object with exactly `annotations`.
std::string AnnotatedGroupJson(
    const std::string& kind, const std::string& name,
    const std::map<std::string, std::string>& annotations, int replicas = 1) {
  std::string json;
  for (const auto& [key, value] : annotations) {
    json += (json.empty() ? "\"" : ",\"") + key + "\":\"" + value + "\"";
  }
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":")" + kind +
         R"(","metadata":{"name":")" + name + R"(","annotations":{)" + json +
         R"(}},"spec":{"replicas":)" + std::to_string(replicas) + "}}";
}

// A Machine owned by MachineSet `set`, without Cluster API's labels.
std::string OwnedMachineJson(const std::string& name, const std::string& set) {
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Machine",)"
         R"("metadata":{"name":")" +
         name +
         R"(","ownerReferences":[{"apiVersion":"cluster.x-k8s.io/v1beta1",)"
         R"("kind":"MachineSet","name":")" +
         set + R"(","uid":"u"}]},"spec":{}})";
}

// A Node that names its Machine only through spec.providerID.
NodeState ProviderIdNode(const std::string& name,
                         const std::string& provider_id) {
  NodeState node;
  node.name = name;
  node.provider_id = provider_id;
  return node;
}

// A Node as CAPI annotates it; no annotations when `machine` is empty.
NodeState CapiNode(const std::string& name, const std::string& machine,
                   const std::string& ns = "default") {
  NodeState node;
  node.name = name;
  if (!machine.empty()) {
    node.annotations["cluster.x-k8s.io/machine"] = machine;
    node.annotations["cluster.x-k8s.io/cluster-namespace"] = ns;
  }
  return node;
}

class ClusterApiProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start({}).ok());
    kube::ClientConfig config;
    config.server = server_.url();
    http_ = std::make_unique<kube::HttpClient>(config, &RealClock::Instance());
    api_ = std::make_unique<kube::KubeApi>(http_.get());
    provider_ = std::make_unique<ClusterApiProvider>(
        api_.get(), api_.get(), &RealClock::Instance(), &objects_);
    Create("machinedeployments", GroupJson("MachineDeployment", "workers", 2));
    Create("machinesets", GroupJson("MachineSet", "batch", 1));
    // Managed by the deployment: not a group even with the annotations.
    Create("machinesets",
           GroupJson("MachineSet", "workers-abc", 2, "MachineDeployment"));
    for (const std::string name : {"m-1", "m-2"}) {
      Create("machines",
             MachineJson(name,
                         {{"cluster.x-k8s.io/deployment-name", "workers"},
                          {"cluster.x-k8s.io/set-name", "workers-abc"}},
                         "aws:///us-east-1a/i-" + name));
    }
    Create("machines",
           MachineJson("b-1", {{"cluster.x-k8s.io/set-name", "batch"}}));
    Create("machines",
           MachineJson("x-1", {{"cluster.x-k8s.io/set-name", "other"}}));
    EXPECT_FALSE(provider_->Ready().ok());
    ListObjects();
    ASSERT_TRUE(provider_->Ready().ok());
    Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
    ASSERT_TRUE(groups.ok()) << groups.status().message();
    groups_ = *groups;
    server_.ResetRequestCounts();
  }

  // What the watches bring, listed once into the provider's objects.
  void ListObjects() {
    for (int kind = 0; kind < ClusterApiObjects::kKinds; ++kind) {
      const std::string resource = ClusterApiObjects::kResources[kind];
      kube::Reflector<kube::ClusterApiObject> once(
          api_->ClusterApiObjects({}, resource),
          objects_.Sink(static_cast<ClusterApiObjects::Kind>(kind)), resource);
      Status listed = once.ListOnce();
      ASSERT_TRUE(listed.ok()) << listed.message();
    }
  }

  // Another writer sets the MachineDeployment's replicas.
  void SetReplicasBehindPropscaler(int replicas) {
    ASSERT_TRUE(sim::SetReplicas(server_.store(), "machinedeployment",
                                 "default", "workers", replicas)
                    .ok());
  }

  void Create(const std::string& resource, const std::string& json) {
    Status status = server_.CreateObject(kCapi + resource, json);
    ASSERT_TRUE(status.ok()) << status.message();
  }
  const NodeGroup& Group(const std::string& name) const {
    for (const NodeGroup& group : groups_) {
      if (group.name == name) return group;
    }
    static const NodeGroup kNone;
    ADD_FAILURE() << "no group " << name;
    return kNone;
  }
  std::string Machine(const std::string& name) const {
    return server_.GetObject(kCapi + std::string("machines/") + name)
        .value_or("");
  }
  bool Marked(const std::string& machine) const {
    return Machine(machine).find(kDeleteMachine) != std::string::npos;
  }
  int64_t Replicas(const std::string& path) const {
    const std::string json = server_.GetObject(kCapi + path).value_or("");
    const size_t at = json.find("\"replicas\":");
    return at == std::string::npos ? -1 : std::stoll(json.substr(at + 11));
  }
  // PATCHes and PUTs.
  int64_t Writes() const {
    int64_t count = 0;
    for (const auto& [request, n] : server_.Requests().by_request) {
      if (request.starts_with("PATCH ") || request.starts_with("PUT ")) {
        count += n;
      }
    }
    return count;
  }
  sim::FaultRule Fault500(const std::string& path,
                          const std::string& method = "PATCH") const {
    sim::FaultRule rule;
    rule.method = method;
    rule.path_prefix = kCapi + path;
    rule.code = 500;
    rule.count = -1;
    return rule;
  }

  sim::FakeApiServer server_;
  std::unique_ptr<kube::HttpClient> http_;
  std::unique_ptr<kube::KubeApi> api_;
  ClusterApiObjects objects_;
  std::unique_ptr<ClusterApiProvider> provider_;
  std::vector<NodeGroup> groups_;
};

constexpr char kWorkers[] = "MachineDeployment/default/workers";

TEST_F(ClusterApiProviderTest, GroupsAreAnnotatedDeploymentsAndLoneSets) {
  std::vector<std::string> names;
  for (const NodeGroup& group : groups_) names.push_back(group.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{kWorkers, "MachineSet/default/batch"}));
  EXPECT_EQ(Group(kWorkers).target_size, 2);
  EXPECT_EQ(Group("MachineSet/default/batch").target_size, 1);
}

// As Cluster Autoscaler's clusterapi provider: max alone makes a group
// (min 0), no max or a max of 0 makes none, and a paused object is none.
TEST_F(ClusterApiProviderTest, GroupsAsClusterAutoscalerFindsThem) {
  Create(
      "machinedeployments",
      AnnotatedGroupJson("MachineDeployment", "maxonly", {{kMaxSizeKey, "3"}}));
  Create("machinedeployments", AnnotatedGroupJson("MachineDeployment", "nomax",
                                                  {{kMinSizeKey, "0"}}));
  Create("machinedeployments",
         AnnotatedGroupJson(
             "MachineDeployment", "paused",
             {{kMaxSizeKey, "3"}, {"cluster.x-k8s.io/paused", "true"}}));
  ListObjects();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  std::vector<std::string> names;
  for (const NodeGroup& group : *groups) names.push_back(group.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"MachineDeployment/default/maxonly",
                                      kWorkers, "MachineSet/default/batch"}));
  EXPECT_EQ((*groups)[0].min_size, 0);
  EXPECT_EQ((*groups)[0].max_size, 3);
}

// --node-group-auto-discovery: only the objects a spec admits are groups.
TEST_F(ClusterApiProviderTest, AutoDiscoveryLimitsTheGroups) {
  for (const auto& [spec, want] : std::vector<std::pair<std::string, size_t>>{
           {"clusterapi:namespace=default", 2},
           {"clusterapi:namespace=other", 0},
           {"clusterapi:clusterName=c1", 0}}) {
    Result<std::vector<ClusterApiDiscoverySpec>> specs =
        ParseClusterApiDiscovery({spec});
    ASSERT_TRUE(specs.ok()) << specs.status().message();
    ClusterApiProvider limited(api_.get(), api_.get(), &RealClock::Instance(),
                               &objects_, {{}, *specs});
    Result<std::vector<NodeGroup>> groups = limited.NodeGroups({});
    ASSERT_TRUE(groups.ok()) << groups.status().message();
    EXPECT_EQ(groups->size(), want) << spec;
  }
}

// A MachinePool: its nodes are the instances in spec.providerIDList; it
// grows and shrinks through its scale subresource, with no Machine marked,
// and gives up only replicas that have no instance yet.
TEST_F(ClusterApiProviderTest, MachinePoolScalesByItsInstances) {
  Create(
      "machinepools",
      R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"MachinePool",)"
      R"("metadata":{"name":"pool","annotations":{)"
      R"("cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size":"5"}},)"
      R"("spec":{"replicas":3,"providerIDList":["aws:///z/i-p1",)"
      R"("aws:///z/i-p2"]}})");
  ListObjects();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  groups_ = *groups;
  const std::string pool = "MachinePool/default/pool";
  NodeGroup group = Group(pool);
  EXPECT_EQ(group.target_size, 3);
  const NodeState p1 = ProviderIdNode("p1", "aws://z/i-p1");
  EXPECT_EQ(provider_->NodeGroupOf(p1), pool);

  ASSERT_TRUE(provider_->IncreaseSize(group, 1).ok());
  EXPECT_EQ(Replicas("machinepools/pool"), 4);
  ASSERT_TRUE(provider_->DeleteNodes(group, {&p1}).ok());
  EXPECT_EQ(Replicas("machinepools/pool"), 3);
  EXPECT_EQ(Writes(), 2);  // the two scale writes, nothing marked

  const NodeState stranger = ProviderIdNode("s", "aws:///z/i-other");
  Status refused = provider_->DeleteNodes(group, {&stranger});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("node s"), std::string::npos)
      << refused.message();

  // Target 3 with 2 instances: one replica may be given up, not two.
  group.target_size = 3;
  EXPECT_FALSE(provider_->DecreaseTargetSize(group, 2, {}).ok());
  EXPECT_EQ(Replicas("machinepools/pool"), 3);
  ASSERT_TRUE(provider_->DecreaseTargetSize(group, 1, {}).ok());
  EXPECT_EQ(Replicas("machinepools/pool"), 2);
}

// As Cluster Autoscaler: a group with no replicas scales from zero only
// with cpu and memory to build its node from; without, it is no group.
TEST_F(ClusterApiProviderTest, AnEmptyGroupNeedsCpuAndMemoryToBeOne) {
  Create("machinedeployments", AnnotatedGroupJson("MachineDeployment", "bare",
                                                  {{kMaxSizeKey, "3"}}, 0));
  Create("machinedeployments",
         AnnotatedGroupJson(
             "MachineDeployment", "cpu-only",
             {{kMaxSizeKey, "3"}, {std::string(kCapacity) + "cpu", "4"}}, 0));
  Create("machinedeployments",
         AnnotatedGroupJson("MachineDeployment", "sized",
                            {{kMaxSizeKey, "3"},
                             {std::string(kCapacity) + "cpu", "4"},
                             {std::string(kCapacity) + "memory", "16Gi"}},
                            0));
  ListObjects();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  std::vector<std::string> names;
  for (const NodeGroup& group : *groups) names.push_back(group.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"MachineDeployment/default/sized",
                                      kWorkers, "MachineSet/default/batch"}));
}

constexpr char kInfra[] =
    "/apis/infrastructure.cluster.x-k8s.io/v1beta1/namespaces/default/"
    "dockermachinetemplates";

// An infrastructure template with status.capacity and status.nodeInfo.
std::string InfraTemplateJson(const std::string& name) {
  return R"({"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta1",)"
         R"("kind":"DockerMachineTemplate","metadata":{"name":")" +
         name +
         R"("},"spec":{},"status":{"capacity":{"cpu":"4","memory":"16Gi",)"
         R"("nvidia.com/gpu":"1"},)"
         R"("nodeInfo":{"architecture":"arm64","operatingSystem":"linux"}}})";
}

// A MachineDeployment at zero with only a max size, whose machines'
// template names `ref` as spec.template.spec.infrastructureRef.
std::string FromZeroGroupJson(const std::string& name, const std::string& ref) {
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1",)"
         R"("kind":"MachineDeployment","metadata":{"name":")" +
         name + R"(","annotations":{")" + kMaxSizeKey +
         R"(":"3"}},"spec":{"replicas":0,"template":{"metadata":{"labels":{)"
         R"("node-role.kubernetes.io/worker":"","app":"x"}},"spec":{)"
         R"("infrastructureRef":)" +
         ref + "}}}}";
}

// Scale from zero as Cluster Autoscaler reads it: the infrastructure
// template's status gives the node's resources and architecture, found
// through a v1beta1 reference (apiVersion) or a v1beta2 one (apiGroup,
// the version from discovery).
TEST_F(ClusterApiProviderTest,
       AnEmptyGroupScalesFromItsInfrastructureTemplate) {
  ASSERT_TRUE(server_.CreateObject(kInfra, InfraTemplateJson("t")).ok());
  Create("machinedeployments",
         FromZeroGroupJson(
             "v1beta1-ref",
             R"({"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta1",)"
             R"("kind":"DockerMachineTemplate","name":"t"})"));
  Create("machinedeployments",
         FromZeroGroupJson("v1beta2-ref",
                           R"({"apiGroup":"infrastructure.cluster.x-k8s.io",)"
                           R"("kind":"DockerMachineTemplate","name":"t"})"));
  ListObjects();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok()) << groups.status().message();
  groups_ = *groups;
  for (const std::string name : {"v1beta1-ref", "v1beta2-ref"}) {
    const NodeGroup& group = Group("MachineDeployment/default/" + name);
    ASSERT_TRUE(group.declared_template.has_value()) << name;
    Resources want;
    want.cpu_millis = 4000;
    want.memory_bytes = 16 * kGi;
    want.pods = 110;
    want.SetExtended("nvidia.com/gpu", 1);
    EXPECT_EQ(group.declared_template->allocatable, want) << name;
    EXPECT_EQ(group.declared_template->labels,
              (Labels{{"kubernetes.io/arch", "arm64"},
                      {"kubernetes.io/os", "linux"},
                      {"node-role.kubernetes.io/worker", ""}}))
        << name;
  }
}

// A template that cannot be read (not there yet, or no cpu and memory in
// its status yet) is read again a minute later, not every loop; one that
// gave cpu and memory is not read again while its reference stays.
TEST_F(ClusterApiProviderTest, AnUnreadTemplateIsReadAgainEachMinute) {
  VirtualClock clock;
  ClusterApiProvider provider(api_.get(), api_.get(), &clock, &objects_);
  Create("machinedeployments",
         FromZeroGroupJson("later",
                           R"({"apiGroup":"infrastructure.cluster.x-k8s.io",)"
                           R"("kind":"DockerMachineTemplate","name":"t"})"));
  ListObjects();
  auto names = [&provider] {
    Result<std::vector<NodeGroup>> groups = provider.NodeGroups({});
    EXPECT_TRUE(groups.ok()) << groups.status().message();
    std::set<std::string> out;
    if (!groups.ok()) return out;
    for (const NodeGroup& group : *groups) out.insert(group.name);
    return out;
  };
  auto template_gets = [this] {
    return server_.Requests().Count("GET " + std::string(kInfra) + "/t");
  };
  EXPECT_FALSE(names().contains("MachineDeployment/default/later"));
  EXPECT_EQ(template_gets(), 1);
  ASSERT_TRUE(server_.CreateObject(kInfra, InfraTemplateJson("t")).ok());
  clock.Advance(std::chrono::seconds(59));
  EXPECT_FALSE(names().contains("MachineDeployment/default/later"));
  EXPECT_EQ(template_gets(), 1);
  clock.Advance(std::chrono::seconds(1));
  EXPECT_TRUE(names().contains("MachineDeployment/default/later"));
  EXPECT_EQ(template_gets(), 2);
  clock.Advance(std::chrono::minutes(10));
  EXPECT_TRUE(names().contains("MachineDeployment/default/later"));
  EXPECT_EQ(template_gets(), 2);
}

// A MachineSet of the deployment's, at `revision`, with spec and status
// replicas.
std::string RevisionSetJson(const std::string& name, int revision, int replicas,
                            int status_replicas) {
  return R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"MachineSet",)"
         R"("metadata":{"name":")" +
         name +
         R"(","annotations":{"machinedeployment.clusters.x-k8s.io/revision":")" +
         std::to_string(revision) +
         R"("},"ownerReferences":[{"apiVersion":"cluster.x-k8s.io/v1beta1",)"
         R"("kind":"MachineDeployment","name":"workers","uid":"u"}]},)"
         R"("spec":{"replicas":)" +
         std::to_string(replicas) + R"(},"status":{"replicas":)" +
         std::to_string(status_replicas) + "}}";
}

// Cluster Autoscaler's IsMachineDeploymentAndRollingOut: a MachineSet other
// than the newest revision's still has replicas, in its spec or its status.
TEST_F(ClusterApiProviderTest, ADeploymentWithAnOldSetStillUpIsRollingOut) {
  auto rolling_out = [this] {
    ListObjects();
    Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
    EXPECT_TRUE(groups.ok()) << groups.status().message();
    groups_ = groups.ok() ? *groups : std::vector<NodeGroup>{};
    return Group(kWorkers).rolling_out;
  };
  // The fixture's workers-abc has no revision and 2 replicas: it is the
  // newest while alone.
  EXPECT_FALSE(rolling_out());
  Create("machinesets", RevisionSetJson("workers-new", 2, 1, 0));
  EXPECT_TRUE(rolling_out());
  ASSERT_TRUE(sim::SetReplicas(server_.store(), "machineset", "default",
                               "workers-abc", 0)
                  .ok());
  EXPECT_FALSE(rolling_out());
  Create("machinesets", RevisionSetJson("workers-old", 1, 0, 1));
  EXPECT_TRUE(rolling_out());
}

TEST_F(ClusterApiProviderTest, MaxBelowMinFailsNamingTheObject) {
  Create("machinedeployments",
         AnnotatedGroupJson("MachineDeployment", "bad",
                            {{kMinSizeKey, "3"}, {kMaxSizeKey, "2"}}));
  ListObjects();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_FALSE(groups.ok());
  EXPECT_NE(groups.status().message().find(
                "MachineDeployment/default/bad: annotation " +
                std::string(kMaxSizeKey) + "=\"2\" is below"),
            std::string::npos)
      << groups.status().message();
}

// Machines map to groups through their owners, as Cluster Autoscaler maps
// them (no deployment-name or set-name label needed): a MachineSet's
// MachineDeployment when it has one, else the MachineSet.
TEST_F(ClusterApiProviderTest, MachinesMapThroughTheirOwners) {
  Create("machinesets",
         GroupJson("MachineSet", "workers-def", 1, "MachineDeployment"));
  Create("machines", OwnedMachineJson("o-1", "workers-def"));
  Create("machines", OwnedMachineJson("o-2", "batch"));
  Create("machines", OwnedMachineJson("o-3", "gone"));
  ListObjects();
  ASSERT_TRUE(provider_->NodeGroups({}).ok());
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("n-o1", "o-1")), kWorkers);
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("n-o2", "o-2")),
            "MachineSet/default/batch");
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("n-o3", "o-3")), "");
}

// As Cluster Autoscaler: a Machine that already has a deletionTimestamp is
// neither marked nor counted again when its node is removed.
TEST_F(ClusterApiProviderTest, AMachineBeingDeletedIsNotCountedAgain) {
  std::string deleting =
      MachineJson("d-1", {{"cluster.x-k8s.io/deployment-name", "workers"}});
  deleting.replace(deleting.find(R"("metadata":{)"), 12,
                   R"("metadata":{"deletionTimestamp":"2026-11-29T03:00:00Z",)"
                   R"("finalizers":["machine.cluster.x-k8s.io"],)");
  Create("machines", deleting);
  ListObjects();
  ASSERT_TRUE(provider_->NodeGroups({}).ok());
  const NodeState gone = CapiNode("n-d", "d-1");
  ASSERT_EQ(provider_->NodeGroupOf(gone), kWorkers);
  ASSERT_TRUE(provider_->DeleteNodes(Group(kWorkers), {&gone}).ok());
  EXPECT_EQ(Writes(), 0);
  EXPECT_EQ(Replicas("machinedeployments/workers"), 2);

  const NodeState other = CapiNode("n-2", "m-2");
  ASSERT_TRUE(provider_->DeleteNodes(Group(kWorkers), {&gone, &other}).ok());
  EXPECT_FALSE(Marked("d-1"));
  EXPECT_TRUE(Marked("m-2"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 1);
}

TEST_F(ClusterApiProviderTest, NodesMapThroughMachineAnnotationAndLabels) {
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("n-1", "m-1")), kWorkers);
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("b", "b-1")),
            "MachineSet/default/batch");
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("x", "x-1")), "");
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("n-1", "m-1", "other")), "");
  EXPECT_EQ(provider_->NodeGroupOf(CapiNode("bare", "")), "");
}

TEST_F(ClusterApiProviderTest, NodesWithoutAnnotationsMapThroughProviderId) {
  // The Node's providerID may spell the part before the instance differently.
  EXPECT_EQ(
      provider_->NodeGroupOf(ProviderIdNode("n-1", "aws:///us-east-1a/i-m-1")),
      kWorkers);
  EXPECT_EQ(
      provider_->NodeGroupOf(ProviderIdNode("n-2", "aws://us-east-1a/i-m-2")),
      kWorkers);
  EXPECT_EQ(
      provider_->NodeGroupOf(ProviderIdNode("n-9", "aws:///us-east-1a/i-m-9")),
      "");
  EXPECT_EQ(provider_->NodeGroupOf(ProviderIdNode("n-0", "")), "");
}

TEST_F(ClusterApiProviderTest, DeleteFindsTheMachineByProviderId) {
  const NodeState node = ProviderIdNode("n-2", "aws:///us-east-1a/i-m-2");
  ASSERT_TRUE(provider_->DeleteNodes(Group(kWorkers), {&node}).ok());
  EXPECT_TRUE(Marked("m-2"));
  EXPECT_FALSE(Marked("m-1"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 1);

  const NodeState unknown = ProviderIdNode("n-9", "aws:///us-east-1a/i-m-9");
  Status status = provider_->DeleteNodes(Group(kWorkers), {&unknown});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("node n-9"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("aws:///us-east-1a/i-m-9"), std::string::npos)
      << status.message();
}

TEST_F(ClusterApiProviderTest, MachineSetGrowsThroughItsScale) {
  ASSERT_TRUE(
      provider_->IncreaseSize(Group("MachineSet/default/batch"), 2).ok());
  EXPECT_EQ(Replicas("machinesets/batch"), 3);
  EXPECT_EQ(server_.Requests().by_request.count(std::string("PUT ") + kCapi +
                                                "machinesets/batch/scale"),
            1u);
}

// Someone else scaled the MachineDeployment after propscaler read it: the
// change is added to theirs, not written over it.
// Another writer changed the size after propscaler's view: a scale-up
// planned from the old size is not written (the next iteration plans from
// the new one); a scale-down, whose machines are marked, lowers the new
// size by exactly them.
TEST_F(ClusterApiProviderTest, ReplicasChangedMeanwhileStopAScaleUp) {
  SetReplicasBehindPropscaler(4);
  ASSERT_EQ(Group(kWorkers).target_size, 2);  // what propscaler last read
  Status increased = provider_->IncreaseSize(Group(kWorkers), 1);
  EXPECT_EQ(increased.code(), StatusCode::kConflict) << increased.message();
  EXPECT_NE(increased.message().find("went from 2 to 4"), std::string::npos)
      << increased.message();
  EXPECT_EQ(Replicas("machinedeployments/workers"), 4);
  ListObjects();
  ASSERT_TRUE(provider_->IncreaseSize(Group(kWorkers), 1).ok());
  EXPECT_EQ(Replicas("machinedeployments/workers"), 5);
  const NodeState node = CapiNode("n-2", "m-2");
  ASSERT_TRUE(provider_->DeleteNodes(Group(kWorkers), {&node}).ok());
  EXPECT_EQ(Replicas("machinedeployments/workers"), 4);
}

TEST_F(ClusterApiProviderTest, ScaleConflictIsReadAgainAndRetried) {
  sim::FaultRule conflict = Fault500("machinedeployments/workers/scale", "PUT");
  conflict.code = 409;
  conflict.count = 2;
  server_.AddFault(conflict);
  ASSERT_TRUE(provider_->IncreaseSize(Group(kWorkers), 1).ok());
  EXPECT_EQ(Replicas("machinedeployments/workers"), 3);
  EXPECT_EQ(
      server_.Requests().by_request.at(std::string("PUT ") + kCapi +
                                       "machinedeployments/workers/scale"),
      3);
}

TEST_F(ClusterApiProviderTest, DeleteMarksTheMachineThenLowersReplicasOnce) {
  const NodeState node = CapiNode("n-2", "m-2");
  ASSERT_TRUE(provider_->DeleteNodes(Group(kWorkers), {&node}).ok());
  EXPECT_TRUE(Marked("m-2"));
  EXPECT_FALSE(Marked("m-1"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 1);
  const auto requests = server_.Requests().by_request;
  EXPECT_EQ(requests.at(std::string("PATCH ") + kCapi + "machines/m-2"), 1);
  EXPECT_EQ(requests.at(std::string("PUT ") + kCapi +
                        "machinedeployments/workers/scale"),
            1);
  EXPECT_EQ(Writes(), 2);
}

// Giving up capacity that never registered: replicas 4 with machines m-1
// (node n-1) and m-2 (no node). A decrease of 3 takes the 2 replicas no
// Machine was made for and m-2, marked first; one of 4 would have to take
// m-1 and its node, so it is refused and nothing is written.
TEST_F(ClusterApiProviderTest,
       DecreaseTakesUnmadeReplicasThenNodelessMachines) {
  SetReplicasBehindPropscaler(4);
  NodeGroup workers = Group(kWorkers);
  workers.target_size = 4;
  const NodeState node = CapiNode("n-1", "m-1");
  Status refused = provider_->DecreaseTargetSize(workers, 4, {&node});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("would delete a machine with a node"),
            std::string::npos)
      << refused.message();
  EXPECT_EQ(Writes(), 0) << server_.Requests().ToJson();

  ASSERT_TRUE(provider_->DecreaseTargetSize(workers, 3, {&node}).ok());
  EXPECT_TRUE(Marked("m-2"));
  EXPECT_FALSE(Marked("m-1"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 1);
}

TEST_F(ClusterApiProviderTest, NodeWithoutKnownMachineChangesNothing) {
  const NodeState good = CapiNode("n-1", "m-1");
  for (const NodeState& bad : {CapiNode("bare", ""), CapiNode("ghost", "m-9"),
                               CapiNode("elsewhere", "b-1")}) {
    Status status = provider_->DeleteNodes(Group(kWorkers), {&good, &bad});
    EXPECT_FALSE(status.ok());
    EXPECT_NE(status.message().find("node " + bad.name), std::string::npos)
        << status.message();
  }
  EXPECT_EQ(Writes(), 0) << server_.Requests().ToJson();
  EXPECT_FALSE(Marked("m-1"));
  EXPECT_EQ(Replicas("machinedeployments/workers"), 2);
}

TEST_F(ClusterApiProviderTest, FailedMarkUnmarksAndKeepsReplicas) {
  server_.AddFault(Fault500("machines/m-2"));
  const NodeState first = CapiNode("n-1", "m-1");
  const NodeState second = CapiNode("n-2", "m-2");
  Status status = provider_->DeleteNodes(Group(kWorkers), {&first, &second});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("n-2"), std::string::npos)
      << status.message();
  EXPECT_FALSE(Marked("m-1")) << Machine("m-1");
  EXPECT_EQ(Replicas("machinedeployments/workers"), 2);
  EXPECT_EQ(
      server_.Requests().by_request.count(std::string("PUT ") + kCapi +
                                          "machinedeployments/workers/scale"),
      0u);
}

TEST_F(ClusterApiProviderTest, FailedScaleUnmarksTheMachines) {
  server_.AddFault(Fault500("machinedeployments/workers/scale", "PUT"));
  const NodeState node = CapiNode("n-2", "m-2");
  EXPECT_FALSE(provider_->DeleteNodes(Group(kWorkers), {&node}).ok());
  EXPECT_FALSE(Marked("m-2")) << Machine("m-2");
  EXPECT_EQ(Replicas("machinedeployments/workers"), 2);
}

// The groups come from the watched objects: working them out sends no
// request, and a change the watch brings is in the next call.
TEST_F(ClusterApiProviderTest, GroupsAreReadFromTheWatchedObjects) {
  SetReplicasBehindPropscaler(4);
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->front().target_size, 2) << "not watched yet";
  EXPECT_TRUE(server_.Requests().by_request.empty())
      << server_.Requests().ToJson();
  ListObjects();
  groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->front().target_size, 4);
}

// A scale-up writes the watched copy's replicas under its resourceVersion,
// with no GET of the scale, and the group shows the new size at once, before
// the watch brings it; an older event arriving late does not undo it.
TEST_F(ClusterApiProviderTest, ScaleUpFromTheWatchedCopyIsSeenAtOnce) {
  const std::vector<kube::ClusterApiObject> before =
      objects_.Objects(ClusterApiObjects::kMachineDeployments);
  ASSERT_TRUE(provider_->IncreaseSize(Group(kWorkers), 2).ok());
  EXPECT_EQ(Replicas("machinedeployments/workers"), 4);
  EXPECT_EQ(
      server_.Requests().by_request.count(std::string("GET ") + kCapi +
                                          "machinedeployments/workers/scale"),
      0u)
      << server_.Requests().ToJson();
  Result<std::vector<NodeGroup>> groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->front().target_size, 4);
  objects_.Sink(ClusterApiObjects::kMachineDeployments).upsert(before.front());
  groups = provider_->NodeGroups({});
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups->front().target_size, 4) << "an older event came late";
}

}  // namespace
}  // namespace propscaler::nodescale

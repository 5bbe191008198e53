// DecodeInstanceTypes (the kwok provider's catalogue file) and the kwok
// provider's generated default catalogue.
#include "nodescale/domain/instance_types_json.h"

#include <gtest/gtest.h>

#include "nodescale/domain/kwok_catalogue.h"

namespace propscaler::nodescale {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;

// The first entry of the kwok provider's instance_types.json, with one of
// its eight offerings, and one of the other offering form.
constexpr const char* kEntry = R"([{
  "name": "c-1x-amd64-linux",
  "offerings": [
    {"Price": 0.019003238553599998, "Available": false, "Requirements": [
      {"key": "karpenter.sh/capacity-type", "operator": "In",
       "values": ["spot"]},
      {"key": "topology.kubernetes.io/zone", "operator": "In",
       "values": ["test-zone-a"]}]},
    {"CapacityType": "on-demand", "Zone": "test-zone-b", "Price": 0.027,
     "Available": true}],
  "architecture": "amd64",
  "operatingSystems": ["linux"],
  "resources": {"cpu": "1", "ephemeral-storage": "20Gi", "memory": "2Gi",
                "pods": "16"}}])";

TEST(InstanceTypesJsonTest, ReadsTheKwokFormatAsTheProviderLoadsIt) {
  Result<std::vector<InstanceType>> types = DecodeInstanceTypes(kEntry);
  ASSERT_TRUE(types.ok()) << types.status().message();
  ASSERT_EQ(types->size(), 1u);
  const InstanceType& t = (*types)[0];
  EXPECT_EQ(t.name, "c-1x-amd64-linux");
  EXPECT_EQ(t.labels,
            (Labels{{"karpenter.kwok.sh/instance-cpu", "1"},
                    {"karpenter.kwok.sh/instance-family", "c"},
                    {"karpenter.kwok.sh/instance-memory", "2Gi"},
                    {"karpenter.kwok.sh/instance-size", "1"},
                    {"kubernetes.io/arch", "amd64"},
                    {"kubernetes.io/os", "linux"},
                    {"node.kubernetes.io/instance-type", "c-1x-amd64-linux"}}));
  // 100m cpu and 10Mi kube-reserved.
  EXPECT_EQ(t.Allocatable().cpu_millis, 900);
  EXPECT_EQ(t.Allocatable().memory_bytes, 2 * kGi - 10 * kMi);
  EXPECT_EQ(t.Allocatable().pods, 16);
  EXPECT_EQ(t.Allocatable().ephemeral_storage_bytes, 20 * kGi);
  ASSERT_EQ(t.offerings.size(), 2u);
  EXPECT_TRUE(t.offerings[0].available);  // forced, as the provider does
  EXPECT_EQ(t.offerings[0].labels,
            (Labels{{"karpenter.sh/capacity-type", "spot"},
                    {"topology.kubernetes.io/zone", "test-zone-a"}}));
  EXPECT_DOUBLE_EQ(t.offerings[0].price, 0.019003238553599998);
  EXPECT_EQ(t.offerings[1].labels,
            (Labels{{"karpenter.sh/capacity-type", "on-demand"},
                    {"topology.kubernetes.io/zone", "test-zone-b"}}));
}

TEST(InstanceTypesJsonTest, PodsDefaultTo110AndSystemsBecomeChoices) {
  Result<std::vector<InstanceType>> types = DecodeInstanceTypes(R"([{
    "name": "big", "architecture": "arm64",
    "operatingSystems": ["linux", "windows"],
    "resources": {"cpu": "8", "memory": "32Gi"},
    "offerings": [{"Price": 1, "Available": true, "Requirements": [
      {"key": "topology.kubernetes.io/zone", "operator": "In",
       "values": ["z"]}]}]}])");
  ASSERT_TRUE(types.ok()) << types.status().message();
  EXPECT_EQ((*types)[0].capacity.pods, 110);
  EXPECT_FALSE((*types)[0].labels.contains("kubernetes.io/os"));
  ASSERT_EQ((*types)[0].choices.size(), 1u);
  EXPECT_EQ((*types)[0].choices[0].second,
            (std::vector<std::string>{"linux", "windows"}));
}

TEST(InstanceTypesJsonTest, ErrorsNameTheEntryAndField) {
  const std::pair<const char*, const char*> cases[] = {
      {"{}", "want a JSON array"},
      {"[]", "no instance type"},
      {R"([{"resources": {"cpu": "1", "memory": "1Gi"}}])",
       "[0].name: missing"},
      {R"([{"name": "x", "resources": {"cpu": "1"}, "offerings": []}])",
       "[0] (x).resources: cpu and memory"},
      {R"([{"name": "x", "resources": {"cpu": "1", "memory": "1Gi"}}])",
       "[0] (x).offerings: none"},
      {R"([{"name": "x", "resources": {"cpu": "1", "memory": "1Gi"},
            "offerings": [{"Price": 1, "Requirements": [{"key": "z",
            "operator": "NotIn", "values": ["a"]}]}]}])",
       "[0] (x).offerings[0].Requirements[0]: z NotIn with 1 values"},
      {R"([{"name": "x", "resources": {"cpu": "1", "memory": "1Gi"},
            "offerings": [{"Zone": "a"}]}])",
       "[0] (x).offerings[0].Price: missing"},
      {R"([{"name": "x", "resources": {"cpu": "one", "memory": "1Gi"},
            "offerings": [{"Zone": "a", "Price": 1}]}])",
       "[0] (x).resources.cpu"},
  };
  for (const auto& [text, want] : cases) {
    Result<std::vector<InstanceType>> types = DecodeInstanceTypes(text);
    ASSERT_FALSE(types.ok()) << text;
    EXPECT_NE(types.status().message().find(want), std::string::npos)
        << types.status().message() << "\nwanted: " << want;
  }
}

// The counts and values of the provider's instance_types.json.
TEST(KwokCatalogueTest, IsTheProvidersGeneratedCatalogue) {
  const std::vector<InstanceType> types = KwokDefaultInstanceTypes();
  ASSERT_EQ(types.size(), 144u);
  size_t offerings = 0;
  for (const InstanceType& t : types) offerings += t.offerings.size();
  EXPECT_EQ(offerings, 1152u);
  EXPECT_EQ(types[0].name, "c-1x-amd64-linux");
  EXPECT_EQ(types[1].name, "c-1x-arm64-linux");
  EXPECT_EQ(types[2].name, "c-1x-amd64-windows");
  EXPECT_EQ(types[4].name, "s-1x-amd64-linux");
  EXPECT_EQ(types[0].capacity.pods, 16);
  EXPECT_DOUBLE_EQ(types[0].offerings[0].price, 0.019003238553599998);
  EXPECT_DOUBLE_EQ(types[0].offerings[1].price, 0.027147483648);
  EXPECT_EQ(types[0].offerings[7].labels.at("topology.kubernetes.io/zone"),
            "test-zone-d");
  const InstanceType& last = types.back();
  EXPECT_EQ(last.name, "m-256x-arm64-windows");
  EXPECT_EQ(last.capacity.pods, 1024);
  EXPECT_EQ(last.labels.at("karpenter.kwok.sh/instance-memory"), "2Ti");
  EXPECT_DOUBLE_EQ(last.offerings[1].price, 8.599023255552);
}

}  // namespace
}  // namespace propscaler::nodescale

#include <gtest/gtest.h>

#include "kube/model/pod_template.h"
#include "kube/wire/pod_template_json.h"

namespace propscaler::kube {
namespace {

// cluster-proportional-vertical-autoscaler's TestIsTargetFormatValid
// (cmd/cpvpa/options/options_test.go) as facts, plus statefulset, which
// propscaler adds.
TEST(WorkloadRefTest, CpvaTargetFormats) {
  struct Row {
    const char* target;
    bool valid;
  };
  for (const Row& row : {
           Row{"deployment/anything", true},
           Row{"replicaset/anything", true},
           Row{"DeplOymEnT/anything", true},
           Row{"daemonset/anything", true},
           Row{"DaeMonSet/anything", true},
           Row{"replicationcontroller/anything", false},
           Row{"deployments/anything", false},
           Row{"noexist/anything", false},
           Row{"deployment", false},
           Row{"daemonset", false},
           Row{"statefulset/anything", true},
       }) {
    EXPECT_EQ(ParseWorkloadRef(row.target).ok(), row.valid) << row.target;
  }
}

TEST(WorkloadRefTest, PathsAndErrors) {
  Result<WorkloadRef> ref = ParseWorkloadRef("DaemonSet/calico-typha");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->ToString(), "daemonset/calico-typha");
  EXPECT_EQ(ref->ApiKind(), "DaemonSet");
  EXPECT_EQ(ref->Path("kube-system"),
            "/apis/apps/v1/namespaces/kube-system/daemonsets/calico-typha");
  // As CPVA, which lower-cases the whole flag, name included.
  Result<WorkloadRef> upper = ParseWorkloadRef("DEPLOYMENT/App-Main");
  ASSERT_TRUE(upper.ok()) << upper.status().message();
  EXPECT_EQ(upper->ToString(), "deployment/app-main");
  EXPECT_EQ(ParseWorkloadRef("deployment/a/b").status().message(),
            "--target \"deployment/a/b\" is not of the form KIND/NAME");
  EXPECT_NE(ParseWorkloadRef("deployment/bad_name")
                .status()
                .message()
                .find("not a valid name"),
            std::string::npos);
}

TEST(PodTemplateTest, PatchSetsOnlyTheNamedResourcesUnderTheVersionRead) {
  EXPECT_EQ(
      EncodeContainerResourcesPatch("42",
                                    {{"dns", {{"cpu", "110m"}}, {}},
                                     {"sidecar", {}, {{"memory", "64M"}}}}),
      R"({"metadata":{"resourceVersion":"42"},"spec":{"template":{"spec":)"
      R"({"containers":[{"name":"dns","resources":{"requests":{"cpu":"110m"}}},)"
      R"({"name":"sidecar","resources":{"limits":{"memory":"64M"}}}]}}}})");
  EXPECT_EQ(EncodeContainerResourcesPatch("", {{"dns", {{"cpu", "1"}}, {}}})
                .rfind(R"({"spec":)", 0),
            0u);
}

TEST(PodTemplateTest, DecodesEachContainersResources) {
  Result<PodTemplateWorkload> workload = DecodePodTemplateWorkload(
      R"({"metadata":{"name":"d","uid":"u","resourceVersion":"7"},
          "spec":{"template":{"spec":{"containers":[
            {"name":"a","resources":{"requests":{"cpu":"1"},
                                     "limits":{"memory":"1Gi"}}},
            {"name":"b"}]}}}})");
  ASSERT_TRUE(workload.ok()) << workload.status().message();
  EXPECT_EQ(workload->resource_version, "7");
  ASSERT_EQ(workload->containers.size(), 2u);
  EXPECT_EQ(workload->containers[0],
            (ContainerResources{"a", {{"cpu", "1"}}, {{"memory", "1Gi"}}}));
  EXPECT_EQ(workload->containers[1], (ContainerResources{"b", {}, {}}));
  EXPECT_FALSE(DecodePodTemplateWorkload(R"({"metadata":{"name":"d"}})").ok());
}

}  // namespace
}  // namespace propscaler::kube

// A CapacityBuffer's two conditions from what one iteration made of it,
// pure.
#include "nodescale/plan/buffers/buffer_conditions.h"

#include <gtest/gtest.h>

namespace propscaler::nodescale {
namespace {

TEST(BufferConditionsTest, UnresolvedIsNotReadyAndNotProvisioning) {
  BufferResolution r;
  r.not_ready_reason = "PodTemplateNotFound";
  r.message = "podtemplate shop/chunk not found";
  const kube::BufferCondition ready = ReadyCondition(r);
  EXPECT_EQ(ready.status, "False");
  EXPECT_EQ(ready.reason, "PodTemplateNotFound");
  const kube::BufferCondition provisioning = ProvisioningCondition(r);
  EXPECT_EQ(provisioning.status, "False");
  EXPECT_EQ(provisioning.reason, "NotReadyForProvisioning");
  EXPECT_NE(provisioning.message.find("podtemplate shop/chunk"),
            std::string::npos);
}

TEST(BufferConditionsTest, HeldChunksAreCappedAndSaySo) {
  BufferResolution r;
  HoldChunks(500, {120, "the node groups at their max size"}, &r);
  ASSERT_TRUE(r.replicas.has_value());
  EXPECT_EQ(*r.replicas, 120);
  EXPECT_EQ(ReadyCondition(r).status, "True");
  const kube::BufferCondition provisioning = ProvisioningCondition(r);
  EXPECT_EQ(provisioning.reason, "ChunksCapped");
  EXPECT_EQ(provisioning.message,
            "asks for 500 chunks, more than the node groups at their max "
            "size: 120 virtual pods injected");
}

TEST(BufferConditionsTest, WithinTheBoundNothingIsCapped) {
  BufferResolution r;
  HoldChunks(3, {120, "x"}, &r);
  EXPECT_EQ(*r.replicas, 3);
  EXPECT_EQ(r.asked, 0);
  EXPECT_EQ(ProvisioningCondition(r).reason, "FakePodsInjected");
  HoldChunks(0, {120, "x"}, &r);
  EXPECT_EQ(ProvisioningCondition(r).reason, "BufferIsEmpty");
}

TEST(BufferConditionsTest, VirtualPodsNoGroupFitsSayWhy) {
  BufferResolution r;
  HoldChunks(2, {120, "x"}, &r);
  r.unfit = 2;
  r.unfit_reasons = " big: Insufficient cpu;";
  const kube::BufferCondition provisioning = ProvisioningCondition(r);
  EXPECT_EQ(provisioning.reason, "NoNodeGroupFits");
  EXPECT_EQ(provisioning.message,
            "2/2 virtual pods fit no node group: big: Insufficient cpu;");
}

}  // namespace
}  // namespace propscaler::nodescale

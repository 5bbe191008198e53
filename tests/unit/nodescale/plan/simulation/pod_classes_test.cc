// Pods alike are one class, whether or not a controller owns them; pods
// that differ in anything a node sees are not.
#include "nodescale/plan/simulation/pod_classes.h"

#include <gtest/gtest.h>

#include "unit/nodescale_test_util.h"

namespace propscaler::nodescale {
namespace {

using namespace testing_util;  // NOLINT

TEST(PodClassesTest, AlikePodsAreOneClassWithOrWithoutAnOwner) {
  std::vector<PodState> pods = {
      Pod("a", 500, kGi, ""),   Pod("b", 500, kGi, ""),
      Pod("c", 500, kGi, "rs"), Pod("d", 500, kGi, "rs"),
      Pod("e", 600, kGi, ""),   Pod("f", 500, kGi, "")};
  pods[5].node_selector = Labels{{"disk", "ssd"}};
  std::vector<const PodState*> pointers;
  for (const PodState& pod : pods) pointers.push_back(&pod);
  const PodClasses classes = ClassifyPods(pointers);
  // a and b (no owner) share one; c and d (one ReplicaSet) another; e's
  // requests and f's node selector set them apart.
  ASSERT_EQ(classes.classes.size(), 4u);
  EXPECT_EQ(classes.class_of, (std::vector<size_t>{0, 0, 1, 1, 2, 3}));
  EXPECT_EQ(classes.classes[0].members, (std::vector<size_t>{0, 1}));
}

}  // namespace
}  // namespace propscaler::nodescale

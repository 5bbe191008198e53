#include "cluster/pod_interner.h"

#include <gtest/gtest.h>

#include <string>

namespace propscaler {
namespace {

kube::PodState Replica(const std::string& name, const std::string& app) {
  kube::PodState pod;
  pod.name = name;
  pod.labels = {{"app", app}, {"tier", "web"}};
  pod.tolerations = {{"node.kubernetes.io/not-ready",
                      kube::Toleration::Op::kExists, "", false,
                      kube::TaintEffect::kNoExecute}};
  pod.owner_kind = "ReplicaSet";
  pod.owner_name = app + "-7d9f8b6c5d";
  return pod;
}

TEST(PodInternerTest, EqualValuesAreOneSharedCopy) {
  PodInterner interner;
  kube::PodState a = Replica("a", "web");
  kube::PodState b = Replica("b", "web");
  kube::PodState c = Replica("c", "db");
  ASSERT_NE(a.labels.identity(), b.labels.identity());
  interner.Intern(&a);
  interner.Intern(&b);
  interner.Intern(&c);
  EXPECT_EQ(a.labels.identity(), b.labels.identity());
  EXPECT_EQ(a.tolerations.identity(), c.tolerations.identity());
  EXPECT_NE(a.labels.identity(), c.labels.identity());
  EXPECT_EQ(c.labels.get(), (Labels{{"app", "db"}, {"tier", "web"}}));
  EXPECT_EQ(a.owner_name.identity(), b.owner_name.identity());
  EXPECT_EQ(a.owner_kind.identity(), c.owner_kind.identity());
  EXPECT_EQ(c.owner_name.get(), "db-7d9f8b6c5d");
  // Two label sets, one toleration list, one kind, two owner names.
  EXPECT_EQ(interner.size(), 6u);
}

TEST(PodInternerTest, EmptyValuesTakeNothingAndForgottenValuesAreDropped) {
  PodInterner interner;
  {
    kube::PodState empty;
    interner.Intern(&empty);
    EXPECT_EQ(interner.size(), 0u);
  }
  // Pods come and go; values no pod holds go from the pool as it grows, so
  // it stays near the values in use, not all values ever seen.
  kube::PodState kept = Replica("kept", "kept");
  interner.Intern(&kept);
  for (int i = 0; i < 1000; ++i) {
    kube::PodState gone = Replica("gone", "app-" + std::to_string(i));
    interner.Intern(&gone);
  }
  EXPECT_LE(interner.size(), 12u);
  kube::PodState again = Replica("again", "kept");
  interner.Intern(&again);
  EXPECT_EQ(again.labels.identity(), kept.labels.identity());
}

}  // namespace
}  // namespace propscaler

#include "common/shared_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cluster/live_object_store.h"

namespace propscaler {
namespace {

TEST(SharedListTest, ReadsAsTheValuesItWasMadeFrom) {
  SharedList<std::string> list(std::vector<std::string>{"a", "b", "c"});
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(list.begin(), list.end()),
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(list.end() - list.begin(), 3);
  EXPECT_EQ(list.begin()[2], "c");
}

TEST(SharedListTest, SharesWithoutCopyingAndCopiesBeforeAnEdit) {
  auto shared = std::make_shared<const std::string>("store's");
  SharedList<std::string> list;
  list.Share(shared);
  EXPECT_EQ(&list[0], shared.get());
  list.Mutable(0) += " edited";
  EXPECT_EQ(*shared, "store's");
  EXPECT_EQ(list[0], "store's edited");
}

TEST(SharedListTest, ACopyOfTheListDoesNotSeeTheOriginalsEdits) {
  SharedList<std::string> original = {"x"};
  SharedList<std::string> copy = original;
  original.Mutable(0) = "edited";
  EXPECT_EQ(copy[0], "x");
  copy.MutableBack() = "copy's";
  EXPECT_EQ(original[0], "edited");
  // Alone again, an item the list made is edited in place.
  const std::string* before = &copy[0];
  copy.Mutable(0) = "again";
  EXPECT_EQ(&copy[0], before);
}

TEST(SharedListTest, EraseIfKeepsTheOthersInOrderAndTheirOwnership) {
  SharedList<std::string> list = {"a", "bb", "c", "dd"};
  SharedList<std::string> other = list;
  list.EraseIf([](const std::string& s) { return s.size() == 2; });
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0] + list[1], "ac");
  EXPECT_EQ(&list[1], &other[2]);  // shared, not copied
  list.Mutable(1) = "edited";      // copied first: `other` still sees "c"
  EXPECT_EQ(other[2], "c");
}

kube::LivePod Pod(const std::string& name, const std::string& node,
                  const std::string& ns = "default") {
  kube::LivePod pod;
  pod.state.namespace_ = ns;
  pod.state.name = name;
  pod.state.node_name = node;
  return pod;
}

TEST(LiveObjectStoreTest, LoopsShareThePodsAndKeepWhatTheyReadThroughUpdates) {
  LiveObjectStore store;
  kube::ReflectorSink<kube::LivePod> sink = store.PodSink();
  sink.stage({Pod("a", ""), Pod("b", "n1")}, true);
  EXPECT_TRUE(store.Pods().empty());  // staged, not yet committed
  sink.stage({Pod("c", "n2")}, false);
  sink.commit();
  SharedList<kube::LivePod> first = store.Pods();
  SharedList<kube::LivePod> second = store.Pods();
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(&first[0], &second[0]);  // one object, not a copy per reader

  sink.upsert(Pod("a", "n3"));
  sink.remove(Pod("b", ""));
  EXPECT_EQ(first[0].state.node_name, "");  // what the loop read stays
  EXPECT_EQ(first[1].state.name, "b");
  SharedList<kube::LivePod> now = store.Pods();
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[0].state.node_name, "n3");
  EXPECT_EQ(now[1].state.name, "c");

  // A new list that fails half-way leaves the current pods; the next
  // complete one replaces them.
  sink.stage({Pod("z", "")}, true);
  EXPECT_EQ(store.Pods().size(), 2u);
  sink.stage({Pod("y", "")}, true);
  sink.commit();
  SharedList<kube::LivePod> relisted = store.Pods();
  ASSERT_EQ(relisted.size(), 1u);
  EXPECT_EQ(relisted[0].state.name, "y");
}

// The store's keys are views of each pod's own namespace and name: a pod
// replaced many times (a new object each time, the old ones freed) is still
// found, removed and ordered by "namespace/name", as string keys were.
TEST(LiveObjectStoreTest, KeysFollowTheObjectsTheyView) {
  LiveObjectStore store;
  kube::ReflectorSink<kube::LivePod> sink = store.PodSink();
  sink.stage({Pod("x", "", "apps"), Pod("y", "", "apps-1"), Pod("a", "", "b")},
             true);
  sink.commit();
  for (int i = 0; i < 50; ++i) {
    sink.upsert(Pod("x", "n" + std::to_string(i), "apps"));
  }
  sink.upsert(Pod("a", "", "apps-1/"));  // "apps-1//a" < "apps-1/y"
  std::vector<std::string> keys;
  for (const kube::LivePod& pod : store.Pods()) {
    keys.push_back(pod.state.Key() + "@" + pod.state.node_name);
  }
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(keys, sorted);
  EXPECT_EQ(keys, (std::vector<std::string>{"apps-1//a@", "apps-1/y@",
                                            "apps/x@n49", "b/a@"}));
  sink.remove(Pod("x", "", "apps"));
  sink.remove(Pod("y", "", "apps-1"));
  ASSERT_EQ(store.Pods().size(), 2u);
  EXPECT_EQ(store.Pods()[1].state.Key(), "b/a");
}

}  // namespace
}  // namespace propscaler

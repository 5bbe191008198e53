#include "cluster/live_object_store.h"

#include <gtest/gtest.h>

namespace propscaler {
namespace {

// A store whose pods and nodes are listed and which watches every volume
// kind but PersistentVolumeClaims, listed too.
struct ListedStore {
  LiveObjectStore store;
  kube::ReflectorSink<kube::PersistentVolumeClaim> claims;

  ListedStore() {
    auto pods = store.PodSink();
    pods.stage({}, true);
    pods.commit();
    auto nodes = store.NodeSink();
    nodes.stage({}, true);
    nodes.commit();
    claims = store.ClaimSink();
    auto listed = [](auto sink) {
      sink.stage({}, true);
      sink.commit();
    };
    listed(store.VolumeSink());
    listed(store.StorageClassSink());
    listed(store.CsiNodeSink());
    listed(store.CsiDriverSink());
  }
};

TEST(LiveObjectStoreUnreadableTest, AKindRbacRefusesIsNotWaitedFor) {
  ListedStore listed;
  LiveObjectStore& store = listed.store;
  EXPECT_FALSE(store.Synced()) << "the claims are not listed yet";
  EXPECT_TRUE(store.Volumes()->unreadable.empty());
  store.MarkUnreadable(kPersistentVolumeClaims, "forbidden. Grant list");
  EXPECT_TRUE(store.Synced());
  EXPECT_TRUE(store.IsUnreadable(kPersistentVolumeClaims));
  EXPECT_FALSE(store.IsUnreadable(kPersistentVolumes));
  EXPECT_EQ(store.Volumes()->unreadable,
            (std::map<std::string, std::string, std::less<>>{
                {"persistentvolumeclaims", "forbidden. Grant list"}}));
  EXPECT_EQ(store.Unreadable(),
            "persistentvolumeclaims: forbidden. Grant list");
}

TEST(LiveObjectStoreUnreadableTest, OnceGrantedAndListedItIsReadAgain) {
  ListedStore listed;
  LiveObjectStore& store = listed.store;
  store.MarkUnreadable(kPersistentVolumeClaims, "forbidden");
  ASSERT_FALSE(store.Volumes()->unreadable.empty());
  listed.claims.stage({}, true);
  listed.claims.commit();
  EXPECT_TRUE(store.Synced());
  EXPECT_FALSE(store.IsUnreadable(kPersistentVolumeClaims));
  EXPECT_TRUE(store.Volumes()->unreadable.empty());
  EXPECT_EQ(store.Unreadable(), "");
}

// The PodTemplates are none until listed (the requests naming them wait),
// then kept by "namespace/name" as the watch changes them; the store's
// sync does not wait for them.
TEST(LiveObjectStorePodTemplatesTest, NoneUntilListedThenByKey) {
  ListedStore listed;
  LiveObjectStore& store = listed.store;
  kube::ReflectorSink<kube::PodTemplate> templates = store.PodTemplateSink();
  listed.claims.stage({}, true);
  listed.claims.commit();
  EXPECT_TRUE(store.Synced()) << "the templates are not waited for";
  EXPECT_FALSE(store.PodTemplates().has_value());
  kube::PodTemplate worker{"batch", "worker", "1", {}, ""};
  worker.pod.requests.cpu_millis = 500;
  templates.stage({worker}, true);
  templates.commit();
  ASSERT_TRUE(store.PodTemplates().has_value());
  EXPECT_EQ(store.PodTemplates()->at("batch/worker").pod.requests.cpu_millis,
            500);
  worker.pod.requests.cpu_millis = 700;
  templates.upsert(worker);
  EXPECT_EQ(store.PodTemplates()->at("batch/worker").pod.requests.cpu_millis,
            700);
  templates.remove(worker);
  EXPECT_TRUE(store.PodTemplates()->empty());
}

}  // namespace
}  // namespace propscaler

// The connection pool leases each easy handle (and the connections it
// keeps) to one transfer at a time: transfers at once get distinct
// handles, and a transfer after another gets the handle (and connection)
// the last one gave back.
#include "transport/connection_pool.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

namespace propscaler::kube {
namespace {

TEST(ConnectionPoolTest, TransfersAtOnceNeverShareAHandle) {
  ConnectionPool pool;
  std::vector<std::unique_ptr<ConnectionPool::Lease>> leases;
  std::set<CURL*> handles;
  for (int i = 0; i < 20; ++i) {
    leases.push_back(std::make_unique<ConnectionPool::Lease>(pool.Take()));
    ASSERT_NE(leases.back()->get(), nullptr);
    handles.insert(leases.back()->get());
  }
  EXPECT_EQ(handles.size(), 20u);
}

TEST(ConnectionPoolTest, AfterAnotherTheLastHandleGivenBackIsReused) {
  ConnectionPool pool;
  CURL* first = nullptr;
  {
    const ConnectionPool::Lease lease = pool.Take();
    first = lease.get();
  }
  const ConnectionPool::Lease again = pool.Take();
  EXPECT_EQ(again.get(), first);
}

}  // namespace
}  // namespace propscaler::kube

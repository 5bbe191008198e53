// The real-server test run: starts one etcd and kube-apiserver pair
// (envtest/real_cluster.h), runs every test against it, and stops it. The
// binary's folder is PROPSCALER_ENVTEST_DIR from the environment, else the
// ../shared/envtest beside the source tree. Without it the run fails, saying
// where it looked: CI always has it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "envtest/real_cluster.h"
#include "envtest/real_server_fixture.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* dir = std::getenv("PROPSCALER_ENVTEST_DIR");
  propscaler::envtest::RealClusterOptions options{
      .envtest_dir = dir != nullptr ? dir : PROPSCALER_ENVTEST_DIR,
      .unpack_dir = PROPSCALER_ENVTEST_UNPACK_DIR,
      .audit = true};
  const auto start = std::chrono::steady_clock::now();
  auto cluster = propscaler::envtest::RealCluster::Start(options);
  if (!cluster.ok()) {
    std::cerr << "envtest: cannot start the real API server: "
              << cluster.status().message() << "\n";
    return 1;
  }
  std::cout << "envtest: kube-apiserver v1.20.2 and etcd up at "
            << (*cluster)->url() << " in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count()
            << "ms\n";
  propscaler::envtest::SetSharedCluster(cluster->get());
  const int result = RUN_ALL_TESTS();
  propscaler::envtest::SetSharedCluster(nullptr);
  return result;
}

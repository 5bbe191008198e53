// deploy/Dockerfile's runtime stage, checked without a container engine: a
// minimal Debian bookworm root (debootstrap) with exactly the packages that
// stage installs (tests/envtest/make_image_root.sh reads them from the
// Dockerfile), the binary copied in, run in that root as UID 65532 against
// the real server. A library missing from the list fails the run.
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

class ImageRootRealServerTest : public RealServerTest {
 protected:
  std::string root_ =
      std::string(PROPSCALER_ENVTEST_UNPACK_DIR) + "/image-root";

  // Runs `args` in the root as the image's user; returns the exit code.
  int RunInRoot(const std::vector<std::string>& args, std::string* output) {
    std::vector<std::string> chroot_args = {"--userspec=65532:65532", root_};
    chroot_args.insert(chroot_args.end(), args.begin(), args.end());
    e2e::Process process("/usr/sbin/chroot", chroot_args);
    const std::optional<int> code = process.WaitForExit(seconds(60));
    *output = process.Output();
    return code.value_or(-1);
  }

  // Copies `from` into the root's /etc/propscaler, readable by anyone.
  std::string CopyIn(const std::string& from, const std::string& name) {
    const fs::path dir = fs::path(root_) / "etc/propscaler";
    fs::create_directories(dir);
    fs::copy_file(from, dir / name, fs::copy_options::overwrite_existing);
    fs::permissions(dir / name, fs::perms::owner_read | fs::perms::group_read |
                                    fs::perms::others_read);
    return "/etc/propscaler/" + name;
  }
};

TEST_F(ImageRootRealServerTest, RuntimePackagesRunPropscalerAsUser65532) {
  ASSERT_EQ(geteuid(), 0u) << "chroot needs root (CI runs as root)";
  const std::string make =
      std::string(PROPSCALER_SOURCE_DIR) + "/tests/envtest/make_image_root.sh";
  e2e::Process maker("/bin/bash", {make, root_});
  const std::optional<int> made = maker.WaitForExit(seconds(900));
  ASSERT_EQ(made.value_or(-1), 0) << maker.Report();

  fs::create_directories(fs::path(root_) / "usr/local/bin");
  fs::copy_file(e2e::PropscalerBinary(),
                fs::path(root_) / "usr/local/bin/propscaler",
                fs::copy_options::overwrite_existing);
  std::string output;
  ASSERT_EQ(RunInRoot({"/usr/local/bin/propscaler", "--version"}, &output), 0)
      << output;
  EXPECT_NE(output.find(PROPSCALER_VERSION), std::string::npos) << output;

  GrantRbac("coredns-autoscaler", {"deploy/replicas/rbac.yaml"});
  AddNodes(0, 3);
  ASSERT_TRUE(CreateDeployment(cluster(), ns(), kTarget, 1).ok());
  ASSERT_TRUE(
      PutConfigMap(cluster(), ns(), kConfigMap, "linear", kPerNodeParams).ok());
  const std::string ca = CopyIn(cluster().ca_file(), "ca.crt");
  const std::string token = CopyIn(TokenFile(), "token");
  const std::string kubeconfig =
      CopyIn(Write("kubeconfig",
                   e2e::KubeconfigYaml(cluster().url(), "", ca, "",
                                       "    tokenFile: " + token + "\n")),
             "kubeconfig");
  ASSERT_EQ(RunInRoot({"/usr/local/bin/propscaler", "--once", "--dry-run",
                       "--kubeconfig=" + kubeconfig, "--namespace=" + ns(),
                       std::string("--configmap=") + kConfigMap,
                       std::string("--target=deployment/") + kTarget,
                       "--nodelabels=" + NodeLabel(), "--logtostderr"},
                      &output),
            0)
      << output;
  EXPECT_NE(output.find("dry run: would scale deployment/coredns from 1 to 3"),
            std::string::npos)
      << output;
  Result<int64_t> replicas = DeploymentReplicas(cluster(), ns(), kTarget);
  ASSERT_TRUE(replicas.ok());
  EXPECT_EQ(*replicas, 1);  // a dry run writes nothing
}

}  // namespace
}  // namespace propscaler::envtest

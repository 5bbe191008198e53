// The image as Kubernetes runs it, against the real kube-apiserver:
// deploy/make-image-root.sh stages the root from the binary under test,
// buildah builds deploy/Containerfile from it, and podman (runtime runc)
// runs it the way deploy/'s manifests set it: UID 65532, read-only root
// filesystem, all capabilities dropped, no privilege escalation, the
// service-account token, ca.crt and namespace mounted where pods have them,
// KUBERNETES_SERVICE_HOST/PORT set, the manifests' own args. Replica mode
// scales, vertical mode started as /cpvpa with CPVA's args resizes,
// node-scale mode with kwok adds a node for a pending pod, and /healthz
// answers in each. Before them, every object of every deploy/ base is
// created on the server with a dry run (server-side validation).
#include <httplib.h>
#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/files.h"
#include "envtest/real_server_fixture.h"

namespace propscaler::envtest {
namespace {

namespace fs = std::filesystem;
using e2e::CountOf;
using std::chrono::seconds;

constexpr char kImage[] = "localhost/propscaler:envtest";
constexpr char kPodman[] = "/usr/bin/podman";
constexpr char kServiceAccountDir[] =
    "/var/run/secrets/kubernetes.io/serviceaccount";
// A ceiling against growth, not the 25 MB aimed at: the shared libraries
// alone (Debian's libcurl4-openssl and what it links: gnutls through
// librtmp, krb5, ldap, ssh2, ...) are 24.2 MB of the 27.9 MB measured
// (bench/README.md). CPA's binary alone is 45.8 MB. Raised from 29 MB on
// 2026-11-29, when issue 44's Cluster API work (discovery, MachinePools,
// two clusters, per-group options) and issue 41's reporters took the
// stripped binary from 4.45 to 4.64 MB and the image to 29.09 MB.
constexpr int64_t kImageBytesCeiling = 30'000'000;

fs::path SourceDir() { return PROPSCALER_SOURCE_DIR; }

// Runs a command to its end; its exit code (-1: did not end) and output.
int RunToEnd(const std::string& program, const std::vector<std::string>& args,
             std::string* output, seconds timeout = seconds(120)) {
  e2e::Process process(program, args);
  const std::optional<int> code = process.WaitForExit(timeout);
  *output = process.Output();
  return code.value_or(-1);
}

// The args of deploy/BASE/deployment.yaml's propscaler container.
std::vector<std::string> ManifestArgs(const std::string& base) {
  const YAML::Node deployment =
      YAML::LoadFile((SourceDir() / "deploy" / base / "deployment.yaml"));
  for (const YAML::Node& c :
       deployment["spec"]["template"]["spec"]["containers"]) {
    if (!c["image"].as<std::string>().starts_with("propscaler")) continue;
    return c["args"].as<std::vector<std::string>>();
  }
  ADD_FAILURE() << "no propscaler container in deploy/" << base;
  return {};
}

class ImageRealServerTest : public RealServerTest {
 protected:
  // The image is built once for the suite, from the binary under test.
  static void SetUpTestSuite() {
    const std::string root =
        std::string(PROPSCALER_ENVTEST_UNPACK_DIR) + "/image-root";
    std::string output;
    ASSERT_EQ(RunToEnd("/bin/bash",
                       {(SourceDir() / "deploy/make-image-root.sh").string(),
                        e2e::PropscalerBinary(), root},
                       &output),
              0)
        << output;
    ASSERT_EQ(RunToEnd("/usr/bin/buildah",
                       {"build", "--quiet", "-f",
                        (SourceDir() / "deploy/Containerfile").string(), "-t",
                        kImage, root},
                       &output, seconds(300)),
              0)
        << output;
  }

  void TearDown() override {
    std::string output;
    for (const std::string& name : containers_) {
      RunToEnd(kPodman, {"rm", "--force", "--time=2", name}, &output);
    }
    RealServerTest::TearDown();
  }

  // The service-account volume a pod gets: token, ca.crt and namespace,
  // readable by the image's user.
  std::string ServiceAccountVolume() {
    const fs::path dir = fs::path(TokenFile()).parent_path() / "serviceaccount";
    fs::create_directories(dir);
    Result<std::string> token = ReadFile(TokenFile());
    EXPECT_TRUE(token.ok());
    std::ofstream(dir / "token") << (token.ok() ? *token : "");
    fs::copy_file(cluster().ca_file(), dir / "ca.crt",
                  fs::copy_options::overwrite_existing);
    std::ofstream(dir / "namespace") << ns();
    for (const fs::path& path : {dir.parent_path(), dir}) {
      chmod(path.c_str(), 0755);
    }
    for (const char* file : {"token", "ca.crt", "namespace"}) {
      chmod((dir / file).c_str(), 0644);
    }
    return dir.string();
  }

  // podman run, as the manifests' securityContext and a pod's environment
  // set it; `entrypoint` empty: the image's own.
  std::unique_ptr<e2e::Process> RunImage(const std::string& entrypoint,
                                         const std::vector<std::string>& args,
                                         int healthz_port) {
    const std::string name = "propscaler-" + ns();
    containers_.push_back(name);
    const std::string url = cluster().url();  // https://127.0.0.1:PORT
    const std::string port = url.substr(url.rfind(':') + 1);
    std::vector<std::string> podman = {
        "--runtime",
        "runc",
        "run",
        "--rm",
        "--name",
        name,
        "--network",
        "host",
        "--read-only",
        "--user",
        "65532:65532",
        "--cap-drop",
        "ALL",
        "--security-opt",
        "no-new-privileges",
        "--ulimit",
        "nofile=1024:1024",
        "--ulimit",
        "nproc=1024:1024",
        "-v",
        ServiceAccountVolume() + ":" + kServiceAccountDir + ":ro",
        "-e",
        "KUBERNETES_SERVICE_HOST=127.0.0.1",
        "-e",
        "KUBERNETES_SERVICE_PORT=" + port,
        "-e",
        "MY_POD_NAMESPACE=" + ns()};
    if (!entrypoint.empty()) {
      podman.insert(podman.end(), {"--entrypoint", entrypoint});
    }
    podman.push_back(kImage);
    podman.insert(podman.end(), args.begin(), args.end());
    podman.push_back("--healthz-port=" + std::to_string(healthz_port));
    return std::make_unique<e2e::Process>(kPodman, podman);
  }

  // GET /healthz on the container's port answers 200 (polled: it serves
  // once the process is up).
  ::testing::AssertionResult Healthy(int port) {
    int status = 0;
    if (e2e::WaitUntil(
            [&] {
              httplib::Client client("127.0.0.1", port);
              httplib::Result result = client.Get("/healthz");
              status = result ? result->status : 0;
              return status == 200;
            },
            seconds(20))) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "/healthz answered " << status;
  }

  // The user the container's process runs as, from the host's /proc.
  std::string ContainerUser() {
    std::string output;
    RunToEnd(kPodman, {"top", containers_.back(), "huser"}, &output);
    return output;
  }

  std::vector<std::string> containers_;
};

TEST_F(ImageRealServerTest, IsDistrolessSmallAndRunsAsNonRoot) {
  std::string output;
  ASSERT_EQ(RunToEnd(kPodman,
                     {"image", "inspect", "--format",
                      "{{.Size}} {{.Config.User}} {{json .Config.Entrypoint}}",
                      kImage},
                     &output),
            0)
      << output;
  std::istringstream fields(output);
  int64_t size = 0;
  std::string user, entrypoint;
  fields >> size >> user >> entrypoint;
  RecordProperty("image_bytes", std::to_string(size));
  std::cout << "image " << kImage << ": " << size << " bytes\n";
  EXPECT_EQ(user, "65532:65532");
  EXPECT_EQ(entrypoint, R"(["/usr/local/bin/propscaler"])");
  // No shell and no package manager to run.
  for (const char* program :
       {"/bin/sh", "/bin/bash", "/usr/bin/apt-get", "/usr/bin/dpkg"}) {
    EXPECT_NE(RunToEnd(kPodman,
                       {"--runtime", "runc", "run", "--rm", "--ulimit",
                        "nofile=1024:1024", "--ulimit", "nproc=1024:1024",
                        "--entrypoint", program, kImage},
                       &output),
              0)
        << program << " ran: " << output;
  }
  EXPECT_EQ(RunToEnd(kPodman,
                     {"--runtime", "runc", "run", "--rm", "--ulimit",
                      "nofile=1024:1024", "--ulimit", "nproc=1024:1024", kImage,
                      "--version"},
                     &output),
            0)
      << output;
  EXPECT_NE(output.find(PROPSCALER_VERSION), std::string::npos) << output;
  EXPECT_LT(size, kImageBytesCeiling);
}

TEST_F(ImageRealServerTest, EveryDeployObjectPassesServerSideValidation) {
  int accepted = 0;
  for (const fs::directory_entry& entry :
       fs::recursive_directory_iterator(SourceDir() / "deploy")) {
    if (entry.path().filename() != "kustomization.yaml") continue;
    const YAML::Node kustomization = YAML::LoadFile(entry.path().string());
    for (const YAML::Node& resource : kustomization["resources"]) {
      const fs::path file =
          entry.path().parent_path() / resource.as<std::string>();
      if (fs::is_directory(file)) continue;  // a base, checked on its own
      SCOPED_TRACE(file.string());
      Result<std::string> yaml = ReadFile(file.string());
      ASSERT_TRUE(yaml.ok()) << yaml.status().message();
      Result<int> sent = DryRunManifest(cluster(), *yaml, ns());
      ASSERT_TRUE(sent.ok()) << sent.status().message();
      EXPECT_GT(*sent, 0);
      accepted += *sent;
    }
  }
  std::cout << accepted << " objects of deploy/ accepted\n";
  EXPECT_GE(accepted, 25);
}

TEST_F(ImageRealServerTest, ReplicaModeScalesWithTheManifestsArgs) {
  GrantRbac("coredns-autoscaler", {"deploy/replicas/rbac.yaml"});
  AddNodes(0, 3);
  ASSERT_TRUE(CreateDeployment(cluster(), ns(), kTarget, 1).ok());
  std::vector<std::string> args = ManifestArgs("replicas");
  args.push_back("--nodelabels=" + NodeLabel());  // this test's nodes only
  const int port = e2e::FreePort();
  auto container = RunImage("", args, port);
  // params/coredns.json: 3 nodes make 1 replica, and 2 against a single
  // point of failure.
  ASSERT_TRUE(WaitForReplicas(2, *container));
  EXPECT_TRUE(Healthy(port)) << container->Output();
  EXPECT_NE(ContainerUser().find("65532"), std::string::npos)
      << ContainerUser();
  // It created the ConfigMap from --default-params and holds the Lease.
  EXPECT_TRUE(ConfigMapValue(cluster(), ns(), kConfigMap, "linear").ok());
  Result<std::string> holder = LeaseHolder(cluster(), ns(), kConfigMap);
  EXPECT_TRUE(holder.ok() && !holder->empty()) << container->Output();
  const std::string log = container->Output();
  EXPECT_EQ(CountOf(log, "is forbidden: User"), 0) << log;
  EXPECT_TRUE(container->Running()) << log;
}

TEST_F(ImageRealServerTest, VerticalModeAsCpvpaResizesWithCpvasArgs) {
  GrantRbac("coredns-vertical-autoscaler", {"deploy/vertical/rbac.yaml"});
  AddNodes(0, 2);
  Result<std::string> created = AdminCall(
      cluster(), "POST", "/apis/apps/v1/namespaces/" + ns() + "/deployments",
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"coredns"},)"
      R"("spec":{"selector":{"matchLabels":{"app":"coredns"}},"template":)"
      R"({"metadata":{"labels":{"app":"coredns"}},"spec":{"containers":)"
      R"([{"name":"coredns","image":"registry.k8s.io/coredns/coredns:v1.11.1"}]}}}})");
  ASSERT_TRUE(created.ok()) << created.status().message();
  // CPVA's example container args, its --default-config a step per 1,000
  // nodes so that the value does not depend on other tests' nodes: 150m and
  // one step (CPVA rounds the steps up) from 1 to 1,000 nodes.
  const int port = e2e::FreePort();
  auto container = RunImage(
      "/cpvpa",
      {"--target=deployment/coredns", "--namespace=" + ns(),
       "--logtostderr=true", "--poll-period-seconds=10",
       R"(--default-config={"coredns":{"requests":{"cpu":{"base":"150m","step":"1m","nodesPerStep":1000}}}})"},
      port);
  EXPECT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::string> body = AdminCall(
            cluster(), "GET",
            "/apis/apps/v1/namespaces/" + ns() + "/deployments/coredns");
        return body.ok() &&
               body->find(R"("requests":{"cpu":"151m"})") != std::string::npos;
      },
      seconds(30)))
      << container->Output();
  EXPECT_TRUE(Healthy(port)) << container->Output();
  EXPECT_TRUE(container->Running()) << container->Output();
}

TEST_F(ImageRealServerTest, NodeScaleModeAddsANodeForAPendingPod) {
  ASSERT_TRUE(CreateServiceAccount(cluster(), ns(), "default").ok());
  GrantRbac("propscaler-node-scale", {"deploy/node-scale/base/role.yaml",
                                      "deploy/node-scale/base/clusterrole.yaml",
                                      "deploy/node-scale/kwok/clusterrole.yaml",
                                      "deploy/node-scale/kwok/role.yaml"});
  Status groups = PutConfigMap(
      cluster(), ns(), "propscaler-node-groups", "node-groups.json",
      R"({"nodeGroups":[{"name":"image","minSize":0,"maxSize":3,)"
      R"("template":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},)"
      R"("labels":{},"taints":[]}}]})");
  ASSERT_TRUE(groups.ok()) << groups.message();
  ASSERT_TRUE(CreatePendingPod(cluster(), ns(), "web-1", "3").ok());
  // deploy/node-scale/kwok's args: the base's plus the overlay's two.
  std::vector<std::string> args = ManifestArgs("node-scale/base");
  args.insert(args.end(), {"--cloud-provider=kwok",
                           "--node-group-config=propscaler-node-groups"});
  const int port = e2e::FreePort();
  auto container = RunImage("", args, port);
  EXPECT_TRUE(e2e::WaitUntil(
      [&] {
        Result<std::vector<std::string>> nodes =
            NodeNames(cluster(), "propscaler.io/node-group=image");
        return nodes.ok() && nodes->size() == 1;
      },
      seconds(30)))
      << container->Output();
  EXPECT_TRUE(Healthy(port)) << container->Output();
  EXPECT_EQ(CountOf(container->Output(), "is forbidden: User"), 0)
      << container->Output();
}

}  // namespace
}  // namespace propscaler::envtest

// propscaler-apiserver: a simulated Kubernetes API server serving a cluster
// from a file of nodes (or generated ones), for the demo and benchmarks.
// Prints "listening on http(s)://HOST:PORT" once ready; stops on SIGTERM or
// SIGINT.
#include <gflags/gflags.h>

#include <csignal>
#include <ctime>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "apiserver/cluster_churn.h"
#include "apiserver/fake_apiserver.h"

DEFINE_string(address, "127.0.0.1", "Address to listen on.");
DEFINE_int32(port, 0, "Port to listen on; 0 picks a free one.");
DEFINE_string(nodes_file, "",
              "Initial nodes: a JSON List like `kubectl get nodes -o json`.");
DEFINE_int32(generate_nodes, 0, "Also create this many generated nodes.");
DEFINE_int32(node_cores, 0,
             "CPU cores of generated and churned nodes; 0 mixes 2 to 8.");
DEFINE_string(tls_cert, "", "Serve HTTPS with this certificate (PEM).");
DEFINE_string(tls_key, "", "Private key of --tls-cert (PEM).");
DEFINE_string(client_ca, "", "Require client certificates signed by this CA.");
DEFINE_string(token, "", "Require this bearer token on API requests.");
DEFINE_int32(history_size, 10000, "Watch events kept for resuming watches.");
DEFINE_string(workload, "",
              "Workloads to create, comma-separated: KIND/NS/NAME=REPLICAS, "
              "e.g. deployment/kube-system/coredns=2.");
DEFINE_string(configmap, "",
              "A ConfigMap to create: NS/NAME:KEY=VALUE, e.g. "
              "kube-system/dns-autoscaler:linear={\"coresPerReplica\":4}.");
DEFINE_int32(churn_interval_seconds, 0,
             "Every this many seconds add, cordon or remove a node; 0: never.");
DEFINE_int32(churn_extra_nodes, 3, "Nodes churn adds before removing them.");

namespace propscaler::sim {
namespace {

// gflags wants underscores; accept --nodes-file as well as --nodes_file.
void UnderscoreFlagNames(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    char* arg = argv[i];
    if (arg[0] != '-' || arg[1] != '-') continue;
    for (char* c = arg + 2; *c != '\0' && *c != '='; ++c) {
      if (*c == '-') *c = '_';
    }
  }
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// KIND/NS/NAME=REPLICAS
Status CreateWorkloadFlag(FakeApiServer& server, const std::string& spec) {
  size_t slash1 = spec.find('/');
  size_t slash2 = spec.find('/', slash1 + 1);
  size_t equals = spec.find('=');
  if (slash1 == std::string::npos || slash2 == std::string::npos ||
      equals == std::string::npos || equals < slash2) {
    return Status::Invalid("--workload " + spec +
                           ": want KIND/NS/NAME=REPLICAS");
  }
  return server.CreateWorkload(spec.substr(0, slash1),
                               spec.substr(slash1 + 1, slash2 - slash1 - 1),
                               spec.substr(slash2 + 1, equals - slash2 - 1),
                               std::atoll(spec.c_str() + equals + 1));
}

// NS/NAME:KEY=VALUE
Status CreateConfigMapFlag(FakeApiServer& server, const std::string& spec) {
  size_t slash = spec.find('/');
  size_t colon = spec.find(':');
  size_t equals = spec.find('=', colon);
  if (slash == std::string::npos || colon == std::string::npos ||
      equals == std::string::npos || colon < slash) {
    return Status::Invalid("--configmap " + spec + ": want NS/NAME:KEY=VALUE");
  }
  return server.PutConfigMap(
      spec.substr(0, slash), spec.substr(slash + 1, colon - slash - 1),
      {{spec.substr(colon + 1, equals - colon - 1), spec.substr(equals + 1)}});
}

Status CreateFlagObjects(FakeApiServer& server) {
  for (const std::string& spec : SplitList(FLAGS_workload)) {
    if (Status s = CreateWorkloadFlag(server, spec); !s.ok()) return s;
  }
  if (FLAGS_configmap.empty()) return Status::Ok();
  return CreateConfigMapFlag(server, FLAGS_configmap);
}

FakeApiServerOptions OptionsFromFlags() {
  FakeApiServerOptions options;
  options.host = FLAGS_address;
  options.port = FLAGS_port;
  options.nodes_file = FLAGS_nodes_file;
  options.generate_nodes = FLAGS_generate_nodes;
  options.generated_node_cores = FLAGS_node_cores;
  options.tls_cert_file = FLAGS_tls_cert;
  options.tls_key_file = FLAGS_tls_key;
  options.client_ca_file = FLAGS_client_ca;
  options.bearer_token = FLAGS_token;
  options.history_size = static_cast<size_t>(FLAGS_history_size);
  return options;
}

// Waits for SIGTERM or SIGINT (blocked in every thread), stepping the churn
// every interval meanwhile.
void ServeUntilSignalled(const sigset_t& signals, ClusterChurn* churn) {
  while (true) {
    if (churn == nullptr) {
      int signal = 0;
      sigwait(&signals, &signal);
      return;
    }
    timespec interval{FLAGS_churn_interval_seconds, 0};
    if (sigtimedwait(&signals, nullptr, &interval) > 0) return;
    std::cout << churn->Step() << std::endl;
  }
}

int Run() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  FakeApiServer server;
  Status s = server.Start(OptionsFromFlags());
  if (s.ok()) s = CreateFlagObjects(server);
  if (!s.ok()) {
    std::cerr << "propscaler-apiserver: " << s.message() << std::endl;
    return 1;
  }
  std::cout << "listening on " << server.url() << std::endl;
  std::unique_ptr<ClusterChurn> churn;
  if (FLAGS_churn_interval_seconds > 0) {
    churn = std::make_unique<ClusterChurn>(&server, FLAGS_node_cores,
                                           FLAGS_churn_extra_nodes);
  }
  ServeUntilSignalled(signals, churn.get());
  server.Stop();
  std::cout << "stopped" << std::endl;
  return 0;
}

}  // namespace
}  // namespace propscaler::sim

int main(int argc, char** argv) {
  propscaler::sim::UnderscoreFlagNames(argc, argv);
  gflags::SetUsageMessage(
      "propscaler-apiserver --nodes-file=nodes.json [--port=N] ...");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return propscaler::sim::Run();
}

// Node-scale mode's parts, wired as the process runs them (the counterpart
// of app/mode_parts.h for a mode with a provider): the watches
// (app/node_scale_watches.h), the provider (--cloud-provider), the
// reporter (metrics, Events, the status board and ConfigMap) and the loop,
// run every --scan-interval and when a batch of pending pods closes. Built
// by Make, one function a part; run by app/node_scale_mode.cc.
#ifndef PROPSCALER_APP_NODE_SCALE_PARTS_H_
#define PROPSCALER_APP_NODE_SCALE_PARTS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/api_session.h"
#include "app/leadership.h"
#include "app/node_scale_flags.h"
#include "app/node_scale_watches.h"
#include "common/clock.h"
#include "common/status.h"
#include "common/stop_signal.h"
#include "nodescale/provider/provider.h"
#include "nodescale/run/loop.h"
#include "nodescale/report/node_scale_reporter.h"
#include "transport/client_config.h"

namespace propscaler {

class NodeScaleParts {
 public:
  // `management`: Cluster API's management cluster when it is not the
  // workload one. Fails (exit 1) when Cluster API's version cannot be
  // discovered.
  static Result<std::unique_ptr<NodeScaleParts>> Make(
      ApiSession* session, const Clock* clock, NodeScaleSettings settings,
      const LeaderElectionSettings& election,
      const std::optional<kube::ClientConfig>& management);
  NodeScaleParts(const NodeScaleParts&) = delete;
  NodeScaleParts& operator=(const NodeScaleParts&) = delete;

  // --once: one list of each watch, then one iteration.
  Status RunOnce();
  // Until `stop`; 1 when a Cluster API version stopped being served.
  int Run(StopSignal* stop);
  std::string StatusPage() const;
  kube::LeaderElector* elector() { return leadership_.elector(); }

 private:
  NodeScaleParts(ApiSession* session, const Clock* clock,
                 NodeScaleSettings settings,
                 const LeaderElectionSettings& election);
  Status ConnectClusterApi(const std::optional<kube::ClientConfig>& management);
  void MakeProviderAndLoop();

  ApiSession* session_;
  const Clock* clock_;
  NodeScaleSettings settings_;
  Leadership leadership_;
  // --once acts without electing (it ignores --leader-elect).
  std::function<bool()> may_act_;
  // Cluster API's management cluster, its own connection (TLS, token,
  // watches), when --cloud-config names one.
  std::optional<kube::HttpClient> management_http_;
  std::optional<kube::KubeApi> management_api_;
  const kube::KubeApi* cluster_api_ = nullptr;  // where its objects are
  NodeScaleWatches watches_;
  std::unique_ptr<nodescale::Provider> provider_;
  nodescale::NodeScaleStatusBoard board_;
  nodescale::NodeScaleReporter reporter_;
  std::optional<nodescale::NodeScaleLoop> loop_;
};

}  // namespace propscaler

#endif  // PROPSCALER_APP_NODE_SCALE_PARTS_H_

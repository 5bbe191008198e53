// The one shape of a mode's reporter: what a loop tells people goes through
// it to the three places they look: Prometheus metrics (declared when the
// reporter is made), Kubernetes Events (none in a dry run: the recorder is
// then null), and the mode's status board, which app/ renders on /status.
// app/ makes the board and the reporter and hands the reporter to the loop:
// replicas/replica_reporter.h, vertical/vertical_reporter.h and
// nodescale/report/node_scale_reporter.h derive from it.
#ifndef PROPSCALER_RUNTIME_MODE_REPORTER_H_
#define PROPSCALER_RUNTIME_MODE_REPORTER_H_

#include <functional>

#include "common/status_board.h"
#include "kube/controllers/event_recorder.h"
#include "kube/model/event.h"

namespace propscaler::runtime {

template <typename ModeStatus>
class ModeReporter {
 public:
  using Board = StatusBoard<ModeStatus>;

  // What the board shows now (for a loop that reads its own report back).
  ModeStatus Snapshot() const { return board_->Snapshot(); }

 protected:
  // `events` may be null: nothing is posted (dry runs, tests without
  // Events).
  ModeReporter(kube::EventRecorder* events, Board* board)
      : events_(events), board_(board) {}

  void Event(const kube::EventInfo& event) const {
    if (events_ != nullptr) events_->Record(event);
  }
  void UpdateBoard(const std::function<void(ModeStatus&)>& change) const {
    board_->Update(change);
  }

 private:
  kube::EventRecorder* const events_;
  Board* const board_;
};

}  // namespace propscaler::runtime

#endif  // PROPSCALER_RUNTIME_MODE_REPORTER_H_

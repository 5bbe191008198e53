#include "harness/parallel.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace propscaler::bench {

Status ParallelFor(int first, int last, int threads,
                   const std::function<Status(int)>& work) {
  std::atomic<int> next{first};
  std::mutex mu;
  Status error = Status::Ok();
  auto worker = [&] {
    for (int i = next++; i <= last; i = next++) {
      if (Status status = work(i); !status.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        error = status;
        next = last + 1;
      }
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back(worker);
  for (std::thread& w : workers) w.join();
  return error;
}

}  // namespace propscaler::bench

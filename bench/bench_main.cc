// propscaler_bench's main: Google Benchmark's, but a benchmark that finds
// its result wrong (SkipWithError: a plan that fails its checks, a count
// that is off) makes the program exit 1 and say which, so that a wrong run
// never passes for a fast one.
#include <benchmark/benchmark.h>

#include <iostream>
#include <string>
#include <vector>

namespace {

// The default display, noting each run that reported an error.
class FailureNotingReporter : public benchmark::BenchmarkReporter {
 public:
  explicit FailureNotingReporter(benchmark::BenchmarkReporter* display)
      : display_(display) {}

  bool ReportContext(const Context& context) override {
    return display_->ReportContext(context);
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) {
        failures_.push_back(run.benchmark_name() + ": " + run.error_message);
      }
    }
    display_->ReportRuns(runs);
  }
  void Finalize() override { display_->Finalize(); }

  const std::vector<std::string>& failures() const { return failures_; }

 private:
  benchmark::BenchmarkReporter* display_;
  std::vector<std::string> failures_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  FailureNotingReporter reporter(benchmark::CreateDefaultDisplayReporter());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (const std::string& failure : reporter.failures()) {
    std::cerr << "FAILED " << failure << "\n";
  }
  if (!reporter.failures().empty()) {
    std::cerr << reporter.failures().size()
              << " benchmark(s) found their result wrong\n";
    return 1;
  }
  return 0;
}

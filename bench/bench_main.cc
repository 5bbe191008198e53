// propscaler_bench's main: Google Benchmark's, but a benchmark that finds
// its result wrong (SkipWithError: a plan that fails its checks, a count
// that is off) or misses its time target (checks/time_targets.h: a single
// run's time, or the median of its repetitions) makes the program exit 1
// and say which, so that a wrong or slow run never passes.
// `--time_targets=false` judges results only (under a profiler, say). The
// context of its JSON output (--benchmark_out) says what made it, as the
// harnesses' result files do (harness/result_file.h): the commit and build
// type it was built from ("propscaler_commit", "propscaler_build_type"), the
// command as typed, the machine's memory (Google Benchmark adds its cores
// and the load before), and once the run is over the load after and the
// verdict ("passed", "failures").
#include <benchmark/benchmark.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "checks/time_targets.h"
#include "harness/result_file.h"
#include "server/build_revision.h"

namespace {

// The default display, noting each run that reported an error.
class FailureNotingReporter : public benchmark::BenchmarkReporter {
 public:
  FailureNotingReporter(benchmark::BenchmarkReporter* display, bool judge_times)
      : display_(display), judge_times_(judge_times) {}

  bool ReportContext(const Context& context) override {
    return display_->ReportContext(context);
  }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) {
        failures_.push_back(run.benchmark_name() + ": " + run.error_message);
      } else if (judge_times_ && Judged(run)) {
        const double ms = run.GetAdjustedRealTime() * 1e3 /
                          benchmark::GetTimeUnitMultiplier(run.time_unit);
        if (std::optional<std::string> miss = propscaler::bench::TimeTargetMiss(
                propscaler::bench::BenchTimeTargets(), run.run_name.str(),
                ms)) {
          failures_.push_back(*miss);
        }
      }
    }
    display_->ReportRuns(runs);
  }
  void Finalize() override { display_->Finalize(); }

  const std::vector<std::string>& failures() const { return failures_; }

 private:
  // A repeated benchmark is judged by its median, not by each repetition.
  static bool Judged(const Run& run) {
    if (run.run_type == Run::RT_Aggregate) {
      return run.aggregate_name == "median";
    }
    return run.repetitions <= 1;
  }

  benchmark::BenchmarkReporter* display_;
  bool judge_times_;
  std::vector<std::string> failures_;
};

// Takes --time_targets=true|false out of argv; true unless it says false.
bool TakeTimeTargetsFlag(int* argc, char** argv) {
  bool judge = true;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strcmp(argv[i], "--time_targets=false") == 0) {
      judge = false;
    } else if (std::strcmp(argv[i], "--time_targets=true") != 0) {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return judge;
}

// --benchmark_out's path, "" when none is given.
std::string OutPath(int argc, char** argv) {
  constexpr std::string_view kFlag = "--benchmark_out=";
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with(kFlag)) {
      return std::string(argv[i] + kFlag.size());
    }
  }
  return "";
}

// The JSON file at `path` with its context's verdict and the load after the
// run added; false when it cannot be read back or written.
bool AddVerdict(const std::string& path,
                const std::vector<std::string>& failures) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  // Google Benchmark writes NaN for an aggregate of zeros (a cv).
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNanAndInfFlag>(text.str().c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("context") ||
      !doc["context"].IsObject()) {
    return false;
  }
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& context = doc["context"];
  context.AddMember("passed", failures.empty(), alloc);
  rapidjson::Value list(rapidjson::kArrayType);
  for (const std::string& failure : failures) {
    list.PushBack(rapidjson::Value(failure.c_str(), alloc), alloc);
  }
  context.AddMember("failures", list, alloc);
  rapidjson::Document machine;
  machine.Parse(propscaler::bench::MachineJson().c_str());
  if (machine.IsObject() && machine.HasMember("load_1m")) {
    context.AddMember("load_1m_after",
                      rapidjson::Value(machine["load_1m"], alloc), alloc);
  }
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer, rapidjson::UTF8<>,
                    rapidjson::UTF8<>, rapidjson::CrtAllocator,
                    rapidjson::kWriteNanAndInfFlag>
      writer(out);
  doc.Accept(writer);
  std::ofstream file(path);
  file << out.GetString() << "\n";
  return static_cast<bool>(file);
}

}  // namespace

int main(int argc, char** argv) {
  const bool judge_times = TakeTimeTargetsFlag(&argc, argv);
  // The result file (--benchmark_out) names the binary that made it.
  benchmark::AddCustomContext("propscaler_commit",
                              std::string(propscaler::BuildRevision()));
  benchmark::AddCustomContext("propscaler_build_type",
                              std::string(propscaler::BuildType()));
  std::string command;
  for (int i = 0; i < argc; ++i)
    command += (i ? " " : "") + std::string(argv[i]);
  benchmark::AddCustomContext("command", command);
  benchmark::AddCustomContext("machine", propscaler::bench::MachineJson());
  const std::string out_path = OutPath(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  FailureNotingReporter reporter(benchmark::CreateDefaultDisplayReporter(),
                                 judge_times);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (const std::string& failure : reporter.failures()) {
    std::cerr << "FAILED " << failure << "\n";
  }
  if (!out_path.empty() && !AddVerdict(out_path, reporter.failures())) {
    std::cerr << "could not add the verdict to " << out_path << "\n";
    return 1;
  }
  if (!reporter.failures().empty()) {
    std::cerr << reporter.failures().size()
              << " benchmark(s) found their result wrong or missed a time "
                 "target\n";
    return 1;
  }
  return 0;
}

#include "bench/measure.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <numeric>
#include <thread>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace rockpoint::bench {

double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  // Nearest rank: the smallest value with at least q of the values <= it.
  size_t rank = static_cast<size_t>(std::ceil(q * values.size()));
  rank = std::clamp<size_t>(rank, 1, values.size());
  std::nth_element(values.begin(), values.begin() + (rank - 1), values.end());
  return values[rank - 1];
}

double Measurement::median_us() const { return Quantile(samples_us, 0.5); }
double Measurement::p99_us() const { return Quantile(samples_us, 0.99); }

double Measurement::mean_us() const {
  if (samples_us.empty()) return 0;
  return std::accumulate(samples_us.begin(), samples_us.end(), 0.0) /
         samples_us.size();
}

double Measurement::ops_per_sec() const {
  return wall_seconds > 0 ? ops / wall_seconds : 0;
}

double ScalingRow::median_puts_per_sec() const {
  return Quantile(puts_per_sec, 0.5);
}

double Measurement::spread_pct() const {
  if (rep_medians.size() < 2) return 0;
  const auto [lo, hi] =
      std::minmax_element(rep_medians.begin(), rep_medians.end());
  const double median = median_us();
  return median > 0 ? 100.0 * (*hi - *lo) / median : 0;
}

namespace {

// The first error any worker reports.
class FirstError {
 public:
  void Record(Status status) EXCLUDES(mu_) {
    base::MutexLock lock(&mu_);
    if (first_.ok()) first_ = std::move(status);
  }
  Status Get() EXCLUDES(mu_) {
    base::MutexLock lock(&mu_);
    return first_;
  }

 private:
  base::Mutex mu_;
  Status first_ GUARDED_BY(mu_);
};

}  // namespace

Status RunConcurrently(const RunPlan& plan, const TimedOp& op,
                       Measurement* out) {
  const int threads = std::max(1, plan.threads);
  out->threads = threads;
  FirstError first_error;
  std::atomic<bool> failed{false};
  // Per round: every thread's samples, merged after the round.
  std::vector<std::vector<double>> samples(threads);
  std::vector<double> round_wall(plan.repetitions, 0);
  // Phases: warm-up, then per round: start, finish.
  std::barrier sync(threads);

  auto record_error = [&](Status status) {
    first_error.Record(std::move(status));
    failed = true;
  };
  auto worker = [&](int t) {
    size_t i = plan.first_index;
    for (; i < plan.first_index + plan.warmup_ops && !failed; ++i) {
      Lap lap;
      Status status = op(t, i, lap);
      if (!status.ok()) record_error(std::move(status));
    }
    for (int round = 0; round < plan.repetitions; ++round) {
      sync.arrive_and_wait();
      Stopwatch round_clock;
      for (size_t n = 0; n < plan.ops && !failed; ++n, ++i) {
        Lap lap;
        Status status = op(t, i, lap);
        samples[t].push_back(lap.ElapsedMicros());
        if (!status.ok()) record_error(std::move(status));
      }
      sync.arrive_and_wait();
      if (t == 0) round_wall[round] = round_clock.ElapsedMicros() / 1e6;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& thread : pool) thread.join();
  if (Status error = first_error.Get(); !error.ok()) return error;

  // Rep medians: each round's slice of every thread's samples.
  for (int round = 0; round < plan.repetitions; ++round) {
    std::vector<double> round_samples;
    for (const auto& per_thread : samples) {
      const size_t begin = round * plan.ops;
      round_samples.insert(round_samples.end(), per_thread.begin() + begin,
                           per_thread.begin() + begin + plan.ops);
    }
    out->rep_medians.push_back(Quantile(round_samples, 0.5));
    out->samples_us.insert(out->samples_us.end(), round_samples.begin(),
                           round_samples.end());
    out->wall_seconds += round_wall[round];
  }
  out->repetitions += plan.repetitions;
  out->ops += static_cast<size_t>(threads) * plan.ops * plan.repetitions;
  return Status::OK();
}

Status RunSerialWithSetup(const RunPlan& plan,
                          const std::function<Status(size_t)>& setup,
                          const std::function<Status(size_t)>& op,
                          Measurement* out) {
  out->threads = 1;
  size_t i = plan.first_index;
  for (; i < plan.first_index + plan.warmup_ops; ++i) {
    RP_RETURN_IF_ERROR(setup(i));
    RP_RETURN_IF_ERROR(op(i));
  }
  for (int round = 0; round < plan.repetitions; ++round) {
    std::vector<double> round_samples;
    for (size_t n = 0; n < plan.ops; ++n, ++i) {
      RP_RETURN_IF_ERROR(setup(i));
      Stopwatch call;
      RP_RETURN_IF_ERROR(op(i));
      const double micros = call.ElapsedMicros();
      round_samples.push_back(micros);
      out->wall_seconds += micros / 1e6;
    }
    out->rep_medians.push_back(Quantile(round_samples, 0.5));
    out->samples_us.insert(out->samples_us.end(), round_samples.begin(),
                           round_samples.end());
  }
  out->repetitions += plan.repetitions;
  out->ops += plan.ops * plan.repetitions;
  return Status::OK();
}

}  // namespace rockpoint::bench

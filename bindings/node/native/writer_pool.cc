#include "native/writer_pool.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "native/addon.h"

namespace rockpoint::node {
namespace {

struct Queued {
  std::unique_ptr<WriterJob> job;
  WriterTsfn tsfn;
};

// Process-wide; never destroyed (threads may still run during exit).
class Pool {
 public:
  static Pool& Get() {
    static Pool* pool = new Pool();
    return *pool;
  }

  void Push(Queued queued) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(queued));
      if (idle_ == 0 && started_ < kWriterThreads) {
        ++started_;
        std::thread([this] { Loop(); }).detach();
      }
    }
    cv_.notify_one();
  }

 private:
  void Loop() {
    for (;;) {
      Queued queued;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ++idle_;
        cv_.wait(lock, [this] { return !queue_.empty(); });
        --idle_;
        queued = std::move(queue_.front());
        queue_.pop_front();
      }
      queued.job->Run();
      WriterJob* job = queued.job.release();
      if (queued.tsfn.BlockingCall(job) != napi_ok) {
        job->Complete(Napi::Env(nullptr));  // environment gone.
        delete job;
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Queued> queue_;  // GUARDED_BY(mu_)
  size_t started_ = 0;        // GUARDED_BY(mu_)
  size_t idle_ = 0;           // GUARDED_BY(mu_)
};

}  // namespace

void CompleteWrite(Napi::Env env, Napi::Function, void*, WriterJob* job) {
  std::unique_ptr<WriterJob> owned(job);
  if (env == nullptr) {
    owned->Complete(Napi::Env(nullptr));
    return;
  }
  AddonData& data = GetAddonData(env);
  if (--data.writes_in_flight == 0) data.writer_tsfn.Unref(env);
  Napi::HandleScope scope(env);
  owned->Complete(env);
}

void SubmitWrite(Napi::Env env, std::unique_ptr<WriterJob> job) {
  AddonData& data = GetAddonData(env);
  if (!data.writer_tsfn) {
    data.writer_tsfn = WriterTsfn::New(env, "rockpoint-writer", 0, 1);
    data.writer_tsfn.Unref(env);
  }
  if (data.writes_in_flight++ == 0) data.writer_tsfn.Ref(env);
  Pool::Get().Push(Queued{std::move(job), data.writer_tsfn});
}

}  // namespace rockpoint::node

// The client's executor: one thread that runs the plugin's device work (executions, downloads
// of buffers still being computed) in the order it was queued. PJRT_LoadedExecutable_Execute
// returns as soon as its work is queued, with output buffers and a completion event that
// become ready when the work has run — JAX's asynchronous dispatch — while vkhlo's Execute,
// synchronous, runs here. The order is what makes dependencies safe: a buffer exists only once
// the work producing it is queued, so whatever uses it is queued after.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace vkhlo::pjrt {

class Executor {
 public:
  Executor();
  // Runs what is queued, then stops the thread.
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Queues `job`; it must not throw (jobs report failure through their events).
  void Enqueue(std::function<void()> job);

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace vkhlo::pjrt

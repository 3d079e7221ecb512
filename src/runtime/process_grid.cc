// RunProcessGrid (include/vkhlo/process_grid.h): one thread and one Execution per process, all
// meeting through one InProcessTransport (the rendezvous object of this grid execution).
#include "vkhlo/process_grid.h"

#include <fmt/format.h>

#include <thread>

#include "runtime/execution.h"

namespace vkhlo {

void FeedQueue::Push(std::vector<HostTensor> entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.push_back(std::move(entry));
}

std::optional<std::vector<HostTensor>> FeedQueue::Pop() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entries_.empty()) return std::nullopt;
  std::vector<HostTensor> entry = std::move(entries_.front());
  entries_.pop_front();
  return entry;
}

size_t FeedQueue::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

StatusOr<std::vector<std::vector<Buffer>>> RunProcessGrid(const ProcessGridOptions& options,
                                                          std::span<const ProcessRun> processes) {
  if (options.num_replicas <= 0 || options.num_partitions <= 0) {
    return InvalidArgumentError(fmt::format("a process grid of {} x {}", options.num_replicas, options.num_partitions));
  }
  const int64_t count = options.num_replicas * options.num_partitions;
  if (static_cast<int64_t>(processes.size()) != count) {
    return InvalidArgumentError(fmt::format("a grid of {} replica(s) x {} partition(s) runs {} processes, given {}",
                                            options.num_replicas, options.num_partitions, count, processes.size()));
  }
  for (size_t i = 0; i < processes.size(); ++i) {
    if (!processes[i].executable.state()) return InvalidArgumentError(fmt::format("process {} has no executable", i));
  }
  runtime::InProcessTransport transport(options.timeout);
  std::vector<StatusOr<std::vector<Buffer>>> results(processes.size(), InternalError("not run"));
  std::vector<std::thread> threads;
  threads.reserve(processes.size());
  for (size_t i = 0; i < processes.size(); ++i) {
    threads.emplace_back([&, i] {
      const ProcessRun& run = processes[i];
      runtime::ProcessContext context;
      context.id = {static_cast<int64_t>(i) / options.num_partitions, static_cast<int64_t>(i) % options.num_partitions};
      context.num_replicas = options.num_replicas;
      context.num_partitions = options.num_partitions;
      context.transport = &transport;
      context.infeed = run.infeed.get();
      context.outfeed = run.outfeed.get();
      results[i] = runtime::RunEntry(*run.executable.state(), run.arguments, context, nullptr);
      if (!results[i].ok()) transport.Abort(context.id, results[i].status());
    });
  }
  for (std::thread& t : threads) t.join();
  if (std::optional<Status> error = transport.first_error()) {
    // The first failure, naming its process (the others stopped waiting because of it).
    for (size_t i = 0; i < processes.size(); ++i) {
      if (!results[i].ok() && results[i].status().message() == error->message()) {
        return Status(error->code(), fmt::format("process ({}, {}): {}", int64_t(i) / options.num_partitions,
                                                 int64_t(i) % options.num_partitions, error->message()));
      }
    }
    return *error;
  }
  std::vector<std::vector<Buffer>> out;
  for (auto& r : results) out.push_back(std::move(r).value());
  return out;
}

}  // namespace vkhlo

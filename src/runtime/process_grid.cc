// RunProcessGrid (include/vkhlo/process_grid.h): one thread and one Execution per process, all
// meeting through one InProcessTransport (the rendezvous object of this grid execution); and
// CreateProcessClients, the placements of processes on devices and queues.
#include "vkhlo/process_grid.h"

#include <fmt/format.h>

#include <thread>

#include "device/instance.h"
#include "device/transfer.h"
#include "runtime/execution.h"
#include "runtime/client_internal.h"

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

namespace runtime {

StatusOr<std::vector<Buffer>> RunProcess(const ProcessRun& run, const ProcessContext& process) {
  const std::shared_ptr<ClientState>& client = run.executable.state()->client;
  std::vector<Buffer> arguments;
  for (const Buffer& argument : run.arguments) {
    // On `client`: itself when it lives there, else a copy through host memory.
    if (!argument || argument.state()->client == client) {
      arguments.push_back(argument);
      continue;
    }
    auto local = CopyThroughHost(*argument.state(), client);
    if (!local.ok()) {
      return local.status().WithContext(
          fmt::format("copying an argument of process ({}, {})", process.id.replica, process.id.partition));
    }
    arguments.push_back(Buffer(std::move(*local)));
  }
  return RunEntry(*run.executable.state(), arguments, process, nullptr);
}

}  // namespace runtime

StatusOr<int> CountVulkanDevices() {
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<device::Instance> instance,
                         device::Instance::Create(device::InstanceOptions{}));
  VKHLO_ASSIGN_OR_RETURN(std::vector<device::PhysicalDevice> devices, instance->EnumerateDevices());
  return static_cast<int>(devices.size());
}

StatusOr<std::vector<std::shared_ptr<Client>>> CreateProcessClients(int64_t processes, ProcessPlacement placement,
                                                                     const ClientOptions& options) {
  if (processes <= 0) return InvalidArgumentError(fmt::format("a grid of {} processes", processes));
  std::vector<std::shared_ptr<Client>> clients;
  if (placement == ProcessPlacement::kShared) {
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Client::Create(options));
    std::shared_ptr<Client> shared = std::move(client);
    clients.assign(static_cast<size_t>(processes), shared);
    return clients;
  }
  int devices = 1;
  if (placement == ProcessPlacement::kSpreadDevices) {
    VKHLO_ASSIGN_OR_RETURN(devices, CountVulkanDevices());
    if (devices == 0) return UnavailableError("no Vulkan device is present");
  }
  for (int64_t i = 0; i < processes; ++i) {
    ClientOptions mine = options;
    if (placement == ProcessPlacement::kSpreadDevices) mine.device = std::to_string(i % devices);
    auto client = Client::Create(mine);
    if (!client.ok()) return client.status().WithContext(fmt::format("the client of process {}", i));
    clients.push_back(std::move(*client));
  }
  return clients;
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
      results[i] = runtime::RunProcess(run, context);
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

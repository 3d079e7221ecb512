#include "tools/vkhlo-run/mpi_grid_runner.h"

#include <fmt/format.h>

namespace vkhlo::tools {

StatusOr<std::vector<std::vector<Buffer>>> RunGridOverMpi(MpiSession& session, const ProcessGridOptions& grid,
                                                          const std::vector<ProcessRun>& runs, const std::string& label,
                                                          const Client& client) {
  MpiRunOptions options;
  options.label = label;
  VKHLO_ASSIGN_OR_RETURN(std::optional<int64_t> index, session.ProcessIndex(grid, options));
  const ProcessRun none;
  const ProcessRun& mine = index ? runs.at(static_cast<size_t>(*index)) : none;
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, session.Run(grid, mine, options));
  VKHLO_ASSIGN_OR_RETURN(auto gathered, session.GatherResults(results));
  std::vector<std::vector<Buffer>> all(gathered.size());
  for (size_t p = 0; p < gathered.size(); ++p) {
    if (index && static_cast<size_t>(*index) == p) {
      all[p] = results;  // already on this rank's device
      continue;
    }
    for (const HostTensor& t : gathered[p]) {
      VKHLO_ASSIGN_OR_RETURN(Buffer b, client.BufferFromHost(t.type, t.bytes));
      all[p].push_back(std::move(b));
    }
  }
  return all;
}

std::string SubstituteRank(std::string text, int rank, int64_t replica, int64_t partition) {
  const std::pair<std::string, std::string> fields[] = {
      {"{rank}", std::to_string(rank)}, {"{replica}", std::to_string(replica)}, {"{partition}", std::to_string(partition)}};
  for (const auto& [key, value] : fields) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

}  // namespace vkhlo::tools

// MpiSession in a vkhlo built without MPI (CMake found none): Create says so and how to get it;
// no session can exist, so the other members are never reached.
#include <cstdlib>

#include "vkhlo/mpi.h"

namespace vkhlo {

struct MpiSession::State {};

bool MpiSession::Available() { return false; }

StatusOr<std::unique_ptr<MpiSession>> MpiSession::Create(const MpiSessionOptions&) {
  return UnavailableError(
      "this vkhlo was built without MPI: install Open MPI (Debian: libopenmpi-dev openmpi-bin, as "
      "tools/install-deps.sh does) and configure the build again");
}

MpiSession::MpiSession(std::unique_ptr<State> state) : state_(std::move(state)) {}
MpiSession::~MpiSession() = default;
int MpiSession::rank() const { return 0; }
int MpiSession::size() const { return 1; }
int MpiSession::local_rank() const { return 0; }
int MpiSession::local_size() const { return 1; }
std::string MpiSession::host_name() const { return {}; }
bool MpiSession::healthy() const { return true; }
MpiStats MpiSession::stats() const { return {}; }
void MpiSession::Abort(int exit_code) { std::exit(exit_code); }

StatusOr<std::shared_ptr<Client>> MpiSession::CreateClient(ClientOptions) const {
  return UnavailableError("this vkhlo was built without MPI");
}

StatusOr<std::optional<int64_t>> MpiSession::ProcessIndex(const ProcessGridOptions&, const MpiRunOptions&) const {
  return UnavailableError("this vkhlo was built without MPI");
}

StatusOr<std::vector<Buffer>> MpiSession::Run(const ProcessGridOptions&, const ProcessRun&, const MpiRunOptions&) {
  return UnavailableError("this vkhlo was built without MPI");
}

StatusOr<std::vector<std::vector<HostTensor>>> MpiSession::GatherResults(std::span<const Buffer>) {
  return UnavailableError("this vkhlo was built without MPI");
}

}  // namespace vkhlo

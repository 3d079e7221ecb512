#include "runtime/mpi/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "support/env.h"

namespace vkhlo::runtime::mpi {
namespace {

// Headers and payload chunks travel with different tags: a header is matched by whoever polls
// (any source), chunks only by the receive its header posted (one source, in send order).
constexpr int kHeaderTag = 17;
constexpr int kDataTag = 18;
constexpr int kGroupCommTag = 19;

}  // namespace

Status MpiError(int code, std::string_view what) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  return UnavailableError(fmt::format("{}: {}", what, length > 0 ? std::string(text, static_cast<size_t>(length))
                                                                  : fmt::format("MPI error {}", code)));
}

#define VKHLO_MPI_CALL(call, what)                         \
  do {                                                     \
    const int vkhlo_mpi_rc = (call);                       \
    if (vkhlo_mpi_rc != MPI_SUCCESS) return MpiError(vkhlo_mpi_rc, what); \
  } while (false)

StatusOr<std::unique_ptr<Engine>> Engine::Create(MPI_Comm parent) {
  std::unique_ptr<Engine> engine(new Engine());
  VKHLO_MPI_CALL(MPI_Comm_dup(parent, &engine->comm_), "MPI_Comm_dup");
  // Failures come back as codes this code turns into statuses, instead of ending the job.
  VKHLO_MPI_CALL(MPI_Comm_set_errhandler(engine->comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  VKHLO_MPI_CALL(MPI_Comm_rank(engine->comm_, &engine->rank_), "MPI_Comm_rank");
  VKHLO_MPI_CALL(MPI_Comm_size(engine->comm_, &engine->size_), "MPI_Comm_size");
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> chunk, GetEnvSize("VKHLO_MPI_CHUNK_BYTES"));
  if (chunk) {
    if (*chunk == 0 || *chunk > static_cast<uint64_t>(INT_MAX)) {
      return InvalidArgumentError(fmt::format("VKHLO_MPI_CHUNK_BYTES={} is not in 1..{}", *chunk, INT_MAX));
    }
    engine->chunk_bytes_ = *chunk;
  }
  return engine;
}

Engine::~Engine() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& a : arrived_) {
    for (MPI_Request& r : a->pending) {
      MPI_Cancel(&r);
      MPI_Request_free(&r);
    }
  }
  for (PendingSend& s : sends_) {
    for (MPI_Request& r : s.requests) {
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    }
    // MPI may still read these buffers after the request is freed: they are left allocated.
    new std::shared_ptr<const Payload>(std::move(s.payload));
    new std::vector<uint8_t>(std::move(s.header));
  }
  for (auto& [ranks, comm] : group_comms_) MPI_Comm_free(&comm);
  MPI_Comm_free(&comm_);
}

Status Engine::Post(int dest, Header header, std::shared_ptr<const Payload> payload) {
  const uint64_t bytes = header.payload_bytes;
  if (bytes > 0 && (payload == nullptr || payload->size() < bytes)) {
    return InternalError(fmt::format("a {} message of {} bytes without them", MessageKindName(header.kind), bytes));
  }
  header.chunk_bytes = bytes > 0 ? chunk_bytes_ : 0;
  if (dest == rank_) {
    auto arrived = std::make_unique<Arrived>();
    arrived->source = rank_;
    arrived->header = std::move(header);
    arrived->payload = std::const_pointer_cast<Payload>(payload ? payload : TakePayload(0));
    arrived_.push_back(std::move(arrived));
    return OkStatus();
  }
  stats_.messages_sent++;
  stats_.bytes_sent += bytes;
  PendingSend& send = sends_.emplace_back();
  send.dest = dest;
  send.header = Encode(header);
  send.payload = std::move(payload);
  const std::string to = fmt::format("MPI_Isend to rank {}", dest);
  send.requests.emplace_back(MPI_REQUEST_NULL);
  VKHLO_MPI_CALL(MPI_Isend(send.header.data(), static_cast<int>(send.header.size()), MPI_BYTE, dest, kHeaderTag, comm_,
                           &send.requests.back()),
                 to);
  for (uint64_t offset = 0; offset < bytes; offset += chunk_bytes_) {
    const uint64_t n = std::min(chunk_bytes_, bytes - offset);
    send.requests.emplace_back(MPI_REQUEST_NULL);
    VKHLO_MPI_CALL(MPI_Isend(send.payload->data() + offset, static_cast<int>(n), MPI_BYTE, dest, kDataTag, comm_,
                             &send.requests.back()),
                   to);
  }
  return OkStatus();
}

Status Engine::Poll() {
  // Headers first: each starts the receives of its payload at once, so that chunks of
  // different messages from one source are matched in the order they were sent.
  while (true) {
    int flag = 0;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    VKHLO_MPI_CALL(MPI_Improbe(MPI_ANY_SOURCE, kHeaderTag, comm_, &flag, &message, &status), "MPI_Improbe");
    if (!flag) break;
    int count = 0;
    VKHLO_MPI_CALL(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::vector<uint8_t> bytes(static_cast<size_t>(std::max(count, 0)));
    // The message is matched and small (sent eagerly): this receive does not wait on anyone.
    VKHLO_MPI_CALL(MPI_Mrecv(bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE),
                   fmt::format("MPI_Mrecv from rank {}", status.MPI_SOURCE));
    auto header = Decode(bytes);
    if (!header.ok()) return header.status().WithContext(fmt::format("from rank {}", status.MPI_SOURCE));
    auto arrived = std::make_unique<Arrived>();
    arrived->source = status.MPI_SOURCE;
    arrived->header = std::move(*header);
    const uint64_t total = arrived->header.payload_bytes;
    stats_.messages_received++;
    stats_.bytes_received += total;
    arrived->payload = TakePayload(total);
    const uint64_t chunk = arrived->header.chunk_bytes;
    if (total > 0 && chunk > static_cast<uint64_t>(INT_MAX)) {
      return DataLossError(fmt::format("rank {} sends chunks of {} bytes", status.MPI_SOURCE, chunk));
    }
    for (uint64_t offset = 0; offset < total; offset += chunk) {
      const uint64_t n = std::min(chunk, total - offset);
      arrived->pending.emplace_back(MPI_REQUEST_NULL);
      VKHLO_MPI_CALL(MPI_Irecv(arrived->payload->data() + offset, static_cast<int>(n), MPI_BYTE, status.MPI_SOURCE,
                               kDataTag, comm_, &arrived->pending.back()),
                     fmt::format("MPI_Irecv from rank {}", status.MPI_SOURCE));
    }
    arrived_.push_back(std::move(arrived));
  }
  for (auto& a : arrived_) {
    if (a->complete()) continue;
    int done = 0;
    VKHLO_MPI_CALL(MPI_Testall(static_cast<int>(a->pending.size()), a->pending.data(), &done, MPI_STATUSES_IGNORE),
                   fmt::format("receiving a {} from rank {}", MessageKindName(a->header.kind), a->source));
    if (done) a->pending.clear();
  }
  for (auto it = sends_.begin(); it != sends_.end();) {
    int done = 0;
    VKHLO_MPI_CALL(MPI_Testall(static_cast<int>(it->requests.size()), it->requests.data(), &done, MPI_STATUSES_IGNORE),
                   fmt::format("sending to rank {}", it->dest));
    it = done ? sends_.erase(it) : std::next(it);
  }
  return OkStatus();
}

StatusOr<MPI_Comm> Engine::GroupComm(const std::vector<int>& ranks) {
  auto it = group_comms_.find(ranks);
  if (it != group_comms_.end()) return it->second;
  MPI_Group world = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  VKHLO_MPI_CALL(MPI_Comm_group(comm_, &world), "MPI_Comm_group");
  const int rc = MPI_Group_incl(world, static_cast<int>(ranks.size()), ranks.data(), &group);
  MPI_Group_free(&world);
  if (rc != MPI_SUCCESS) return MpiError(rc, "MPI_Group_incl");
  MPI_Comm comm = MPI_COMM_NULL;
  const int created = MPI_Comm_create_group(comm_, group, kGroupCommTag, &comm);
  MPI_Group_free(&group);
  if (created != MPI_SUCCESS) return MpiError(created, "MPI_Comm_create_group");
  VKHLO_MPI_CALL(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  group_comms_.emplace(ranks, comm);
  return comm;
}

bool Engine::busy() const {
  if (!sends_.empty()) return true;
  for (const auto& a : arrived_) {
    if (!a->complete()) return true;
  }
  return false;
}

void Backoff::Pause(bool busy) {
  const auto now = Clock::now();
  if (busy) since_ = now;
  if (now - since_ < std::chrono::milliseconds(2)) {
    sleeps_ = 0;
    std::this_thread::yield();
    return;
  }
  sleeps_ = std::min(sleeps_ + 1, 20);
  std::this_thread::sleep_for(std::chrono::microseconds(50 * sleeps_));
}

}  // namespace vkhlo::runtime::mpi

// MpiTransport::ExactReduce: reductions whose result does not depend on the order of the fold
// (runtime/exact_reducer.h) by MPI_Iallreduce on host copies, so large integer reductions move
// what MPI's own algorithms move (a ring or a tree) rather than every contribution to every
// member. The members first meet through headers (types, reduction ops): a member at another
// collective, with other shapes or another reducer is an error before any data moves, and
// MPI_Comm_create_group is only called once every member is known to be there.
#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "device/transfer.h"
#include "runtime/mpi/transport.h"

namespace vkhlo::runtime::mpi {
namespace {

std::string_view Name(ExactReduction op) {
  switch (op) {
    case ExactReduction::kAdd: return "add";
    case ExactReduction::kMultiply: return "multiply";
    case ExactReduction::kMin: return "min";
    case ExactReduction::kMax: return "max";
    case ExactReduction::kAnd: return "and";
    case ExactReduction::kOr: return "or";
    case ExactReduction::kXor: return "xor";
  }
  return "?";
}

MPI_Op ToMpi(ExactReduction op) {
  switch (op) {
    case ExactReduction::kAdd: return MPI_SUM;
    case ExactReduction::kMultiply: return MPI_PROD;
    case ExactReduction::kMin: return MPI_MIN;
    case ExactReduction::kMax: return MPI_MAX;
    case ExactReduction::kAnd: return MPI_BAND;
    case ExactReduction::kOr: return MPI_BOR;
    case ExactReduction::kXor: return MPI_BXOR;
  }
  return MPI_OP_NULL;
}

// The MPI type an element is reduced as. Sums and products wrap: on the unsigned type of the
// width they give the two's-complement bits of the signed ones without signed overflow. Min
// and max compare as the element's own signedness; booleans are bytes holding 0 or 1.
std::optional<MPI_Datatype> ToMpi(PrimitiveType element, ExactReduction op) {
  const bool compare = op == ExactReduction::kMin || op == ExactReduction::kMax;
  const bool is_signed = compare && primitive_util::IsSignedIntegralType(element);
  if (primitive_util::IsPredType(element)) return MPI_UINT8_T;
  switch (primitive_util::BitWidth(element)) {
    case 8: return is_signed ? MPI_INT8_T : MPI_UINT8_T;
    case 16: return is_signed ? MPI_INT16_T : MPI_UINT16_T;
    case 32: return is_signed ? MPI_INT32_T : MPI_UINT32_T;
    case 64: return is_signed ? MPI_INT64_T : MPI_UINT64_T;
    default: return std::nullopt;
  }
}

}  // namespace

StatusOr<std::optional<Contribution>> MpiTransport::ExactReduce(const RendezvousKey& key, ProcessId self,
                                                                const Contribution& mine,
                                                                const std::vector<ExactReduction>& ops) {
  if (!self_ || self != *self_) return InternalError(fmt::format("{} reduces for another process", Me()));
  if (ops.size() != mine.size()) return InternalError("a reduction op per tensor");
  std::vector<MPI_Datatype> types;
  for (size_t i = 0; i < mine.size(); ++i) {
    auto type = ToMpi(mine[i]->type.element, ops[i]);
    if (!type) return std::optional<Contribution>();  // left to the fold on the device
    types.push_back(*type);
  }
  const int64_t execution = executions_[key]++;
  Header handshake = ContributionHeader(key, execution);
  handshake.has_payload = false;
  for (ExactReduction op : ops) handshake.reduction += (handshake.reduction.empty() ? "" : ",") + std::string(Name(op));
  VKHLO_ASSIGN_OR_RETURN(Outgoing out, Pack(std::move(handshake), mine));
  VKHLO_ASSIGN_OR_RETURN(auto met, Meet(key, out));

  std::vector<int> ranks{engine_.rank()};
  for (const auto& [rank, arrived] : met) ranks.push_back(rank);
  std::sort(ranks.begin(), ranks.end());
  VKHLO_ASSIGN_OR_RETURN(MPI_Comm comm, engine_.GroupComm(ranks));

  // Host copies, reduced in place; MPI counts are ints, so large tensors go in pieces.
  std::vector<std::shared_ptr<Payload>> host(mine.size());
  std::vector<MPI_Request> requests;
  for (size_t i = 0; i < mine.size(); ++i) {
    const BufferState& b = *mine[i];
    host[i] = engine_.TakePayload(BufferBytes(b.type));
    if (host[i]->size() == 0) continue;
    VKHLO_RETURN_IF_ERROR(b.client->device->transfers().Download(
        b.buffer, 0, std::as_writable_bytes(std::span(host[i]->data(), host[i]->size()))));
    const int element_bytes = std::max(1, primitive_util::BitWidth(b.type.element) / 8);
    const int64_t count = b.type.num_elements();
    for (int64_t start = 0; start < count; start += INT_MAX) {
      const int n = static_cast<int>(std::min<int64_t>(INT_MAX, count - start));
      requests.emplace_back(MPI_REQUEST_NULL);
      const int rc = MPI_Iallreduce(MPI_IN_PLACE, host[i]->data() + start * element_bytes, n, types[i],
                                    ToMpi(ops[i]), comm, &requests.back());
      if (rc != MPI_SUCCESS) return MpiError(rc, fmt::format("MPI_Iallreduce for '{}'", key.op_name));
    }
  }
  for (const auto& h : host) engine_.CountLibraryReduction(h ? h->size() : 0);
  auto ready = [&]() -> StatusOr<bool> {
    int done = 0;
    const int rc = MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) return MpiError(rc, fmt::format("MPI_Iallreduce for '{}'", key.op_name));
    return done != 0;
  };
  auto timed_out = [&] {
    return Status(StatusCode::kDeadlineExceeded,
                  fmt::format("'{}' (group {}) in {}: MPI_Iallreduce did not complete within {} ms", key.op_name,
                              GroupName(out.header.group), Me(), timeout_.count()));
  };
  Status waited = WaitUntil(fmt::format("{} reducing '{}' (group {}) by MPI_Iallreduce", Me(), key.op_name,
                                        GroupName(out.header.group)),
                            true, ready, timed_out, /*in_flight=*/true);
  if (!waited.ok()) {
    // MPI may still write the buffers of the requests that did not complete: they stay allocated
    // (the run has failed; the job is ended after it).
    new std::vector<std::shared_ptr<Payload>>(std::move(host));
    return waited;
  }
  Contribution reduced;
  for (size_t i = 0; i < mine.size(); ++i) {
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<BufferState> tensor, AllocateTensor(client_, mine[i]->type));
    if (host[i] && host[i]->size() > 0) {
      VKHLO_RETURN_IF_ERROR(client_->device->transfers().Upload(
          tensor->buffer, 0, std::as_bytes(std::span(host[i]->data(), host[i]->size()))));
    }
    reduced.push_back(std::move(tensor));
  }
  return std::optional<Contribution>(std::move(reduced));
}

}  // namespace vkhlo::runtime::mpi

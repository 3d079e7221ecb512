// The messages ranks of an MPI process grid exchange (engine.h sends and receives them; the
// transport gives them meaning). Pure C++, no MPI: tested on its own (tests/runtime/mpi/wire_test.cc).
//
// Every message is a small header (this encoding) followed, when it carries tensors, by their
// bytes as separate data messages of at most `chunk_bytes` each (MPI counts are ints, and a
// 256 MiB tensor should not need a second host copy to be prefixed with a header). Headers are
// self-describing so that a receiver can check what arrived against what it expects: which grid
// run (epoch and label), which collective execution (op, channel, group, execution count), and
// the tensor types — mismatched shapes between ranks are reported, never read as garbage.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vkhlo/runtime.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime::mpi {

enum class MessageKind : uint8_t {
  kContribution = 1,  // a process's operands at a collective, for one other member of its group
  kChannelData = 2,   // values sent on a channel, for the rank that receives the channel
  kChannelClaim = 3,  // "this rank receives channel N": senders learn where to send
  kDone = 4,          // a rank finished its part of a grid run, with its status
  kResults = 5,       // a process's results after a run (MpiSession::GatherResults)
};
std::string_view MessageKindName(MessageKind kind);

struct WireProcess {
  int64_t replica = 0;
  int64_t partition = 0;
  bool operator==(const WireProcess&) const = default;
};

struct WireTensor {
  TensorType type;
  uint64_t offset = 0;  // into the payload
  uint64_t bytes = 0;   // the tensor's buffer bytes (storage rounded up to whole words)
  bool operator==(const WireTensor&) const = default;
};

struct Header {
  MessageKind kind = MessageKind::kContribution;
  uint64_t epoch = 0;      // the session's grid-run count: a rank may run ahead into the next run
  std::string grid_label;  // which grid this run is (ranks must run the same grids in order)
  WireProcess from;        // the sending rank's process (kDone/kChannelClaim of an idle rank: -1)
  // Collectives: the rendezvous key and its per-process execution count.
  std::string op_name;
  int64_t channel_id = 0;
  std::vector<WireProcess> group;
  int64_t execution = 0;
  // False: a handshake that carries only the types (before a reduction by MPI itself), whose
  // reductions `reduction` names ("add,add"): every member must reduce alike.
  bool has_payload = true;
  std::string reduction;
  std::vector<WireTensor> tensors;
  uint64_t payload_bytes = 0;
  uint64_t chunk_bytes = 0;  // payload_bytes arrive as ceil(payload_bytes / chunk_bytes) messages
  // kDone: the rank's outcome (code 0: it finished cleanly).
  int32_t status_code = 0;
  std::string status_message;
  bool secondary = false;  // the rank failed because another did (it names the other)
  // kDone: channels this rank still holds values for (it sends them once their receiver
  // claims them): a receiver whose peers are all done waits only if one of them lists its channel.
  std::vector<int64_t> pending_channels;

  // Data messages that follow this header.
  uint64_t chunk_count() const;
  bool operator==(const Header&) const = default;
};

std::vector<uint8_t> Encode(const Header& header);
// DATA_LOSS for bytes that are not a header of this version (a foreign or truncated message).
StatusOr<Header> Decode(std::span<const uint8_t> bytes);

// "(r, p)" and "[(r, p), ...]" as the in-process grid's messages write them.
std::string ProcessName(const WireProcess& p);
std::string GroupName(const std::vector<WireProcess>& group);

}  // namespace vkhlo::runtime::mpi

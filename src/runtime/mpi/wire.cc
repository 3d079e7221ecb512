#include "runtime/mpi/wire.h"

#include <fmt/format.h>

#include <cstring>
#include <limits>

namespace vkhlo::runtime::mpi {
namespace {

// "VKMP" and a version: a header from another build of vkhlo is an error, not a misread.
constexpr uint32_t kMagic = 0x504d4b56;
constexpr uint32_t kVersion = 1;
// Bounds a corrupt length field cannot exceed (a group or a tensor list of this size would be
// a grid far beyond any machine).
constexpr uint64_t kMaxItems = 1u << 20;

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(v); }
  void U32(uint32_t v) { Raw(&v, sizeof v); }
  void U64(uint64_t v) { Raw(&v, sizeof v); }
  void I64(int64_t v) { Raw(&v, sizeof v); }
  void Str(const std::string& s) {
    U64(s.size());
    Raw(s.data(), s.size());
  }
  std::vector<uint8_t> Take() { return std::move(out_); }

 private:
  void Raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<uint8_t> out_;
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> in) : in_(in) {}
  bool U8(uint8_t& v) { return Raw(&v, sizeof v); }
  bool U32(uint32_t& v) { return Raw(&v, sizeof v); }
  bool U64(uint64_t& v) { return Raw(&v, sizeof v); }
  bool I64(int64_t& v) { return Raw(&v, sizeof v); }
  bool I32(int32_t& v) { return Raw(&v, sizeof v); }
  bool Str(std::string& s) {
    uint64_t n = 0;
    if (!U64(n) || n > in_.size() - pos_) return false;
    s.assign(reinterpret_cast<const char*>(in_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool Count(uint64_t& n) { return U64(n) && n <= kMaxItems; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool Raw(void* p, size_t n) {
    if (n > in_.size() - pos_) return false;
    std::memcpy(p, in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  std::span<const uint8_t> in_;
  size_t pos_ = 0;
};

void WriteProcess(Writer& w, const WireProcess& p) {
  w.I64(p.replica);
  w.I64(p.partition);
}

bool ReadProcess(Reader& r, WireProcess& p) { return r.I64(p.replica) && r.I64(p.partition); }

}  // namespace

std::string_view MessageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::kContribution: return "contribution";
    case MessageKind::kChannelData: return "channel data";
    case MessageKind::kChannelClaim: return "channel claim";
    case MessageKind::kDone: return "done";
    case MessageKind::kResults: return "results";
  }
  return "unknown";
}

uint64_t Header::chunk_count() const {
  if (payload_bytes == 0 || chunk_bytes == 0) return 0;
  return (payload_bytes + chunk_bytes - 1) / chunk_bytes;
}

std::vector<uint8_t> Encode(const Header& h) {
  Writer w;
  w.U32(kMagic);
  w.U32(kVersion);
  w.U8(static_cast<uint8_t>(h.kind));
  w.U64(h.epoch);
  w.Str(h.grid_label);
  WriteProcess(w, h.from);
  w.Str(h.op_name);
  w.I64(h.channel_id);
  w.U64(h.group.size());
  for (const WireProcess& p : h.group) WriteProcess(w, p);
  w.I64(h.execution);
  w.U8(h.has_payload ? 1 : 0);
  w.Str(h.reduction);
  w.U64(h.tensors.size());
  for (const WireTensor& t : h.tensors) {
    w.Str(t.type.element_type);
    w.U64(t.type.dims.size());
    for (int64_t d : t.type.dims) w.I64(d);
    w.U64(t.offset);
    w.U64(t.bytes);
  }
  w.U64(h.payload_bytes);
  w.U64(h.chunk_bytes);
  w.U32(static_cast<uint32_t>(h.status_code));
  w.Str(h.status_message);
  w.U8(h.secondary ? 1 : 0);
  w.U64(h.pending_channels.size());
  for (int64_t c : h.pending_channels) w.I64(c);
  return w.Take();
}

StatusOr<Header> Decode(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  Header h;
  auto bad = [&](std::string_view what) {
    return DataLossError(fmt::format("a message of {} bytes is not a vkhlo MPI header ({})", bytes.size(), what));
  };
  uint32_t magic = 0, version = 0;
  if (!r.U32(magic) || magic != kMagic) return bad("wrong magic");
  if (!r.U32(version) || version != kVersion) {
    return bad(fmt::format("version {}, this build speaks {}: every rank must run the same vkhlo", version, kVersion));
  }
  uint8_t kind = 0;
  if (!r.U8(kind) || kind < 1 || kind > 5) return bad("unknown kind");
  h.kind = static_cast<MessageKind>(kind);
  uint64_t count = 0;
  if (!r.U64(h.epoch) || !r.Str(h.grid_label) || !ReadProcess(r, h.from) || !r.Str(h.op_name) ||
      !r.I64(h.channel_id) || !r.Count(count)) {
    return bad("truncated");
  }
  h.group.resize(count);
  for (WireProcess& p : h.group) {
    if (!ReadProcess(r, p)) return bad("truncated group");
  }
  uint8_t has_payload = 0;
  if (!r.I64(h.execution) || !r.U8(has_payload) || !r.Str(h.reduction) || !r.Count(count)) return bad("truncated");
  h.has_payload = has_payload != 0;
  h.tensors.resize(count);
  for (WireTensor& t : h.tensors) {
    uint64_t rank = 0;
    if (!r.Str(t.type.element_type) || !r.Count(rank)) return bad("truncated tensor type");
    t.type.dims.resize(rank);
    for (int64_t& d : t.type.dims) {
      if (!r.I64(d)) return bad("truncated dimensions");
    }
    if (!r.U64(t.offset) || !r.U64(t.bytes)) return bad("truncated tensor");
  }
  uint8_t secondary = 0;
  if (!r.U64(h.payload_bytes) || !r.U64(h.chunk_bytes) || !r.I32(h.status_code) || !r.Str(h.status_message) ||
      !r.U8(secondary) || !r.Count(count)) {
    return bad("truncated");
  }
  h.secondary = secondary != 0;
  h.pending_channels.resize(count);
  for (int64_t& c : h.pending_channels) {
    if (!r.I64(c)) return bad("truncated channels");
  }
  if (!r.at_end()) return bad("trailing bytes");
  for (const WireTensor& t : h.tensors) {
    if (t.offset > h.payload_bytes || t.bytes > h.payload_bytes - t.offset) return bad("a tensor outside the payload");
  }
  if (h.payload_bytes > 0 && h.chunk_bytes == 0) return bad("a payload without a chunk size");
  return h;
}

std::string ProcessName(const WireProcess& p) { return fmt::format("({}, {})", p.replica, p.partition); }

std::string GroupName(const std::vector<WireProcess>& group) {
  std::string out = "[";
  for (size_t i = 0; i < group.size(); ++i) out += (i ? ", " : "") + ProcessName(group[i]);
  return out + "]";
}

}  // namespace vkhlo::runtime::mpi

#include "plan/plan_reader.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "plan/byte_reader.h"
#include "plan/crc32.h"
#include "plan/format.h"
#include "plan/plan_fields.h"

namespace vkhlo::plan {
namespace {

// The coder of plan_fields.h that reads; every failure names the field and its offset.
class Decoder {
 public:
  explicit Decoder(ByteReader& in) : in_(in) {}
  Status U8(std::string_view what, uint8_t& v) { return Take(in_.U8(what), v); }
  Status U16(std::string_view what, uint16_t& v) { return Take(in_.U16(what), v); }
  Status U32(std::string_view what, uint32_t& v) { return Take(in_.U32(what), v); }
  Status U64(std::string_view what, uint64_t& v) { return Take(in_.U64(what), v); }
  Status I32(std::string_view what, int32_t& v) { return Take(in_.I32(what), v); }
  Status I64(std::string_view what, int64_t& v) { return Take(in_.I64(what), v); }
  Status Bool(std::string_view what, bool& v) { return Take(in_.Bool(what), v); }
  Status String(std::string_view what, std::string& v) { return Take(in_.String(what), v); }
  Status Bytes(std::string_view what, std::vector<uint8_t>& v) { return Take(in_.Bytes(what), v); }
  Status Digest(std::string_view what, std::array<uint8_t, 32>& v) {
    VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> raw, in_.Raw(what, v.size()));
    std::copy(raw.begin(), raw.end(), v.begin());
    return OkStatus();
  }
  Status BoolList(std::string_view what, std::vector<bool>& v) {
    VKHLO_ASSIGN_OR_RETURN(size_t n, in_.Count(what, 1));
    v.assign(n, false);
    for (size_t i = 0; i < n; ++i) {
      VKHLO_ASSIGN_OR_RETURN(bool b, in_.Bool(what));
      v[i] = b;
    }
    return OkStatus();
  }
  template <class E>
  Status Enum(std::string_view what, E& e, E last) {
    const uint64_t at = in_.offset();
    VKHLO_ASSIGN_OR_RETURN(uint8_t v, in_.U8(what));
    if (v > static_cast<uint8_t>(last)) {
      return in_.ErrorAt(at, what, "unknown value " + std::to_string(v) + " (at most " +
                                       std::to_string(static_cast<uint8_t>(last)) + ")");
    }
    e = static_cast<E>(v);
    return OkStatus();
  }
  // The count is checked against what remains at `min_bytes` per element before the vector
  // grows, so its size stays proportional to the file's.
  template <class T, class F>
  Status List(std::string_view what, std::vector<T>& v, uint64_t min_bytes, F each) {
    VKHLO_ASSIGN_OR_RETURN(size_t n, in_.Count(std::string(what) + " count", min_bytes));
    v.clear();
    v.resize(n);
    for (size_t i = 0; i < n; ++i) {
      Status s = each(v[i]);
      if (!s.ok()) return s.WithContext(std::string(what) + "[" + std::to_string(i) + "]");
    }
    return OkStatus();
  }
  template <class... T>
  Status Variant(std::string_view what, std::variant<T...>& v) {
    const uint64_t at = in_.offset();
    VKHLO_ASSIGN_OR_RETURN(uint8_t index, in_.U8(what));
    if (index >= sizeof...(T)) {
      return in_.ErrorAt(at, what, "unknown kind " + std::to_string(index) + " (at most " + std::to_string(sizeof...(T) - 1) + ")");
    }
    Emplace<0>(v, index);
    return OkStatus();
  }
  Status Depth(std::string_view what, int depth) {
    if (depth <= format::kMostTupleDepth) return OkStatus();
    return in_.Error(what, "tuples nested deeper than " + std::to_string(format::kMostTupleDepth));
  }

 private:
  template <class T, class U>
  static Status Take(StatusOr<T> read, U& into) {
    if (!read.ok()) return read.status();
    into = std::move(*read);
    return OkStatus();
  }
  template <size_t I, class V>
  static void Emplace(V& v, size_t index) {
    if constexpr (I < std::variant_size_v<V>) {
      if (index == I) {
        v.template emplace<I>();
        return;
      }
      Emplace<I + 1>(v, index);
    }
  }

  ByteReader& in_;
};

std::string TagName(uint32_t tag) {
  std::string name;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>(tag >> (8 * i) & 0xff);
    if (c < 0x20 || c > 0x7e) {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "0x%08x", tag);
      return hex;
    }
    name.push_back(c);
  }
  return "'" + name + "'";
}

std::string Version(uint16_t major, uint16_t minor) { return std::to_string(major) + "." + std::to_string(minor); }

// The checked prefix: magic, versions, flags, lengths and CRCs. Returns the header's and the
// body's spans (the body may be cut short when only the header is wanted).
struct Prefix {
  uint16_t major = 0, minor = 0;
  uint64_t header_bytes = 0, body_bytes = 0;
  uint32_t header_crc = 0, body_crc = 0;
};

StatusOr<Prefix> ReadPrefix(std::span<const uint8_t> bytes) {
  ByteReader in(bytes);
  VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> magic, in.Raw("magic", format::kMagic.size()));
  if (!std::equal(magic.begin(), magic.end(), format::kMagic.begin())) {
    return in.ErrorAt(0, "magic", "not a vkhlo plan (.vkx) file: it does not start with 89 'VKX' 0D 0A 1A 0A");
  }
  Prefix p;
  VKHLO_ASSIGN_OR_RETURN(p.major, in.U16("format major version"));
  VKHLO_ASSIGN_OR_RETURN(p.minor, in.U16("format minor version"));
  if (p.major != kFormatMajor) {
    return FailedPreconditionError(
        "the plan's format version " + Version(p.major, p.minor) + " is " + (p.major > kFormatMajor ? "newer" : "older") +
        " than the version this vkhlo reads (" + Version(kFormatMajor, kFormatMinor) +
        ", and every " + std::to_string(kFormatMajor) + ".x): compile the program again with this vkhlo");
  }
  const uint64_t flags_at = in.offset();
  VKHLO_ASSIGN_OR_RETURN(uint32_t flags, in.U32("flags"));
  VKHLO_ASSIGN_OR_RETURN(p.header_bytes, in.U64("header length"));
  VKHLO_ASSIGN_OR_RETURN(p.body_bytes, in.U64("body length"));
  VKHLO_ASSIGN_OR_RETURN(p.header_crc, in.U32("header CRC-32"));
  VKHLO_ASSIGN_OR_RETURN(p.body_crc, in.U32("body CRC-32"));
  if (p.header_bytes > in.remaining()) {
    return in.ErrorAt(16, "header length", std::to_string(p.header_bytes) + " bytes claimed, " +
                                              std::to_string(in.remaining()) + " follow the prefix");
  }
  const uint32_t crc = Crc32(bytes.subspan(format::kPrefixBytes, p.header_bytes),
                             Crc32(bytes.first(format::kCheckedPrefixBytes)));
  if (crc != p.header_crc) {
    return in.ErrorAt(32, "header CRC-32", "the header is corrupted (CRC-32 " + std::to_string(crc) + ", the file says " +
                                              std::to_string(p.header_crc) + ")");
  }
  // Checked after the CRC: a corrupted flags field is reported as corruption above.
  if (flags != 0) return in.ErrorAt(flags_at, "flags", "reserved flags " + std::to_string(flags) + " are set");
  return p;
}

StatusOr<PlanHeader> ParseHeader(std::span<const uint8_t> bytes, const Prefix& p) {
  ByteReader in(bytes.subspan(format::kPrefixBytes, p.header_bytes), format::kPrefixBytes);
  Decoder d(in);
  PlanHeader header;
  Status s = fields::Of(d, header);
  if (!s.ok()) return s.WithContext("header");
  // A newer minor version may append fields to the header; ours has none left over.
  if (!in.done() && p.minor <= kFormatMinor) {
    return in.Error("header", std::to_string(in.remaining()) + " bytes after its last field");
  }
  header.format_major = p.major;
  header.format_minor = p.minor;
  return header;
}

template <class T>
Status ReadTable(ByteReader& in, const char* name, std::vector<T>& table) {
  Decoder d(in);
  VKHLO_RETURN_IF_ERROR(d.List(name, table, 1, [&](T& element) { return fields::Of(d, element); }));
  if (!in.done()) return in.Error(name, std::to_string(in.remaining()) + " bytes after the section's last record");
  return OkStatus();
}

Status ReadEntry(ByteReader& in, uint32_t& entry) {
  VKHLO_ASSIGN_OR_RETURN(entry, in.U32("entry list"));
  if (!in.done()) return in.Error("entry", std::to_string(in.remaining()) + " bytes after the entry list");
  return OkStatus();
}

Status ReadChecks(ByteReader& in, std::optional<TestChecks>& checks) {
  Decoder d(in);
  checks.emplace();
  VKHLO_RETURN_IF_ERROR(fields::Of(d, *checks));
  if (!in.done()) return in.Error("checks", std::to_string(in.remaining()) + " bytes after the checks");
  return OkStatus();
}

Status ReadBody(std::span<const uint8_t> body, uint64_t base, Plan& plan) {
  // The sections this reader knows, each at most once; the required ones exactly once.
  struct Known {
    uint32_t tag;
    std::function<Status(ByteReader&)> read;
    bool seen = false;
  };
  Known known[] = {
      {format::kKernels, [&](ByteReader& in) { return ReadTable(in, "kernels", plan.kernels); }},
      {format::kProfiles, [&](ByteReader& in) { return ReadTable(in, "profiles", plan.profiles); }},
      {format::kConstants, [&](ByteReader& in) { return ReadTable(in, "constants", plan.constants); }},
      {format::kValues, [&](ByteReader& in) { return ReadTable(in, "values", plan.values); }},
      {format::kLists, [&](ByteReader& in) { return ReadTable(in, "step lists", plan.lists); }},
      {format::kEntry, [&](ByteReader& in) { return ReadEntry(in, plan.entry); }},
      {format::kChecks, [&](ByteReader& in) { return ReadChecks(in, plan.checks); }},
      {format::kFftKernels, [&](ByteReader& in) { return ReadTable(in, "FFT kernels", plan.fft_kernels); }},
  };
  ByteReader in(body, base);
  while (!in.done()) {
    const uint64_t at = in.offset();
    VKHLO_ASSIGN_OR_RETURN(uint32_t tag, in.U32("section tag"));
    VKHLO_ASSIGN_OR_RETURN(uint64_t length, in.U64("section length"));
    if (length > in.remaining()) {
      return in.ErrorAt(at + 4, "section " + TagName(tag) + " length",
                        std::to_string(length) + " bytes claimed, " + std::to_string(in.remaining()) + " left");
    }
    const uint64_t payload_at = in.offset();
    VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> payload, in.Raw("section", length));
    Known* section = nullptr;
    for (Known& k : known) section = k.tag == tag ? &k : section;
    if (section == nullptr) {
      if (format::IsOptional(tag)) continue;  // a newer writer's optional section
      return in.ErrorAt(at, "section tag", "unknown required section " + TagName(tag) +
                                               " (written by a newer vkhlo of the same major version?)");
    }
    if (section->seen) return in.ErrorAt(at, "section " + TagName(tag), "appears twice");
    section->seen = true;
    ByteReader payload_reader(payload, payload_at);
    if (Status read = section->read(payload_reader); !read.ok()) return read.WithContext("section " + TagName(tag));
  }
  for (const Known& k : known) {
    if (!k.seen && !format::IsOptional(k.tag)) return in.Error("body", "section " + TagName(k.tag) + " is missing");
  }
  return OkStatus();
}

}  // namespace

StatusOr<PlanHeader> ReadPlanHeader(std::span<const uint8_t> bytes) {
  VKHLO_ASSIGN_OR_RETURN(Prefix prefix, ReadPrefix(bytes));
  return ParseHeader(bytes, prefix);
}

StatusOr<Plan> ReadPlan(std::span<const uint8_t> bytes) {
  VKHLO_ASSIGN_OR_RETURN(Prefix prefix, ReadPrefix(bytes));
  const uint64_t body_at = format::kPrefixBytes + prefix.header_bytes;
  const uint64_t body_left = bytes.size() - body_at;
  if (prefix.body_bytes != body_left) {
    return DataLossError("reading body length at byte 24: the file says " + std::to_string(prefix.body_bytes) +
                         " bytes of body, " + std::to_string(body_left) + " follow the header" +
                         (prefix.body_bytes > body_left ? " (truncated file?)" : ""));
  }
  const std::span<const uint8_t> body = bytes.subspan(body_at);
  if (const uint32_t crc = Crc32(body); crc != prefix.body_crc) {
    return DataLossError("reading body CRC-32 at byte 36: the body is corrupted (CRC-32 " + std::to_string(crc) +
                         ", the file says " + std::to_string(prefix.body_crc) + ")");
  }
  Plan plan;
  VKHLO_ASSIGN_OR_RETURN(plan.header, ParseHeader(bytes, prefix));
  VKHLO_RETURN_IF_ERROR(ReadBody(body, body_at, plan));
  VKHLO_RETURN_IF_ERROR(Validate(plan));
  return plan;
}

}  // namespace vkhlo::plan

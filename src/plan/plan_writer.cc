#include "plan/plan_writer.h"

#include <string_view>

#include "plan/byte_writer.h"
#include "plan/crc32.h"
#include "plan/format.h"
#include "plan/plan_fields.h"

namespace vkhlo::plan {
namespace {

// The coder of plan_fields.h that appends; it never fails.
class Encoder {
 public:
  explicit Encoder(ByteWriter& out) : out_(out) {}
  Status U8(std::string_view, uint8_t& v) { out_.U8(v); return OkStatus(); }
  Status U16(std::string_view, uint16_t& v) { out_.U16(v); return OkStatus(); }
  Status U32(std::string_view, uint32_t& v) { out_.U32(v); return OkStatus(); }
  Status U64(std::string_view, uint64_t& v) { out_.U64(v); return OkStatus(); }
  Status I32(std::string_view, int32_t& v) { out_.I32(v); return OkStatus(); }
  Status I64(std::string_view, int64_t& v) { out_.I64(v); return OkStatus(); }
  Status Bool(std::string_view, bool& v) { out_.Bool(v); return OkStatus(); }
  Status String(std::string_view, std::string& v) { out_.String(v); return OkStatus(); }
  Status Bytes(std::string_view, std::vector<uint8_t>& v) { out_.Bytes(v); return OkStatus(); }
  Status Digest(std::string_view, std::array<uint8_t, 32>& v) { out_.Raw(v); return OkStatus(); }
  Status BoolList(std::string_view, std::vector<bool>& v) {
    out_.Count(v.size());
    for (bool b : v) out_.Bool(b);
    return OkStatus();
  }
  template <class E>
  Status Enum(std::string_view, E& e, E) {
    out_.U8(static_cast<uint8_t>(e));
    return OkStatus();
  }
  template <class T, class F>
  Status List(std::string_view, std::vector<T>& v, uint64_t, F each) {
    out_.Count(v.size());
    for (T& element : v) VKHLO_RETURN_IF_ERROR(each(element));
    return OkStatus();
  }
  template <class... T>
  Status Variant(std::string_view, std::variant<T...>& v) {
    out_.U8(static_cast<uint8_t>(v.index()));
    return OkStatus();
  }
  Status Depth(std::string_view, int) { return OkStatus(); }

 private:
  ByteWriter& out_;
};

// A section: tag, u64 length (patched once the payload is written), payload.
template <class T>
void Section(ByteWriter& body, uint32_t tag, std::vector<T>& table) {
  body.U32(tag);
  const size_t length_at = body.size();
  body.U64(0);
  const size_t start = body.size();
  Encoder e(body);
  e.List("section", table, 1, [&](T& element) { return fields::Of(e, element); }).IgnoreError();
  body.PatchU64(length_at, body.size() - start);
}

}  // namespace

std::vector<uint8_t> WritePlan(const Plan& const_plan) {
  // The encoder takes references for symmetry with the decoder; it only reads them.
  Plan& plan = const_cast<Plan&>(const_plan);

  ByteWriter header;
  {
    Encoder e(header);
    fields::Of(e, plan.header).IgnoreError();  // the encoder never fails
  }

  ByteWriter body;
  Section(body, format::kKernels, plan.kernels);
  Section(body, format::kProfiles, plan.profiles);
  Section(body, format::kConstants, plan.constants);
  Section(body, format::kValues, plan.values);
  Section(body, format::kLists, plan.lists);
  body.U32(format::kEntry);
  body.U64(4);
  body.U32(plan.entry);
  if (plan.checks) {
    body.U32(format::kChecks);
    const size_t length_at = body.size();
    body.U64(0);
    const size_t start = body.size();
    Encoder e(body);
    fields::Of(e, *plan.checks).IgnoreError();
    body.PatchU64(length_at, body.size() - start);
  }
  if (!plan.fft_kernels.empty()) Section(body, format::kFftKernels, plan.fft_kernels);

  ByteWriter file;
  file.Raw(format::kMagic);
  file.U16(plan.header.format_major);
  file.U16(plan.header.format_minor);
  file.U32(0);  // flags
  file.U64(header.size());
  file.U64(body.size());
  const uint32_t header_crc = Crc32(header.bytes(), Crc32(std::span(file.bytes()).first(format::kCheckedPrefixBytes)));
  file.U32(header_crc);
  file.U32(Crc32(body.bytes()));
  file.Raw(header.bytes());
  file.Raw(body.bytes());
  return file.Take();
}

}  // namespace vkhlo::plan

namespace vkhlo::plan {

void ResealPlan(std::span<uint8_t> file) {
  if (file.size() < format::kPrefixBytes) return;
  auto u64 = [&](size_t at) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v |= uint64_t{file[at + i]} << (8 * i);
    return v;
  };
  auto put32 = [&](size_t at, uint32_t v) {
    for (size_t i = 0; i < 4; ++i) file[at + i] = static_cast<uint8_t>(v >> (8 * i));
  };
  const uint64_t header = u64(16), body = u64(24);
  const uint64_t after_prefix = file.size() - format::kPrefixBytes;
  if (header > after_prefix || body > after_prefix - header) return;
  const auto bytes = std::span<const uint8_t>(file);
  put32(32, Crc32(bytes.subspan(format::kPrefixBytes, header), Crc32(bytes.first(format::kCheckedPrefixBytes))));
  put32(36, Crc32(bytes.subspan(format::kPrefixBytes + header, body)));
}

}  // namespace vkhlo::plan

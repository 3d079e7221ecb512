// The .vkx format: round trips, and every way a file can be damaged ending in a clear error
// (never a crash, an assertion or an allocation beyond the file's size).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "plan/crc32.h"
#include "plan/format.h"
#include "plan/plan_reader.h"
#include "plan/plan_writer.h"
#include "tests/plan/sample_plans.h"

namespace vkhlo::plan {
namespace {

using testing::EveryStepPlan;
using testing::IdentityPlan;

bool Contains(const Status& status, const std::string& text) { return status.message().find(text) != std::string::npos; }

void PutU32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// The offset of the first section with `tag` in a file written by WritePlan.
size_t SectionOffset(const std::vector<uint8_t>& file, uint32_t tag) {
  uint64_t header = 0;
  std::memcpy(&header, file.data() + 16, 8);
  size_t at = format::kPrefixBytes + header;
  while (at + 12 <= file.size()) {
    uint32_t t = 0;
    uint64_t length = 0;
    std::memcpy(&t, file.data() + at, 4);
    std::memcpy(&length, file.data() + at + 4, 8);
    if (t == tag) return at;
    at += 12 + length;
  }
  ADD_FAILURE() << "no section " << tag;
  return 0;
}

// `file` with its last `removed` body bytes replaced by `appended`, its length and CRCs mended.
void ResizeBody(std::vector<uint8_t>& file, const std::vector<uint8_t>& appended, size_t removed) {
  file.resize(file.size() - removed);
  file.insert(file.end(), appended.begin(), appended.end());
  uint64_t body = 0;
  std::memcpy(&body, file.data() + 24, 8);
  body = body - removed + appended.size();
  std::memcpy(file.data() + 24, &body, 8);
  ResealPlan(file);
}

TEST(PlanFormat, Crc32CheckValue) {
  const std::string check = "123456789";  // the catalogue's check input for CRC-32/ISO-HDLC
  EXPECT_EQ(Crc32(std::span(reinterpret_cast<const uint8_t*>(check.data()), check.size())), 0xCBF43926u);
}

TEST(PlanFormat, EveryStepPlanIsValid) { EXPECT_TRUE(Validate(EveryStepPlan()).ok()) << Validate(EveryStepPlan()).ToString(); }

TEST(PlanFormat, RoundTripEveryStepKind) {
  const Plan plan = EveryStepPlan();
  const std::vector<uint8_t> file = WritePlan(plan);
  auto read = ReadPlan(file);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(*read == plan);
  // The file depends only on the plan: writing what was read gives the same bytes.
  EXPECT_EQ(WritePlan(*read), file);
  // Every alternative of Step::op is in the sample, so the round trip covers each encoding.
  std::vector<bool> kinds(std::variant_size_v<decltype(Step::op)>, false);
  for (const StepList& list : plan.lists) {
    for (const Segment& segment : list.segments) {
      for (const Step& step : segment.steps) kinds[step.op.index()] = true;
    }
  }
  for (size_t k = 0; k < kinds.size(); ++k) EXPECT_TRUE(kinds[k]) << "no step of kind " << k << " in the sample";
}

TEST(PlanFormat, RoundTripDetectsAChangedField) {
  // The comparison the round trip relies on sees a change deep inside a nested list.
  Plan plan = EveryStepPlan();
  Plan changed = plan;
  std::get<DispatchStep>(changed.lists[6].segments[0].steps[0].op).dispatches[0].grid[2] = 2;
  EXPECT_FALSE(changed == plan);
  auto read = ReadPlan(WritePlan(changed));
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(*read == changed);
  EXPECT_FALSE(*read == plan);
}

TEST(PlanFormat, HeaderReadsWithoutTheBody) {
  const Plan plan = EveryStepPlan();
  const std::vector<uint8_t> file = WritePlan(plan);
  uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, file.data() + 16, 8);
  // Only the prefix and the header: enough for a tool to show the requirements.
  const std::span<const uint8_t> head = std::span(file).first(format::kPrefixBytes + header_bytes);
  auto header = ReadPlanHeader(head);
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_TRUE(*header == plan.header);
  EXPECT_EQ(header->requirements.profile, "mobile");
  // ReadPlan insists on the whole file.
  auto cut = ReadPlan(head);
  ASSERT_FALSE(cut.ok());
  EXPECT_TRUE(Contains(cut.status(), "truncated")) << cut.status().ToString();
}

TEST(PlanFormat, EveryTruncationIsAnError) {
  const std::vector<uint8_t> file = WritePlan(EveryStepPlan());
  for (size_t n = 0; n < file.size(); ++n) {
    auto read = ReadPlan(std::span(file).first(n));
    ASSERT_FALSE(read.ok()) << "a file cut to " << n << " of " << file.size() << " bytes was read";
    EXPECT_EQ(read.status().code(), StatusCode::kDataLoss) << read.status().ToString();
  }
}

TEST(PlanFormat, TrailingBytesAreAnError) {
  std::vector<uint8_t> file = WritePlan(IdentityPlan());
  file.push_back(0);
  auto read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "follow the header")) << read.status().ToString();
}

TEST(PlanFormat, EverySingleByteCorruptionIsAnError) {
  const std::vector<uint8_t> file = WritePlan(EveryStepPlan());
  for (size_t at = 0; at < file.size(); ++at) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> bad = file;
      bad[at] ^= flip;
      auto read = ReadPlan(bad);
      ASSERT_FALSE(read.ok()) << "byte " << at << " ^ " << int(flip) << " went unnoticed";
    }
  }
}

TEST(PlanFormat, WrongMagicSaysWhatTheFileIsNot) {
  std::vector<uint8_t> file = WritePlan(IdentityPlan());
  file[1] = 'X';
  auto read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kDataLoss);
  EXPECT_TRUE(Contains(read.status(), "not a vkhlo plan (.vkx) file")) << read.status().ToString();
  EXPECT_TRUE(Contains(read.status(), "at byte 0")) << read.status().ToString();
  const std::string text = "module @m { func.func @main() { return } }";
  auto mlir = ReadPlan(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  EXPECT_TRUE(Contains(mlir.status(), "not a vkhlo plan")) << mlir.status().ToString();
}

TEST(PlanFormat, NewerAndOlderMajorVersionsNameBothVersions) {
  Plan plan = IdentityPlan();
  plan.header.format_major = kFormatMajor + 1;
  plan.header.format_minor = 3;
  auto newer = ReadPlan(WritePlan(plan));
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.status().code(), StatusCode::kFailedPrecondition);
  const std::string ours = std::to_string(kFormatMajor) + "." + std::to_string(kFormatMinor);
  EXPECT_TRUE(Contains(newer.status(), std::to_string(kFormatMajor + 1) + ".3 is newer")) << newer.status().ToString();
  EXPECT_TRUE(Contains(newer.status(), "(" + ours)) << newer.status().ToString();
  // The header alone says the same.
  EXPECT_EQ(ReadPlanHeader(WritePlan(plan)).status(), newer.status());

  plan.header.format_major = 0;
  auto older = ReadPlan(WritePlan(plan));
  ASSERT_FALSE(older.ok());
  EXPECT_TRUE(Contains(older.status(), "0.3 is older")) << older.status().ToString();
}

TEST(PlanFormat, NewerMinorVersionIsReadAndUnknownOptionalSectionsSkipped) {
  Plan plan = IdentityPlan();
  plan.header.format_minor = kFormatMinor + 1;
  std::vector<uint8_t> file = WritePlan(plan);
  // Append an optional section ('note') a newer writer might add; the body grows by its size.
  const std::vector<uint8_t> note = {'n', 'o', 't', 'e', 3, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c'};
  const size_t note_at = file.size();
  ResizeBody(file, note, 0);
  auto read = ReadPlan(file);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->header.format_minor, kFormatMinor + 1);
  EXPECT_TRUE(read->lists == plan.lists);

  // An unknown required section (upper-case tag) is an error naming it.
  std::vector<uint8_t> required = file;
  required.at(note_at) = 'N';
  ResealPlan(required);
  auto refused = ReadPlan(required);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(Contains(refused.status(), "unknown required section 'Note'")) << refused.status().ToString();
}

TEST(PlanFormat, EachKnownSectionExactlyOnce) {
  const std::vector<uint8_t> file = WritePlan(IdentityPlan());
  const size_t entry = SectionOffset(file, format::kEntry);  // the last section
  const std::vector<uint8_t> entry_section(file.begin() + static_cast<long>(entry), file.end());

  std::vector<uint8_t> missing = file;
  ResizeBody(missing, {}, entry_section.size());
  auto read = ReadPlan(missing);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "section 'ENTR' is missing")) << read.status().ToString();

  std::vector<uint8_t> twice = file;
  ResizeBody(twice, entry_section, 0);
  read = ReadPlan(twice);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "section 'ENTR' at byte " + std::to_string(file.size()) + ": appears twice"))
      << read.status().ToString();
}

// A test program's checks travel in an optional section after the others: a file without it is
// a plan without checks, and a plan without checks writes none.
TEST(PlanFormat, ChecksAreAnOptionalSection) {
  Plan plan = EveryStepPlan();
  plan.fft_kernels.clear();  // the checks are then the last section
  ASSERT_TRUE(plan.checks.has_value());
  const std::vector<uint8_t> file = WritePlan(plan);
  const size_t checks = SectionOffset(file, format::kChecks);
  std::vector<uint8_t> without = file;
  ResizeBody(without, {}, file.size() - checks);
  auto read = ReadPlan(without);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_FALSE(read->checks.has_value());
  read->checks = plan.checks;
  EXPECT_TRUE(*read == plan);
  plan.checks.reset();
  EXPECT_EQ(WritePlan(plan), without);
}

TEST(PlanFormat, FftKernelsAreAnOptionalSectionAfterTheChecks) {
  Plan plan = EveryStepPlan();
  ASSERT_EQ(plan.fft_kernels.size(), 1u);
  const std::vector<uint8_t> file = WritePlan(plan);
  const size_t fft = SectionOffset(file, format::kFftKernels);
  EXPECT_GT(fft, SectionOffset(file, format::kChecks));
  std::vector<uint8_t> without = file;
  ResizeBody(without, {}, file.size() - fft);
  auto read = ReadPlan(without);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_TRUE(read->fft_kernels.empty());
  read->fft_kernels = plan.fft_kernels;
  EXPECT_TRUE(*read == plan);
  plan.fft_kernels.clear();
  EXPECT_EQ(WritePlan(plan), without);
}

TEST(PlanFormat, HugeCountsFailBeforeAllocating) {
  const std::vector<uint8_t> file = WritePlan(EveryStepPlan());
  // The kernel count, then the first kernel's SPIR-V word count, set to 2^32 - 1 (with valid
  // CRCs, so the reader reaches them): each must fail on the bytes left, at the count's offset.
  const size_t kernels = SectionOffset(file, format::kKernels) + 12;
  std::vector<uint8_t> bad = file;
  PutU32(bad, kernels, 0xffffffffu);
  ResealPlan(bad);
  auto read = ReadPlan(bad);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kDataLoss);
  EXPECT_TRUE(Contains(read.status(), "reading kernels count at byte " + std::to_string(kernels))) << read.status().ToString();
  EXPECT_TRUE(Contains(read.status(), "4294967295 elements")) << read.status().ToString();

  bad = file;
  const size_t name_length = kernels + 4;
  const size_t words = name_length + 4 + EveryStepPlan().kernels[0].name.size();
  PutU32(bad, words, 0xfffffff0u);
  ResealPlan(bad);
  read = ReadPlan(bad);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "kernels[0]: reading SPIR-V words count at byte " + std::to_string(words)))
      << read.status().ToString();

  // A 64-bit length (the header's) claiming 2^60 bytes.
  bad = file;
  const uint64_t huge = uint64_t{1} << 60;
  std::memcpy(bad.data() + 16, &huge, 8);
  read = ReadPlan(bad);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "header length at byte 16")) << read.status().ToString();
}

TEST(PlanFormat, ErrorsNameTheRecordsAroundTheField) {
  // The fft step of main (segment 0, step 4): barrier 2, kind 3, rfft, f64, one length of 4.
  std::vector<uint8_t> file = WritePlan(EveryStepPlan());
  const std::vector<uint8_t> fft = {2, 3, 2, 1, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0};
  auto it = std::search(file.begin(), file.end(), fft.begin(), fft.end());
  ASSERT_NE(it, file.end());
  const size_t count_at = static_cast<size_t>(it - file.begin()) + 4;
  PutU32(file, count_at, 0x7fffffffu);
  ResealPlan(file);
  auto read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "section 'LIST': step lists[0]: segments[0]: steps[4]: reading fft lengths count at byte " +
                                          std::to_string(count_at) + ": 2147483647 elements need at least 17179869176 bytes"))
      << read.status().ToString();

  // An enum beyond its last value: the fft type.
  file = WritePlan(EveryStepPlan());
  file[count_at - 2] = 9;
  ResealPlan(file);
  read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "reading fft type at byte " + std::to_string(count_at - 2) + ": unknown value 9 (at most 3)"))
      << read.status().ToString();
}

TEST(PlanFormat, BadEnumAndFlagValuesNameTheField) {
  // The entry section's list index beyond the lists: a valid file with a bad reference fails
  // validation, naming it.
  std::vector<uint8_t> file = WritePlan(IdentityPlan());
  const size_t entry = SectionOffset(file, format::kEntry) + 12;
  PutU32(file, entry, 9);
  ResealPlan(file);
  auto read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "entry list 9 of 1")) << read.status().ToString();

  // Reserved flags.
  file = WritePlan(IdentityPlan());
  file[12] = 1;
  ResealPlan(file);
  read = ReadPlan(file);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "reserved flags")) << read.status().ToString();
}

TEST(PlanFormat, DeeplyNestedTuplesAreRefused) {
  Plan plan = IdentityPlan();
  EntryType nested = plan.header.results[0];
  for (int i = 0; i < format::kMostTupleDepth + 2; ++i) nested = EntryType{EntryType::Kind::kTuple, {}, {nested}};
  plan.header.results = {nested};
  EXPECT_FALSE(Validate(plan).ok());
  auto read = ReadPlan(WritePlan(plan));
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(Contains(read.status(), "nested deeper than")) << read.status().ToString();
}

}  // namespace
}  // namespace vkhlo::plan

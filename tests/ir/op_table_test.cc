// The op table's traits (ir/op_table.def): the columns other modules look up instead of
// switching on op codes must stay consistent with the ops' kinds and with each other.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ir/op_table.h"

namespace vkhlo::ir {
namespace {

TEST(OpTableTest, RowsAreInOpCodeOrderAndNamesAreUnique) {
  std::set<std::string_view> names;
  for (int i = 0; i < NumOpCodes(); ++i) {
    const OpInfo& info = GetOpInfo(static_cast<OpCode>(i));
    EXPECT_EQ(static_cast<int>(info.code), i);
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(LookupOp(info.name), info.code) << info.name;
  }
}

TEST(OpTableTest, WhereAnOpRunsAgreesWithItsKind) {
  for (int i = 0; i < NumOpCodes(); ++i) {
    const OpInfo& info = GetOpInfo(static_cast<OpCode>(i));
    SCOPED_TRACE(std::string(info.name));
    switch (info.kind) {
      case OpKind::kChlo: EXPECT_EQ(info.runs, OpRuns::kDecomposed); break;
      case OpKind::kTest: EXPECT_EQ(info.runs, OpRuns::kInterpreter); break;
      case OpKind::kCollective: EXPECT_EQ(info.runs, OpRuns::kHost); break;
      case OpKind::kReduction: EXPECT_EQ(info.runs, OpRuns::kKernel); break;
      default: EXPECT_NE(info.runs, OpRuns::kInterpreter); break;
    }
  }
  // Regions the runtime runs step by step, and what it does itself.
  for (OpCode code : {OpCode::kWhile, OpCode::kIf, OpCode::kCase, OpCode::kCall, OpCode::kCustomCall,
                      OpCode::kTuple, OpCode::kGetTupleElement, OpCode::kInfeed, OpCode::kOutfeed}) {
    EXPECT_EQ(GetOpInfo(code).runs, OpRuns::kHost) << GetOpInfo(code).name;
  }
  for (OpCode code : {OpCode::kDotGeneral, OpCode::kConvolution, OpCode::kFft}) {
    EXPECT_EQ(GetOpInfo(code).runs, OpRuns::kLibrary) << GetOpInfo(code).name;
  }
  EXPECT_EQ(GetOpInfo(OpCode::kBatchNormInference).runs, OpRuns::kDecomposed);
}

TEST(OpTableTest, ElementCostsAreTheFusionPlannersScale) {
  for (int i = 0; i < NumOpCodes(); ++i) {
    const OpInfo& info = GetOpInfo(static_cast<OpCode>(i));
    EXPECT_TRUE(info.element_cost == 0 || info.element_cost == 1 || info.element_cost == 4 || info.element_cost == 16)
        << info.name << ": " << info.element_cost;
  }
  EXPECT_EQ(GetOpInfo(OpCode::kReshape).element_cost, 0);
  EXPECT_EQ(GetOpInfo(OpCode::kAdd).element_cost, 1);
  EXPECT_EQ(GetOpInfo(OpCode::kDivide).element_cost, 4);
  EXPECT_EQ(GetOpInfo(OpCode::kTanh).element_cost, 16);
}

TEST(OpTableTest, PrettyFormsNameTheirKeywordsOnce) {
  for (int i = 0; i < NumOpCodes(); ++i) {
    const OpInfo& info = GetOpInfo(static_cast<OpCode>(i));
    SCOPED_TRACE(std::string(info.name));
    const PrettyForm& form = info.pretty;
    if (form.special != SpecialForm::kNone) EXPECT_EQ(form.num_keywords, 0);
    std::set<std::string_view> keywords;
    for (const PrettyKeyword& keyword : form.keywords()) {
      EXPECT_FALSE(keyword.keyword.empty());
      EXPECT_TRUE(keywords.insert(keyword.keyword).second) << keyword.keyword;
      EXPECT_EQ(keyword.value == KeywordValue::kEnum, !keyword.enum_kind.empty()) << keyword.keyword;
      // Only reduce_precision's `format = e5m2` sets attributes named by the value itself.
      EXPECT_EQ(keyword.attribute.empty(), keyword.value == KeywordValue::kExpMantissa) << keyword.keyword;
    }
  }
  const PrettyForm& pad = GetOpInfo(OpCode::kPad).pretty;
  ASSERT_EQ(pad.num_keywords, 3);
  EXPECT_EQ(pad.keywords()[2].keyword, "interior");
  EXPECT_EQ(pad.keywords()[2].attribute, "interior_padding");
  EXPECT_EQ(pad.types, TypeForm::kFunctional);
  EXPECT_EQ(GetOpInfo(OpCode::kCompare).pretty.special, SpecialForm::kCompare);
}

}  // namespace
}  // namespace vkhlo::ir

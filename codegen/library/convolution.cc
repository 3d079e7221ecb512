// convolution -> MatmulProblem (implicit GEMM). The lhs index of (group, output position,
// window position + input feature) is computed in the kernel from the attributes: window
// strides, padding (negative padding crops), lhs dilation (holes read as zero), rhs dilation,
// window reversal, any dimension numbers, 1 to N spatial dimensions, feature_group_count
// (depthwise included) and batch_group_count. Nothing is materialized.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/conv_params.h"
#include "codegen/library/matmul_problem.h"
#include "ir/type.h"

namespace vkhlo::codegen::library {
namespace {

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

// GLSL statements splitting `index` (a uint expression) row-major over `sizes` into
// `<prefix>0..` (uint variables).
std::string Decompose(const std::string& index, const std::vector<int64_t>& sizes, const std::string& prefix) {
  std::string out = fmt::format("uint {}rest = {};\n", prefix, index);
  for (size_t d = sizes.size(); d-- > 0;) {
    if (d == 0) {
      out += fmt::format("uint {}{} = {}rest;\n", prefix, d, prefix);
    } else {
      out += fmt::format("uint {0}{1} = {0}rest % {2}u; {0}rest /= {2}u;\n", prefix, d, sizes[d]);
    }
  }
  return out;
}

}  // namespace

StatusOr<MatmulProblem> NormalizeConvolution(const ir::Operation& op) {
  VKHLO_ASSIGN_OR_RETURN(ConvParams c, ReadConvParams(op));
  return ConvolutionAsMatmul(c);
}

StatusOr<MatmulProblem> ConvolutionAsMatmul(const ConvParams& c) {
  const size_t s = c.spatial();
  const auto ls = ir::RowMajorStrides(c.lhs_dims), ks = ir::RowMajorStrides(c.rhs_dims), os = ir::RowMajorStrides(c.out_dims);
  const auto& dn = c.dn;

  MatmulProblem p;
  p.what = c.what;
  p.a_type = c.lhs_type;
  p.b_type = c.rhs_type;
  p.c_type = c.out_type;
  VKHLO_ASSIGN_OR_RETURN(p.acc, AccumulatorFor(p.a_type, p.b_type, p.c_type));
  p.quant = c.quant;
  if (p.quant) p.acc = p.quant->hybrid ? ComputeDomain(p.quant->expressed) : AccKind::kI32;
  const int64_t groups = c.feature_groups * c.batch_groups;
  const int64_t per_group = c.out_features / groups;
  std::vector<int64_t> out_sp(s), win(s);
  int64_t out_positions = 1, window = 1;
  for (size_t d = 0; d < s; ++d) {
    out_sp[d] = c.out_dims[dn.output_spatial_dimensions[d]];
    win[d] = c.rhs_dims[dn.kernel_spatial_dimensions[d]];
    out_positions *= out_sp[d];
    window *= win[d];
  }
  p.batch = groups;
  p.m = c.out_batch * out_positions;
  p.n = per_group;
  p.k = window * c.in_features_per_group;
  p.result_dims = c.out_dims;

  // A: the input at (group, m = (batch, out position), k = (window position, feature)).
  {
    std::vector<int64_t> m_sizes = {c.out_batch};
    m_sizes.insert(m_sizes.end(), out_sp.begin(), out_sp.end());
    std::vector<int64_t> k_sizes = win;
    k_sizes.push_back(c.in_features_per_group);
    std::string code = Decompose("r", m_sizes, "o") + Decompose("c", k_sizes, "w");
    const std::string gb = c.batch_groups > 1 ? "b" : "0u", gf = c.feature_groups > 1 ? "b" : "0u";
    code += fmt::format("valid = true;\nidx = ({} * {}u + o0) * {}u + ({} * {}u + w{}) * {}u;\n", gb, c.out_batch,
                        ls[dn.input_batch_dimension], gf, c.in_features_per_group, s,
                        ls[dn.input_feature_dimension]);
    for (size_t d = 0; d < s; ++d) {
      const int64_t in = c.lhs_dims[dn.input_spatial_dimensions[d]];
      const int64_t dilated = in == 0 ? 0 : (in - 1) * c.lhs_dilation[d] + 1;
      code += fmt::format("{{ int pos = int(o{} * {}u + w{} * {}u) - ({});\n", d + 1, c.strides[d], d,
                          c.rhs_dilation[d], c.pad_low[d]);
      if (c.lhs_dilation[d] == 1) {
        code += fmt::format("  valid = valid && pos >= 0 && pos < {};\n  idx += uint(pos) * {}u; }}\n", in,
                            ls[dn.input_spatial_dimensions[d]]);
      } else {
        code += fmt::format(
            "  valid = valid && pos >= 0 && pos < {} && pos % {} == 0;\n  idx += uint(pos / {}) * {}u; }}\n", dilated,
            c.lhs_dilation[d], c.lhs_dilation[d], ls[dn.input_spatial_dimensions[d]]);
      }
    }
    p.a.affine = false;
    p.a.custom_index = code;
    // The same index split into a row part (batch, output position) and a column part (window
    // position, feature), where no lhs dilation makes holes.
    const bool dilated = std::any_of(c.lhs_dilation.begin(), c.lhs_dilation.end(), [](int64_t d) { return d != 1; });
    if (!dilated && s <= 4 && Product(c.lhs_dims) < (int64_t{1} << 31)) {
      std::string row = Decompose("r", m_sizes, "o");
      row += fmt::format("base = int(({} * {}u + o0) * {}u + {} * {}u);\npos = ivec4(0);\n", gb, c.out_batch,
                         ls[dn.input_batch_dimension], gf, c.in_features_per_group * ls[dn.input_feature_dimension]);
      std::string col = Decompose("c", k_sizes, "w");
      col += fmt::format("base = int(w{} * {}u);\npos = ivec4(0);\n", s, ls[dn.input_feature_dimension]);
      for (size_t d = 0; d < s; ++d) {
        const int64_t stride = ls[dn.input_spatial_dimensions[d]];
        row += fmt::format("pos[{0}] = int(o{1} * {2}u) - ({3});\nbase += pos[{0}] * {4};\n", d, d + 1, c.strides[d],
                           c.pad_low[d], stride);
        col += fmt::format("pos[{0}] = int(w{0} * {1}u);\nbase += pos[{0}] * {2};\n", d, c.rhs_dilation[d], stride);
        p.a.split_bounds[d] = c.lhs_dims[dn.input_spatial_dimensions[d]];
      }
      p.a.split_row = row;
      p.a.split_col = col;
    }
    p.a.elements = Product(c.lhs_dims);
    // Runs of features are contiguous when the feature dimension is innermost (NHWC).
    if (ls[dn.input_feature_dimension] == 1) {
      for (int v : {8, 4, 2}) {
        if (c.in_features_per_group % v == 0) {
          p.a.col_run = v;
          break;
        }
      }
    }
  }

  // B: the kernel at (group, k = (window position, input feature), n = output feature in group).
  {
    const bool reversed = std::find(c.reversal.begin(), c.reversal.end(), true) != c.reversal.end();
    if (!reversed) {
      p.b.batch.parts = {{groups, per_group * ks[dn.kernel_output_feature_dimension]}};
      for (size_t d = 0; d < s; ++d) p.b.rows.parts.push_back({win[d], ks[dn.kernel_spatial_dimensions[d]]});
      p.b.rows.parts.push_back({c.in_features_per_group, ks[dn.kernel_input_feature_dimension]});
      p.b.cols.parts = {{per_group, ks[dn.kernel_output_feature_dimension]}};
      SetVectorRuns(p.b);
    } else {
      std::vector<int64_t> k_sizes = win;
      k_sizes.push_back(c.in_features_per_group);
      std::string code = Decompose("r", k_sizes, "w");
      code += fmt::format("valid = true;\nidx = w{} * {}u + (b * {}u + c) * {}u;\n", s,
                          ks[dn.kernel_input_feature_dimension], per_group, ks[dn.kernel_output_feature_dimension]);
      for (size_t d = 0; d < s; ++d) {
        const std::string pos = c.reversal[d] ? fmt::format("({}u - w{})", win[d] - 1, d) : fmt::format("w{}", d);
        code += fmt::format("idx += {} * {}u;\n", pos, ks[dn.kernel_spatial_dimensions[d]]);
      }
      p.b.affine = false;
      p.b.custom_index = code;
      if (ks[dn.kernel_output_feature_dimension] == 1) {
        for (int v : {8, 4, 2}) {
          if (per_group % v == 0) {
            p.b.col_run = v;
            break;
          }
        }
      }
    }
  }

  p.b.elements = Product(c.rhs_dims);

  // C: the output at (group, m, n).
  p.c_batch.parts = {{groups, per_group * os[dn.output_feature_dimension]}};
  p.c_rows.parts.push_back({c.out_batch, os[dn.output_batch_dimension]});
  for (size_t d = 0; d < s; ++d) p.c_rows.parts.push_back({out_sp[d], os[dn.output_spatial_dimensions[d]]});
  p.c_cols.parts = {{per_group, os[dn.output_feature_dimension]}};
  return p;
}

}  // namespace vkhlo::codegen::library

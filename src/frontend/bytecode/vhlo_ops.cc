// The ops of the VHLO dialect, StableHLO 0.9.0 to 1.20.0 (StableHLO's VhloOps.td): each
// versioned name, the StableHLO op it stands for, the versions it was current for, and its
// attributes. Every VHLO attribute is required; sorted by name, the attribute list is also
// the order of the op's properties encoding (one attribute index each).
#include "frontend/bytecode/vhlo_ops.h"

#include <charconv>
#include <unordered_map>

namespace vkhlo::frontend::bytecode {
namespace {

constexpr Version kCurrent = kNewestVersion;

struct VhloOpRow {
  std::string_view name;
  std::string_view stablehlo;
  Version first, last;
  std::string_view attributes;  // comma-separated, sorted
};

constexpr VhloOpRow kVhloOps[] = {
    {"abs_v1", "stablehlo.abs", {0, 9, 0}, kCurrent, ""},
    {"add_v1", "stablehlo.add", {0, 9, 0}, kCurrent, ""},
    {"after_all_v1", "stablehlo.after_all", {0, 9, 0}, kCurrent, ""},
    {"all_gather_v1", "stablehlo.all_gather", {0, 9, 0}, {1, 4, 0}, "all_gather_dim,channel_id,replica_groups,use_global_device_ids"},
    {"all_gather_v2", "stablehlo.all_gather", {1, 5, 0}, kCurrent, "all_gather_dim,channel_id,replica_groups,use_global_device_ids"},
    {"all_reduce_v1", "stablehlo.all_reduce", {0, 9, 0}, {1, 4, 0}, "channel_id,replica_groups,use_global_device_ids"},
    {"all_reduce_v2", "stablehlo.all_reduce", {1, 5, 0}, kCurrent, "channel_id,replica_groups,use_global_device_ids"},
    {"all_to_all_v1", "stablehlo.all_to_all", {0, 9, 0}, {1, 4, 0}, "channel_id,concat_dimension,replica_groups,split_count,split_dimension"},
    {"all_to_all_v2", "stablehlo.all_to_all", {1, 5, 0}, kCurrent, "channel_id,concat_dimension,replica_groups,split_count,split_dimension"},
    {"and_v1", "stablehlo.and", {0, 9, 0}, kCurrent, ""},
    {"async_start_v1", "stablehlo.async_start", {1, 15, 0}, kCurrent, ""},
    {"async_done_v1", "stablehlo.async_done", {1, 15, 0}, kCurrent, ""},
    {"atan2_v1", "stablehlo.atan2", {0, 9, 0}, kCurrent, ""},
    {"batch_norm_grad_v1", "stablehlo.batch_norm_grad", {0, 9, 0}, kCurrent, "epsilon,feature_index"},
    {"batch_norm_inference_v1", "stablehlo.batch_norm_inference", {0, 9, 0}, kCurrent, "epsilon,feature_index"},
    {"batch_norm_training_v1", "stablehlo.batch_norm_training", {0, 9, 0}, kCurrent, "epsilon,feature_index"},
    {"bitcast_convert_v1", "stablehlo.bitcast_convert", {0, 9, 0}, kCurrent, ""},
    {"broadcast_in_dim_v1", "stablehlo.broadcast_in_dim", {0, 9, 0}, kCurrent, "broadcast_dimensions"},
    {"broadcast_v1", "stablehlo.broadcast", {0, 9, 0}, kCurrent, "broadcast_sizes"},
    {"call_v1", "func.call", {0, 9, 0}, kCurrent, "callee"},
    {"case_v1", "stablehlo.case", {0, 9, 0}, kCurrent, ""},
    {"cbrt_v1", "stablehlo.cbrt", {0, 9, 0}, {1, 9, 0}, ""},
    {"cbrt_v2", "stablehlo.cbrt", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"ceil_v1", "stablehlo.ceil", {0, 9, 0}, kCurrent, ""},
    {"cholesky_v1", "stablehlo.cholesky", {0, 9, 0}, kCurrent, "lower"},
    {"clamp_v1", "stablehlo.clamp", {0, 9, 0}, kCurrent, ""},
    {"count_leading_zeros_v1", "stablehlo.count_leading_zeros", {0, 9, 0}, kCurrent, ""},
    {"collective_broadcast_v1", "stablehlo.collective_broadcast", {0, 16, 0}, {1, 19, 0}, "channel_id,replica_groups"},
    {"collective_broadcast_v2", "stablehlo.collective_broadcast", {1, 20, 0}, kCurrent, "channel_id,has_dynamic_root,replica_groups"},
    {"collective_reduce_v1", "stablehlo.collective_reduce", {1, 19, 0}, kCurrent, "channel_id,has_dynamic_root,replica_groups,use_global_device_ids"},
    {"collective_permute_v1", "stablehlo.collective_permute", {0, 9, 0}, kCurrent, "channel_id,source_target_pairs"},
    {"compare_v1", "stablehlo.compare", {0, 9, 0}, kCurrent, "compare_type,comparison_direction"},
    {"complex_v1", "stablehlo.complex", {0, 9, 0}, kCurrent, ""},
    {"composite_v1", "stablehlo.composite", {0, 19, 0}, {1, 13, 0}, "composite_attributes,decomposition,name,version"},
    {"composite_v2", "stablehlo.composite", {1, 14, 0}, kCurrent, "composite_attributes,decomposition,name,version"},
    {"concatenate_v1", "stablehlo.concatenate", {0, 9, 0}, kCurrent, "dimension"},
    {"constant_v1", "stablehlo.constant", {0, 9, 0}, kCurrent, "value"},
    {"convert_v1", "stablehlo.convert", {0, 9, 0}, kCurrent, ""},
    {"convolution_v1", "stablehlo.convolution", {0, 9, 0}, kCurrent, "batch_group_count,feature_group_count,input_batch_dimension,input_feature_dimension,input_spatial_dimensions,kernel_input_feature_dimension,kernel_output_feature_dimension,kernel_spatial_dimensions,lhs_dilation,output_batch_dimension,output_feature_dimension,output_spatial_dimensions,padding,precision_config,rhs_dilation,window_reversal,window_strides"},
    {"cosine_v1", "stablehlo.cosine", {0, 9, 0}, {1, 9, 0}, ""},
    {"cosine_v2", "stablehlo.cosine", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"create_token_v1", "stablehlo.create_token", {0, 9, 0}, kCurrent, ""},
    {"cross-replica-sum_v1", "stablehlo.cross-replica-sum", {0, 9, 0}, kCurrent, "replica_groups"},
    {"custom_call_v1", "stablehlo.custom_call", {0, 9, 0}, {1, 17, 0}, "api_version,backend_config,call_target_name,called_computations,has_side_effect,operand_layouts,output_operand_aliases,result_layouts"},
    {"custom_call_v2", "stablehlo.custom_call", {1, 18, 0}, kCurrent, "api_version,backend_config,call_target_name,called_computations,has_side_effect,operand_layouts,output_operand_aliases,result_layouts,result_tilings"},
    {"divide_v1", "stablehlo.divide", {0, 9, 0}, kCurrent, ""},
    {"dot_general_v1", "stablehlo.dot_general", {0, 9, 0}, {1, 5, 0}, "lhs_batching_dimensions,lhs_contracting_dimensions,precision_config,rhs_batching_dimensions,rhs_contracting_dimensions"},
    {"dot_general_v2", "stablehlo.dot_general", {1, 6, 0}, kCurrent, "accumulation_type,allow_imprecise_accumulation,lhs_batching_dimensions,lhs_component_count,lhs_contracting_dimensions,lhs_precision_type,num_primitive_operations,precision_config,rhs_batching_dimensions,rhs_component_count,rhs_contracting_dimensions,rhs_precision_type"},
    {"dot_v1", "stablehlo.dot", {0, 9, 0}, kCurrent, "precision_config"},
    {"dynamic_broadcast_in_dim_v1", "stablehlo.dynamic_broadcast_in_dim", {0, 9, 0}, kCurrent, "broadcast_dimensions,known_expanding_dimensions,known_nonexpanding_dimensions"},
    {"dynamic_conv_v1", "stablehlo.dynamic_conv", {0, 9, 0}, {0, 19, 0}, "batch_group_count,feature_group_count,input_batch_dimension,input_feature_dimension,input_spatial_dimensions,kernel_input_feature_dimension,kernel_output_feature_dimension,kernel_spatial_dimensions,lhs_dilation,output_batch_dimension,output_feature_dimension,output_spatial_dimensions,padding,precision_config,rhs_dilation,window_reversal,window_strides"},
    {"dynamic_conv_v2", "stablehlo.dynamic_conv", {0, 20, 0}, kCurrent, "batch_group_count,feature_group_count,input_batch_dimension,input_feature_dimension,input_spatial_dimensions,kernel_input_feature_dimension,kernel_output_feature_dimension,kernel_spatial_dimensions,lhs_dilation,output_batch_dimension,output_feature_dimension,output_spatial_dimensions,precision_config,rhs_dilation,window_reversal,window_strides"},
    {"dynamic_gather_v1", "stablehlo.dynamic_gather", {0, 9, 0}, {1, 0, 0}, "collapsed_slice_dims,index_vector_dim,indices_are_sorted,offset_dims,start_index_map"},
    {"dynamic_gather_v2", "stablehlo.dynamic_gather", {1, 1, 0}, kCurrent, "collapsed_slice_dims,index_vector_dim,indices_are_sorted,offset_dims,operand_batching_dims,start_index_map,start_indices_batching_dims"},
    {"dynamic_iota_v1", "stablehlo.dynamic_iota", {0, 9, 0}, kCurrent, "iota_dimension"},
    {"dynamic_pad_v1", "stablehlo.dynamic_pad", {0, 9, 0}, kCurrent, ""},
    {"dynamic_reshape_v1", "stablehlo.dynamic_reshape", {0, 9, 0}, kCurrent, ""},
    {"dynamic_slice_v1", "stablehlo.dynamic_slice", {0, 9, 0}, kCurrent, "slice_sizes"},
    {"dynamic_update_slice_v1", "stablehlo.dynamic_update_slice", {0, 9, 0}, kCurrent, ""},
    {"einsum_v1", "stablehlo.einsum", {0, 9, 0}, kCurrent, "einsum_config"},
    {"exponential_minus_one_v1", "stablehlo.exponential_minus_one", {0, 9, 0}, {1, 9, 0}, ""},
    {"exponential_minus_one_v2", "stablehlo.exponential_minus_one", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"exponential_v1", "stablehlo.exponential", {0, 9, 0}, {1, 8, 0}, ""},
    {"exponential_v2", "stablehlo.exponential", {1, 9, 0}, kCurrent, "result_accuracy"},
    {"fft_v1", "stablehlo.fft", {0, 9, 0}, kCurrent, "fft_length,fft_type"},
    {"floor_v1", "stablehlo.floor", {0, 9, 0}, kCurrent, ""},
    {"func_v1", "func.func", {0, 9, 0}, kCurrent, "arg_attrs,function_type,res_attrs,sym_name,sym_visibility"},
    {"gather_v1", "stablehlo.gather", {0, 9, 0}, {1, 0, 0}, "collapsed_slice_dims,index_vector_dim,indices_are_sorted,offset_dims,slice_sizes,start_index_map"},
    {"gather_v2", "stablehlo.gather", {1, 1, 0}, kCurrent, "collapsed_slice_dims,index_vector_dim,indices_are_sorted,offset_dims,operand_batching_dims,slice_sizes,start_index_map,start_indices_batching_dims"},
    {"get_dimension_size_v1", "stablehlo.get_dimension_size", {0, 9, 0}, kCurrent, "dimension"},
    {"get_tuple_element_v1", "stablehlo.get_tuple_element", {0, 9, 0}, kCurrent, "index"},
    {"if_v1", "stablehlo.if", {0, 9, 0}, kCurrent, ""},
    {"imag_v1", "stablehlo.imag", {0, 9, 0}, kCurrent, ""},
    {"infeed_v1", "stablehlo.infeed", {0, 9, 0}, kCurrent, "infeed_config,layout"},
    {"iota_v1", "stablehlo.iota", {0, 9, 0}, kCurrent, "iota_dimension"},
    {"is_finite_v1", "stablehlo.is_finite", {0, 9, 0}, kCurrent, ""},
    {"log_plus_one_v1", "stablehlo.log_plus_one", {0, 9, 0}, {1, 9, 0}, ""},
    {"log_plus_one_v2", "stablehlo.log_plus_one", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"logistic_v1", "stablehlo.logistic", {0, 9, 0}, {1, 9, 0}, ""},
    {"logistic_v2", "stablehlo.logistic", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"log_v1", "stablehlo.log", {0, 9, 0}, {1, 9, 0}, ""},
    {"log_v2", "stablehlo.log", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"map_v1", "stablehlo.map", {0, 9, 0}, kCurrent, "dimensions"},
    {"maximum_v1", "stablehlo.maximum", {0, 9, 0}, kCurrent, ""},
    {"minimum_v1", "stablehlo.minimum", {0, 9, 0}, kCurrent, ""},
    {"multiply_v1", "stablehlo.multiply", {0, 9, 0}, kCurrent, ""},
    {"negate_v1", "stablehlo.negate", {0, 9, 0}, kCurrent, ""},
    {"not_v1", "stablehlo.not", {0, 9, 0}, kCurrent, ""},
    {"optimization_barrier_v1", "stablehlo.optimization_barrier", {0, 9, 0}, kCurrent, ""},
    {"or_v1", "stablehlo.or", {0, 9, 0}, kCurrent, ""},
    {"outfeed_v1", "stablehlo.outfeed", {0, 9, 0}, kCurrent, "outfeed_config"},
    {"pad_v1", "stablehlo.pad", {0, 9, 0}, kCurrent, "edge_padding_high,edge_padding_low,interior_padding"},
    {"partition_id_v1", "stablehlo.partition_id", {0, 9, 0}, kCurrent, ""},
    {"popcnt_v1", "stablehlo.popcnt", {0, 9, 0}, kCurrent, ""},
    {"power_v1", "stablehlo.power", {0, 9, 0}, kCurrent, ""},
    {"real_dynamic_slice_v1", "stablehlo.real_dynamic_slice", {0, 9, 0}, kCurrent, ""},
    {"real_v1", "stablehlo.real", {0, 9, 0}, kCurrent, ""},
    {"recv_v1", "stablehlo.recv", {0, 9, 0}, {1, 11, 0}, "channel_id,channel_type,is_host_transfer"},
    {"recv_v2", "stablehlo.recv", {1, 12, 0}, kCurrent, "channel_id,channel_type,is_host_transfer,source_target_pairs"},
    {"reduce_v1", "stablehlo.reduce", {0, 9, 0}, kCurrent, "dimensions"},
    {"reduce_precision_v1", "stablehlo.reduce_precision", {0, 9, 0}, kCurrent, "exponent_bits,mantissa_bits"},
    {"reduce_scatter_v1", "stablehlo.reduce_scatter", {0, 9, 0}, kCurrent, "channel_id,replica_groups,scatter_dimension,use_global_device_ids"},
    {"reduce_window_v1", "stablehlo.reduce_window", {0, 9, 0}, kCurrent, "base_dilations,padding,window_dilations,window_dimensions,window_strides"},
    {"remainder_v1", "stablehlo.remainder", {0, 9, 0}, kCurrent, ""},
    {"replica_id_v1", "stablehlo.replica_id", {0, 9, 0}, kCurrent, ""},
    {"reshape_v1", "stablehlo.reshape", {0, 9, 0}, kCurrent, ""},
    {"return_v1", "func.return", {0, 9, 0}, kCurrent, ""},
    {"reverse_v1", "stablehlo.reverse", {0, 9, 0}, kCurrent, "dimensions"},
    {"rng_bit_generator_v1", "stablehlo.rng_bit_generator", {0, 9, 0}, kCurrent, "rng_algorithm"},
    {"rng_v1", "stablehlo.rng", {0, 9, 0}, kCurrent, "rng_distribution"},
    {"round_nearest_even_v1", "stablehlo.round_nearest_even", {0, 9, 0}, kCurrent, ""},
    {"round_nearest_afz_v1", "stablehlo.round_nearest_afz", {0, 9, 0}, kCurrent, ""},
    {"rsqrt_v1", "stablehlo.rsqrt", {0, 9, 0}, {1, 9, 0}, ""},
    {"rsqrt_v2", "stablehlo.rsqrt", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"scatter_v1", "stablehlo.scatter", {0, 9, 0}, {1, 0, 0}, "index_vector_dim,indices_are_sorted,inserted_window_dims,scatter_dims_to_operand_dims,unique_indices,update_window_dims"},
    {"scatter_v2", "stablehlo.scatter", {1, 1, 0}, kCurrent, "index_vector_dim,indices_are_sorted,input_batching_dims,inserted_window_dims,scatter_dims_to_operand_dims,scatter_indices_batching_dims,unique_indices,update_window_dims"},
    {"select_and_scatter_v1", "stablehlo.select_and_scatter", {0, 9, 0}, kCurrent, "padding,window_dimensions,window_strides"},
    {"select_v1", "stablehlo.select", {0, 9, 0}, kCurrent, ""},
    {"send_v1", "stablehlo.send", {0, 9, 0}, {1, 11, 0}, "channel_id,channel_type,is_host_transfer"},
    {"send_v2", "stablehlo.send", {1, 12, 0}, kCurrent, "channel_id,channel_type,is_host_transfer,source_target_pairs"},
    {"set_dimension_size_v1", "stablehlo.set_dimension_size", {0, 9, 0}, kCurrent, "dimension"},
    {"shift_left_v1", "stablehlo.shift_left", {0, 9, 0}, kCurrent, ""},
    {"shift_right_arithmetic_v1", "stablehlo.shift_right_arithmetic", {0, 9, 0}, kCurrent, ""},
    {"shift_right_logical_v1", "stablehlo.shift_right_logical", {0, 9, 0}, kCurrent, ""},
    {"sign_v1", "stablehlo.sign", {0, 9, 0}, kCurrent, ""},
    {"sine_v1", "stablehlo.sine", {0, 9, 0}, {1, 9, 0}, ""},
    {"sine_v2", "stablehlo.sine", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"slice_v1", "stablehlo.slice", {0, 9, 0}, kCurrent, "limit_indices,start_indices,strides"},
    {"sort_v1", "stablehlo.sort", {0, 9, 0}, kCurrent, "dimension,is_stable"},
    {"sqrt_v1", "stablehlo.sqrt", {0, 9, 0}, {1, 9, 0}, ""},
    {"sqrt_v2", "stablehlo.sqrt", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"subtract_v1", "stablehlo.subtract", {0, 9, 0}, kCurrent, ""},
    {"tan_v1", "stablehlo.tan", {1, 4, 0}, {1, 9, 0}, ""},
    {"tan_v2", "stablehlo.tan", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"tanh_v1", "stablehlo.tanh", {0, 9, 0}, {1, 9, 0}, ""},
    {"tanh_v2", "stablehlo.tanh", {1, 10, 0}, kCurrent, "result_accuracy"},
    {"torch_index_select_v1", "stablehlo.torch_index_select", {0, 9, 0}, kCurrent, "batch_dims,dim"},
    {"transpose_v1", "stablehlo.transpose", {0, 9, 0}, kCurrent, "permutation"},
    {"triangular_solve_v1", "stablehlo.triangular_solve", {0, 9, 0}, kCurrent, "left_side,lower,transpose_a,unit_diagonal"},
    {"tuple_v1", "stablehlo.tuple", {0, 9, 0}, kCurrent, ""},
    {"unary_einsum_v1", "stablehlo.unary_einsum", {0, 9, 0}, kCurrent, "einsum_config"},
    {"uniform_dequantize_v1", "stablehlo.uniform_dequantize", {0, 9, 0}, kCurrent, ""},
    {"uniform_quantize_v1", "stablehlo.uniform_quantize", {0, 9, 0}, kCurrent, ""},
    {"while_v1", "stablehlo.while", {0, 9, 0}, kCurrent, ""},
    {"xor_v1", "stablehlo.xor", {0, 9, 0}, kCurrent, ""},
};

std::vector<std::string_view> SplitNames(std::string_view list) {
  std::vector<std::string_view> names;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    names.push_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return names;
}

}  // namespace

std::string Version::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<Version> ParseVersion(std::string_view text) {
  int parts[3];
  const char* p = text.data();
  const char* end = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
    auto [next, error] = std::from_chars(p, end, parts[i]);
    if (error != std::errc() || next == p || parts[i] < 0) return std::nullopt;
    p = next;
  }
  if (p != end) return std::nullopt;
  return Version{parts[0], parts[1], parts[2]};
}

const VhloOp* FindVhloOp(std::string_view name) {
  static const auto* ops = [] {
    auto* map = new std::unordered_map<std::string_view, VhloOp>();
    for (const VhloOpRow& row : kVhloOps) {
      map->emplace(row.name, VhloOp{row.name, row.stablehlo, row.first, row.last, SplitNames(row.attributes)});
    }
    return map;
  }();
  auto it = ops->find(name);
  return it == ops->end() ? nullptr : &it->second;
}

}  // namespace vkhlo::frontend::bytecode

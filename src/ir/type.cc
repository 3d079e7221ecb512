#include "ir/type.h"

#include <fmt/format.h>

namespace vkhlo::ir {
namespace {

int64_t CountElements(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

const std::vector<Type>& EmptyTypes() {
  static const std::vector<Type> empty;
  return empty;
}

const std::vector<int64_t>& EmptyBounds() {
  static const std::vector<int64_t> empty;
  return empty;
}

std::string DimText(int64_t d) { return d == kDynamic ? std::string("?") : fmt::format("{}", d); }

std::string FormatScale(double scale) {
  // Shortest text that reads back to the same double.
  std::string text = fmt::format("{}", scale);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

Type Type::Tensor(ElementType element, std::vector<int64_t> dims) {
  Type t;
  t.kind_ = Kind::kTensor;
  t.element_ = element;
  t.num_elements_ = CountElements(dims);
  t.dims_ = std::move(dims);
  return t;
}

Type Type::QuantizedTensor(QuantizedElement element, std::vector<int64_t> dims) {
  Type t = Tensor(element.storage, std::move(dims));
  t.quantized_ = std::make_shared<const QuantizedElement>(std::move(element));
  return t;
}

Type Type::IndexTensor(std::vector<int64_t> dims) {
  Type t = Tensor(ElementType::kS64, std::move(dims));
  t.index_ = true;
  return t;
}

bool Type::is_static() const {
  switch (kind_) {
    case Kind::kTensor:
      for (int64_t d : dims_) {
        if (d == kDynamic) return false;
      }
      return true;
    case Kind::kTuple:
      for (const Type& e : tuple_elements()) {
        if (!e.is_static()) return false;
      }
      return true;
    default:
      return true;
  }
}

const std::vector<int64_t>& Type::bounds() const { return bounds_ ? *bounds_ : EmptyBounds(); }

Type Type::WithBounds(std::vector<int64_t> bounds) const {
  Type t = *this;
  if (bounds.empty()) {
    t.bounds_.reset();
  } else {
    t.bounds_ = std::make_shared<const std::vector<int64_t>>(std::move(bounds));
  }
  return t;
}

Type Type::Tuple(std::vector<Type> elements) {
  Type t;
  t.kind_ = Kind::kTuple;
  t.tuple_ = std::make_shared<const std::vector<Type>>(std::move(elements));
  return t;
}

Type Type::Token() {
  Type t;
  t.kind_ = Kind::kToken;
  return t;
}

const std::vector<Type>& Type::tuple_elements() const { return tuple_ ? *tuple_ : EmptyTypes(); }

Type Type::WithElementType(ElementType element) const {
  Type t = Tensor(element, dims_);
  t.bounds_ = bounds_;
  return t;
}

Type Type::WithDims(std::vector<int64_t> dims) const {
  Type t = *this;
  t.num_elements_ = CountElements(dims);
  t.dims_ = std::move(dims);
  t.bounds_.reset();
  return t;
}

bool Type::operator==(const Type& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kInvalid:
    case Kind::kToken:
      return true;
    case Kind::kTuple:
      return tuple_elements() == other.tuple_elements();
    case Kind::kTensor:
      if (element_ != other.element_ || dims_ != other.dims_ || index_ != other.index_) return false;
      if (bounds() != other.bounds()) return false;
      if (is_quantized() != other.is_quantized()) return false;
      return !is_quantized() || *quantized_ == *other.quantized_;
  }
  return false;
}

std::string QuantizedElementToString(const QuantizedElement& q) {
  std::string s = "!quant.uniform<";
  s += ElementTypeName(q.storage);
  // The storage range is printed only when it is not the full range of the storage type.
  const int bits = BitWidth(q.storage);
  const bool is_signed = IsSignedInteger(q.storage);
  // Computed without overflow for 64-bit storage.
  const int64_t full_min = !is_signed ? 0 : bits >= 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
  const int64_t full_max = is_signed ? (bits >= 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1)
                                     : (bits >= 63 ? INT64_MAX : (int64_t{1} << bits) - 1);
  if (q.storage_min != full_min || q.storage_max != full_max) {
    s += fmt::format("<{}:{}>", q.storage_min, q.storage_max);
  }
  s += ":";
  s += ElementTypeName(q.expressed);
  if (q.quantized_dimension) {
    s += fmt::format(":{}, {{", *q.quantized_dimension);
    for (size_t i = 0; i < q.scales.size(); ++i) {
      s += fmt::format("{}{}:{}", i ? "," : "", FormatScale(q.scales[i]), q.zero_points[i]);
    }
    s += "}>";
  } else {
    s += fmt::format(", {}:{}>", FormatScale(q.scales.empty() ? 1.0 : q.scales[0]),
                     q.zero_points.empty() ? 0 : q.zero_points[0]);
  }
  return s;
}

std::string Type::ToString() const {
  switch (kind_) {
    case Kind::kInvalid:
      return "<invalid type>";
    case Kind::kToken:
      return "!stablehlo.token";
    case Kind::kTuple: {
      std::string s = "tuple<";
      const auto& elements = tuple_elements();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i) s += ", ";
        s += elements[i].ToString();
      }
      return s + ">";
    }
    case Kind::kTensor: {
      std::string s = "tensor<";
      for (int64_t d : dims_) s += DimText(d) + "x";
      s += is_quantized() ? QuantizedElementToString(*quantized_)
           : index_     ? std::string("index")
                        : std::string(ElementTypeName(element_));
      if (bounds_) {
        s += ", #stablehlo.bounds<";
        for (size_t i = 0; i < bounds_->size(); ++i) s += (i ? ", " : "") + DimText((*bounds_)[i]);
        s += ">";
      }
      return s + ">";
    }
  }
  return "<invalid type>";
}

std::string DimsToString(const std::vector<int64_t>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "x" : "") + DimText(dims[i]);
  return s;
}

std::string FunctionType::ToString() const {
  std::string s = "(";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) s += ", ";
    s += inputs[i].ToString();
  }
  s += ") -> ";
  if (results.size() == 1 && !results[0].is_tuple()) return s + results[0].ToString();
  s += "(";
  for (size_t i = 0; i < results.size(); ++i) {
    if (i) s += ", ";
    s += results[i].ToString();
  }
  return s + ")";
}

std::vector<int64_t> RowMajorStrides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= dims[d] > 1 ? dims[d] : 1;
  }
  return strides;
}

}  // namespace vkhlo::ir

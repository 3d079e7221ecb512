#include "vkhlo/literal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include "builder/literal_text.h"
#include "builder/type_conversion.h"
#include "ir/literal.h"

namespace vkhlo {
namespace {

// Strides (in elements) of each dimension in the physical order of `layout`.
std::vector<int64_t> PhysicalStrides(const Shape& shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 0);
  int64_t stride = 1;
  for (int64_t dim : shape.layout().minor_to_major()) {
    strides[static_cast<size_t>(dim)] = stride;
    stride *= shape.dimensions(static_cast<int>(dim));
  }
  return strides;
}

// Calls visit(row_major_index, physical_index) for every element of an array shape.
template <typename Visit>
void ForEachElement(const Shape& shape, Visit visit) {
  const int64_t count = ShapeUtil::ElementsIn(shape);
  if (count == 0) return;
  const std::vector<int64_t> strides = PhysicalStrides(shape);
  std::vector<int64_t> index(static_cast<size_t>(shape.rank()), 0);
  int64_t physical = 0;
  for (int64_t logical = 0; logical < count; ++logical) {
    visit(logical, physical);
    for (int64_t d = shape.rank() - 1; d >= 0; --d) {
      const size_t i = static_cast<size_t>(d);
      ++index[i];
      physical += strides[i];
      if (index[i] < shape.dimensions(static_cast<int>(d))) break;
      physical -= strides[i] * index[i];
      index[i] = 0;
    }
  }
}

// Brings bytes from outside into the storage invariants: PRED 0/1, sub-byte integers sign- or
// zero-extended, sub-byte floats in their low bits.
void NormalizeStorage(PrimitiveType type, std::vector<uint8_t>& bytes) {
  const int bits = primitive_util::BitWidth(type);
  if (bits >= 8) return;
  for (uint8_t& byte : bytes) {
    if (type == PRED) {
      byte = byte != 0 ? 1 : 0;
    } else if (primitive_util::IsSignedIntegralType(type)) {
      const int shift = 8 - bits;
      byte = static_cast<uint8_t>(static_cast<int8_t>(static_cast<uint8_t>(byte << shift)) >> shift);
    } else {
      byte = static_cast<uint8_t>(byte & ((1u << bits) - 1));
    }
  }
}

// XLA's text of an array (see Literal::ToString).
void ArrayToString(const Literal& literal, std::string& out) {
  const Shape& shape = literal.shape();
  const int64_t rank = shape.rank();
  const int width = primitive_util::ByteWidth(shape.element_type());
  const auto* storage = static_cast<const uint8_t*>(literal.untyped_data());
  int64_t linear = 0;
  std::vector<int64_t> index;
  auto brace = [&](bool open, int64_t remaining_rank, int64_t size) -> std::string {
    if (rank == 1) return open ? "{" : "}";
    if (remaining_rank == 1) {
      if (open) return size <= 1 ? "  {" : "  { ";
      return size <= 1 ? "}" : " }";
    }
    if (open) {
      if (rank > 3 && !index.empty()) return fmt::format("{{ /*i{}={}*/\n", index.size() - 1, index.back());
      return "{\n";
    }
    return "\n}";
  };
  auto recurse = [&](auto& self, int64_t dim) -> void {
    if (dim == rank) {
      if (shape.element_type() == PRED && rank > 0) {
        out += storage[linear] != 0 ? "1" : "0";
      } else {
        out += internal::ElementToString(shape.element_type(), storage + linear * width);
      }
      ++linear;
      return;
    }
    const int64_t size = shape.dimensions(static_cast<int>(dim));
    out += brace(true, rank - dim, size);
    for (int64_t i = 0; i < size; ++i) {
      index.push_back(i);
      self(self, dim + 1);
      index.pop_back();
      if (i + 1 < size) out += rank - dim > 1 ? ",\n" : ", ";
    }
    out += brace(false, rank - dim, size);
  };
  recurse(recurse, 0);
}

void ToStringHelper(const Literal& literal, bool print_shape, bool print_layout, std::string& out) {
  const Shape& shape = literal.shape();
  if (shape.IsTuple()) {
    out += "(\n";
    for (size_t i = 0; i < literal.tuple_elements().size(); ++i) {
      if (i > 0) out += ",\n";
      ToStringHelper(literal.tuple_elements()[i], print_shape, print_layout, out);
    }
    out += "\n)";
    return;
  }
  if (shape.IsToken()) {
    out += "token";
    return;
  }
  if (print_shape) {
    out += shape.ToString(print_layout);
    out += " ";
  }
  ArrayToString(literal, out);
}

// The lowest and highest value of a float format (infinities when it has them).
std::pair<double, double> FloatRange(ir::ElementType type) {
  if (type == ir::ElementType::kF64 || type == ir::ElementType::kF32) {
    return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  }
  double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
  const int bits = ir::BitWidth(type);
  for (uint64_t pattern = 0; pattern < (uint64_t{1} << bits); ++pattern) {
    const double value = ir::DecodeFloat(type, pattern);
    if (std::isnan(value)) continue;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  return {low, high};
}

// A scalar literal of `type` whose value `set` writes into an IR literal.
template <typename Set>
Literal Scalar(PrimitiveType type, Set set) {
  const std::optional<ir::ElementType> element = internal::ToElementType(type);
  if (!element) return Literal();
  auto ir_literal = ir::Literal::Create(ir::Type::Scalar(*element));
  if (!ir_literal.ok()) return Literal();
  set(*element, *ir_literal);
  Literal literal(ShapeUtil::MakeScalarShape(type));
  std::memcpy(literal.untyped_data(), ir_literal->raw().data(), ir_literal->raw().size());
  return literal;
}

}  // namespace

Literal::Literal() : shape_(ShapeUtil::MakeNil()) {}

Literal::Literal(const Shape& shape) : Literal() {
  StatusOr<Literal> created = Create(shape);
  if (created.ok()) *this = std::move(created).value();
}

StatusOr<Literal> Literal::Create(const Shape& shape) {
  VKHLO_RETURN_IF_ERROR(ShapeUtil::ValidateShape(shape));
  Literal literal;
  literal.shape_ = shape;
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      VKHLO_ASSIGN_OR_RETURN(Literal part, Create(element));
      literal.tuple_elements_.push_back(std::move(part));
    }
    return literal;
  }
  if (shape.IsToken()) return literal;
  const int64_t count = ShapeUtil::ElementsIn(shape);
  const int64_t width = primitive_util::ByteWidth(shape.element_type());
  if (count > std::numeric_limits<int64_t>::max() / width) {
    return ResourceExhaustedError("literal of shape " + shape.ToString() + " is too large to hold");
  }
  try {
    literal.bytes_.assign(static_cast<size_t>(count * width), 0);
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError(fmt::format("cannot allocate {} bytes for a literal of shape {}", count * width,
                                              shape.ToString()));
  } catch (const std::length_error&) {
    return ResourceExhaustedError("literal of shape " + shape.ToString() + " is too large to hold");
  }
  return literal;
}

Literal::Literal(Literal&& other) noexcept
    : shape_(std::move(other.shape_)), bytes_(std::move(other.bytes_)), tuple_elements_(std::move(other.tuple_elements_)) {
  other.shape_ = ShapeUtil::MakeNil();
  other.bytes_.clear();
  other.tuple_elements_.clear();
}

Literal& Literal::operator=(Literal&& other) noexcept {
  if (this != &other) {
    shape_ = std::move(other.shape_);
    bytes_ = std::move(other.bytes_);
    tuple_elements_ = std::move(other.tuple_elements_);
    other.shape_ = ShapeUtil::MakeNil();
    other.bytes_.clear();
    other.tuple_elements_.clear();
  }
  return *this;
}

int64_t Literal::element_count() const { return shape_.IsArray() ? ShapeUtil::ElementsIn(shape_) : 0; }

Status Literal::CheckElementType(PrimitiveType type) const {
  if (!shape_.IsArray()) {
    return InvalidArgumentError("literal of shape " + shape_.ToString() + " has no array elements");
  }
  if (shape_.element_type() != type) {
    return InvalidArgumentError(fmt::format("literal of shape {} has {} elements, not {}", shape_.ToString(),
                                            primitive_util::LowercasePrimitiveTypeName(shape_.element_type()),
                                            primitive_util::LowercasePrimitiveTypeName(type)));
  }
  return OkStatus();
}

Status Literal::IndexError(const std::vector<int64_t>& multi_index) const {
  return OutOfRangeError(
      fmt::format("index [{}] is outside literal of shape {}", fmt::join(multi_index, ","), shape_.ToString()));
}

int64_t Literal::LinearIndex(const std::vector<int64_t>& multi_index) const {
  if (!shape_.IsArray() || static_cast<int64_t>(multi_index.size()) != shape_.rank()) return -1;
  int64_t linear = 0;
  for (size_t d = 0; d < multi_index.size(); ++d) {
    const int64_t size = shape_.dimensions(static_cast<int>(d));
    if (multi_index[d] < 0 || multi_index[d] >= size) return -1;
    linear = linear * size + multi_index[d];
  }
  return linear;
}

StatusOr<std::vector<uint8_t>> Literal::PhysicalBytes() const {
  if (!shape_.IsArray()) {
    return InvalidArgumentError("literal of shape " + shape_.ToString() + " has no array elements");
  }
  VKHLO_RETURN_IF_ERROR(LayoutUtil::ValidateLayoutForRank(shape_.layout(), shape_.rank()));
  const size_t width = static_cast<size_t>(primitive_util::ByteWidth(shape_.element_type()));
  std::vector<uint8_t> out(bytes_.size());
  ForEachElement(shape_, [&](int64_t logical, int64_t physical) {
    std::memcpy(out.data() + static_cast<size_t>(physical) * width, bytes_.data() + static_cast<size_t>(logical) * width,
                width);
  });
  return out;
}

StatusOr<Literal> Literal::FromPhysicalBytes(const Shape& shape, const void* data, size_t size) {
  if (!shape.IsArray()) return InvalidArgumentError("FromPhysicalBytes needs an array shape, not " + shape.ToString());
  VKHLO_ASSIGN_OR_RETURN(Literal literal, Create(shape));
  if (size != literal.bytes_.size()) {
    return InvalidArgumentError(fmt::format("{} bytes do not hold a literal of shape {} ({} bytes)", size,
                                            shape.ToString(true), literal.bytes_.size()));
  }
  const size_t width = static_cast<size_t>(primitive_util::ByteWidth(shape.element_type()));
  const auto* in = static_cast<const uint8_t*>(data);
  ForEachElement(shape, [&](int64_t logical, int64_t physical) {
    std::memcpy(literal.bytes_.data() + static_cast<size_t>(logical) * width, in + static_cast<size_t>(physical) * width,
                width);
  });
  NormalizeStorage(shape.element_type(), literal.bytes_);
  return literal;
}

Literal Literal::Relayout(const Layout& new_layout) const {
  Literal result = *this;
  if (result.shape_.IsArray()) *result.shape_.mutable_layout() = new_layout;
  return result;
}

Literal Literal::Relayout(const Shape& shape_with_layout) const {
  Literal result = *this;
  if (shape_.IsTuple() && shape_with_layout.IsTuple() &&
      shape_with_layout.tuple_shapes_size() == static_cast<int>(tuple_elements_.size())) {
    std::vector<Shape> element_shapes;
    for (size_t i = 0; i < tuple_elements_.size(); ++i) {
      result.tuple_elements_[i] = tuple_elements_[i].Relayout(shape_with_layout.tuple_shapes(static_cast<int>(i)));
      element_shapes.push_back(result.tuple_elements_[i].shape());
    }
    result.shape_ = ShapeUtil::MakeTupleShape(element_shapes);
  } else if (shape_.IsArray() && ShapeUtil::Compatible(shape_, shape_with_layout)) {
    *result.shape_.mutable_layout() = shape_with_layout.layout();
  }
  return result;
}

StatusOr<Literal> Literal::Reshape(const std::vector<int64_t>& dimensions) const {
  if (!shape_.IsArray()) return InvalidArgumentError("cannot reshape a literal of shape " + shape_.ToString());
  Shape shape = ShapeUtil::MakeShape(shape_.element_type(), dimensions);
  VKHLO_RETURN_IF_ERROR(ShapeUtil::ValidateShape(shape));
  if (ShapeUtil::ElementsIn(shape) != element_count()) {
    return InvalidArgumentError(
        fmt::format("cannot reshape a literal of shape {} to {}: element counts differ", shape_.ToString(), shape.ToString()));
  }
  Literal result;
  result.shape_ = std::move(shape);
  result.bytes_ = bytes_;
  return result;
}

std::vector<Literal> Literal::DecomposeTuple() {
  if (!shape_.IsTuple()) return {};
  std::vector<Literal> elements = std::move(tuple_elements_);
  *this = Literal();
  return elements;
}

std::string Literal::ToString() const {
  std::string out;
  ToStringHelper(*this, /*print_shape=*/true, /*print_layout=*/false, out);
  return out;
}

std::string Literal::ToStringWithLayout() const {
  std::string out;
  ToStringHelper(*this, /*print_shape=*/true, /*print_layout=*/true, out);
  return out;
}

std::string Literal::ToStringWithoutShape() const {
  std::string out;
  ToStringHelper(*this, /*print_shape=*/false, /*print_layout=*/false, out);
  return out;
}

bool Literal::operator==(const Literal& other) const {
  return ShapeUtil::Compatible(shape_, other.shape_) && bytes_ == other.bytes_ &&
         tuple_elements_ == other.tuple_elements_;
}

Literal LiteralUtil::Zero(PrimitiveType type) {
  return Scalar(type, [](ir::ElementType, ir::Literal&) {});
}

Literal LiteralUtil::One(PrimitiveType type) {
  return Scalar(type, [](ir::ElementType element, ir::Literal& literal) {
    if (ir::IsComplex(element)) {
      literal.SetComplex(0, {1.0, 0.0});
    } else if (ir::IsFloat(element)) {
      literal.SetFloat(0, 1.0);
    } else {
      literal.SetInt(0, 1);
    }
  });
}

Literal LiteralUtil::MinValue(PrimitiveType type) {
  return Scalar(type, [](ir::ElementType element, ir::Literal& literal) {
    if (ir::IsFloat(element)) {
      literal.SetFloat(0, FloatRange(element).first);
    } else if (ir::IsSignedInteger(element)) {
      literal.SetInt(0, -(int64_t{1} << (ir::BitWidth(element) - 2)) * 2);
    }
  });
}

Literal LiteralUtil::MaxValue(PrimitiveType type) {
  return Scalar(type, [](ir::ElementType element, ir::Literal& literal) {
    if (ir::IsFloat(element)) {
      literal.SetFloat(0, FloatRange(element).second);
    } else if (ir::IsSignedInteger(element)) {
      literal.SetBits(0, (uint64_t{1} << (ir::BitWidth(element) - 1)) - 1);
    } else if (ir::IsInteger(element) || ir::IsBoolean(element)) {
      literal.SetBits(0, ~uint64_t{0} >> (64 - ir::BitWidth(element)));
    }
  });
}

Literal LiteralUtil::MakeTuple(const std::vector<const Literal*>& elements) {
  std::vector<Literal> copies;
  for (const Literal* element : elements) copies.push_back(element == nullptr ? Literal() : *element);
  return MakeTupleOwned(std::move(copies));
}

Literal LiteralUtil::MakeTupleOwned(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  for (const Literal& element : elements) shapes.push_back(element.shape());
  Literal literal;
  literal.shape_ = ShapeUtil::MakeTupleShape(shapes);
  literal.tuple_elements_ = std::move(elements);
  return literal;
}

Literal LiteralUtil::CreateToken() {
  Literal literal;
  literal.shape_ = ShapeUtil::MakeTokenShape();
  return literal;
}

}  // namespace vkhlo

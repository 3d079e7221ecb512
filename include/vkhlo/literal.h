// Literal: a host value of some Shape (an array, a tuple of literals, or a token), and LiteralUtil
// to create literals from C++ values.
//
// Element storage: an array's elements are kept in row-major (logical) order, each taking
// ByteWidth(element type) bytes: PRED is one byte 0/1 (readable as bool), S2/S4/U2/U4 one byte
// sign- or zero-extended (vkhlo::int4 ...), F8/F6/F4 one byte holding the bit pattern, bf16/f16
// two bytes (vkhlo::bfloat16, vkhlo::half), C64/C128 real then imaginary part (std::complex).
// `data<T>()` is therefore always a contiguous row-major view, whatever the shape's layout.
//
// Layouts (xla_overview.md, "Layout"): a literal's shape carries a minor_to_major layout, the
// order its elements take in linear memory when they leave the literal. The layout never
// changes what data<T>() or Get() return (those are indexed by logical position); it decides
// the order of physical_data<T>() / PhysicalBytes(), and how CreateFromPhysicalData reads a
// buffer. Relayout(layout) returns the same values with another layout, so
//   auto col = lit.Relayout(LayoutUtil::MakeLayout({0, 1}));   // column-major
//   col.physical_data<float>()   -> {a, d, b, e, c, f} for {{a, b, c}, {d, e, f}}
//   col.Relayout(LayoutUtil::MakeLayout({1, 0})) == lit
// Computations take and give literals in any layout; results come back row-major.
//
// Failures: functions that XLA declares to return a Literal do so here too; given arguments
// they cannot honour (a value count that does not match the dimensions, a mistyped data<T>())
// they return the nil literal (an empty tuple) or an empty view, as documented on each.
// Functions returning Status / StatusOr report what was wrong.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "vkhlo/primitive_type.h"
#include "vkhlo/shape.h"
#include "vkhlo/status.h"
#include "vkhlo/types.h"

namespace vkhlo {

class Literal {
 public:
  // The nil literal: an empty tuple.
  Literal();
  // A literal of `shape` with every element zero (tuple elements likewise; a token has no
  // data). An invalid shape (ShapeUtil::ValidateShape) or one too large to allocate gives the
  // nil literal; use Create() to learn why.
  explicit Literal(const Shape& shape);
  // As the constructor, with the reason on failure.
  static StatusOr<Literal> Create(const Shape& shape);

  Literal(const Literal&) = default;
  Literal& operator=(const Literal&) = default;
  Literal(Literal&& other) noexcept;
  Literal& operator=(Literal&& other) noexcept;
  // XLA literals are move-only and copied with Clone(); here both work.
  Literal Clone() const { return *this; }

  const Shape& shape() const { return shape_; }
  // Elements of an array literal (0 for tuples and tokens).
  int64_t element_count() const;

  // The elements in row-major order, when T is the host type of the element type (float for
  // F32, bool for PRED, bfloat16 for BF16, complex64 for C64, int4 for S4, ...). An empty view
  // when it is not, or for tuples.
  template <typename T>
  std::span<const T> data() const {
    if (!IsElementType<T>()) return {};
    return {reinterpret_cast<const T*>(bytes_.data()), static_cast<size_t>(element_count())};
  }
  template <typename T>
  std::span<T> data() {
    if (!IsElementType<T>()) return {};
    return {reinterpret_cast<T*>(bytes_.data()), static_cast<size_t>(element_count())};
  }
  // The element at a multi-dimensional index (T as for data<T>()); T{} when out of range or
  // mistyped.
  template <typename T>
  T Get(const std::vector<int64_t>& multi_index) const {
    const int64_t i = LinearIndex(multi_index);
    std::span<const T> view = data<T>();
    return i < 0 || view.empty() ? T{} : view[static_cast<size_t>(i)];
  }
  template <typename T>
  Status Set(const std::vector<int64_t>& multi_index, T value) {
    VKHLO_RETURN_IF_ERROR(CheckElementType(primitive_util::NativeToPrimitiveType<T>()));
    const int64_t i = LinearIndex(multi_index);
    if (i < 0) return IndexError(multi_index);
    data<T>()[static_cast<size_t>(i)] = value;
    return OkStatus();
  }
  template <typename T>
  T GetFirstElement() const {
    std::span<const T> view = data<T>();
    return view.empty() ? T{} : view[0];
  }

  // The row-major element storage (see the top of this file); nullptr for tuples and tokens.
  const void* untyped_data() const { return bytes_.data(); }
  void* untyped_data() { return bytes_.data(); }
  int64_t size_bytes() const { return static_cast<int64_t>(bytes_.size()); }

  // The elements in the order of the shape's layout (see the top of this file). Fails for
  // tuples, a mistyped T, or an invalid layout.
  template <typename T>
  StatusOr<std::vector<T>> physical_data() const {
    static_assert(!std::is_same_v<T, bool>, "read PRED literals with PhysicalBytes()");
    VKHLO_RETURN_IF_ERROR(CheckElementType(primitive_util::NativeToPrimitiveType<T>()));
    VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, PhysicalBytes());
    std::vector<T> values(static_cast<size_t>(element_count()));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
  // The element storage bytes in the order of the shape's layout.
  StatusOr<std::vector<uint8_t>> PhysicalBytes() const;
  // An array literal of `shape` (its layout says how `data` is ordered) from `size` bytes of
  // element storage.
  static StatusOr<Literal> FromPhysicalBytes(const Shape& shape, const void* data, size_t size);

  // The same values with another layout (arrays; for a tuple, `shape_with_layout` gives each
  // element's). An invalid layout is kept and reported by whatever needs it (physical_data,
  // transfers); ShapeUtil::ValidateShape(result.shape()) tells in advance.
  Literal Relayout(const Layout& new_layout) const;
  Literal Relayout(const Shape& shape_with_layout) const;

  // The same elements with other dimensions (the element count must match).
  StatusOr<Literal> Reshape(const std::vector<int64_t>& dimensions) const;

  // Tuples: the elements.
  const std::vector<Literal>& tuple_elements() const { return tuple_elements_; }
  // Moves the elements out of a tuple literal, leaving this literal nil. Empty for
  // non-tuples.
  std::vector<Literal> DecomposeTuple();

  // XLA's text: "f32[] 1.5", "s32[3] {1, 2, 3}", "f32[2,2] {\n  { 1, 2 },\n  { 3, 4 }\n}",
  // "(\nf32[] 1,\npred[] true\n)". Floats use the shortest text that reads back to the same
  // value in their own format; NaN and infinities read "nan", "inf", "-inf"; PRED elements of
  // arrays print 1 / 0 (scalars true / false); complex values "(re, im)".
  std::string ToString() const;
  std::string ToStringWithLayout() const;  // shapes with their layouts: "f32[2,2]{0,1} {...}"
  std::string ToStringWithoutShape() const;

  // Same shape (layouts ignored) and bitwise-equal elements.
  bool operator==(const Literal& other) const;
  bool operator!=(const Literal& other) const { return !(*this == other); }

 private:
  friend class LiteralUtil;

  template <typename T>
  bool IsElementType() const {
    return shape_.IsArray() && shape_.element_type() == primitive_util::NativeToPrimitiveType<T>();
  }
  Status CheckElementType(PrimitiveType type) const;
  Status IndexError(const std::vector<int64_t>& multi_index) const;
  // Row-major position of `multi_index`, or -1 when it is out of range.
  int64_t LinearIndex(const std::vector<int64_t>& multi_index) const;

  Shape shape_;
  std::vector<uint8_t> bytes_;
  std::vector<Literal> tuple_elements_;
};

class LiteralUtil {
 public:
  template <typename T>
  static Literal CreateR0(T value) {
    return FromValues<T>({}, &value, &value + 1);
  }
  template <typename T>
  static Literal CreateR1(std::initializer_list<T> values) {
    return FromValues<T>({static_cast<int64_t>(values.size())}, values.begin(), values.end());
  }
  template <typename T>
  static Literal CreateR1(const std::vector<T>& values) {
    return FromValues<T>({static_cast<int64_t>(values.size())}, values.begin(), values.end());
  }
  template <typename T>
  static Literal CreateR1(std::span<const T> values) {
    return FromValues<T>({static_cast<int64_t>(values.size())}, values.begin(), values.end());
  }
  // Rows of equal length; ragged rows give the nil literal.
  template <typename T>
  static Literal CreateR2(std::initializer_list<std::initializer_list<T>> values) {
    std::vector<T> flat;
    const int64_t rows = static_cast<int64_t>(values.size());
    const int64_t cols = rows == 0 ? 0 : static_cast<int64_t>(values.begin()->size());
    for (const auto& row : values) {
      if (static_cast<int64_t>(row.size()) != cols) return Literal();
      flat.insert(flat.end(), row.begin(), row.end());
    }
    return FromValues<T>({rows, cols}, flat.begin(), flat.end());
  }
  template <typename T>
  static Literal CreateR2WithLayout(std::initializer_list<std::initializer_list<T>> values, const Layout& layout) {
    return CreateR2<T>(values).Relayout(layout);
  }
  template <typename T>
  static Literal CreateR3(std::initializer_list<std::initializer_list<std::initializer_list<T>>> values) {
    std::vector<T> flat;
    const int64_t d0 = static_cast<int64_t>(values.size());
    const int64_t d1 = d0 == 0 ? 0 : static_cast<int64_t>(values.begin()->size());
    const int64_t d2 = d1 == 0 ? 0 : static_cast<int64_t>(values.begin()->begin()->size());
    for (const auto& plane : values) {
      if (static_cast<int64_t>(plane.size()) != d1) return Literal();
      for (const auto& row : plane) {
        if (static_cast<int64_t>(row.size()) != d2) return Literal();
        flat.insert(flat.end(), row.begin(), row.end());
      }
    }
    return FromValues<T>({d0, d1, d2}, flat.begin(), flat.end());
  }
  // `values` in row-major order; their count must be the product of `dimensions` (else the nil
  // literal).
  template <typename T>
  static Literal CreateFromVector(const std::vector<T>& values, const std::vector<int64_t>& dimensions) {
    return FromValues<T>(dimensions, values.begin(), values.end());
  }
  // As CreateFromVector (values still row-major), with the layout `minor_to_major`.
  template <typename T>
  static Literal CreateFromVectorWithLayout(const std::vector<T>& values, const std::vector<int64_t>& dimensions,
                                            const std::vector<int64_t>& minor_to_major) {
    return CreateFromVector<T>(values, dimensions).Relayout(Layout(minor_to_major));
  }
  // An array literal from elements stored in the order of `shape_with_layout`'s layout
  // (column-major data with layout {0, 1}, for instance).
  template <typename T>
  static StatusOr<Literal> CreateFromPhysicalData(const Shape& shape_with_layout, std::span<const T> values) {
    static_assert(!std::is_same_v<T, bool>, "give PRED data to Literal::FromPhysicalBytes");
    if (shape_with_layout.element_type() != primitive_util::NativeToPrimitiveType<T>()) {
      return InvalidArgumentError("CreateFromPhysicalData: the host type is not the element type of " +
                                  shape_with_layout.ToString(true));
    }
    return Literal::FromPhysicalBytes(shape_with_layout, values.data(), values.size() * sizeof(T));
  }
  template <typename T>
  static StatusOr<Literal> CreateFromPhysicalData(const Shape& shape_with_layout, const std::vector<T>& values) {
    return CreateFromPhysicalData<T>(shape_with_layout, std::span<const T>(values.data(), values.size()));
  }

  // Scalars of `type`: 0, 1, the lowest value (-inf for floats with infinities, else the
  // lowest finite; false for PRED) and the highest.
  static Literal Zero(PrimitiveType type);
  static Literal One(PrimitiveType type);
  static Literal MinValue(PrimitiveType type);
  static Literal MaxValue(PrimitiveType type);

  static Literal MakeTuple(const std::vector<const Literal*>& elements);
  static Literal MakeTupleOwned(std::vector<Literal> elements);
  static Literal CreateToken();

 private:
  template <typename T, typename It>
  static Literal FromValues(const std::vector<int64_t>& dimensions, It begin, It end) {
    constexpr PrimitiveType kType = primitive_util::NativeToPrimitiveType<T>();
    static_assert(kType != PRIMITIVE_TYPE_INVALID, "no PrimitiveType for this host type");
    static_assert(sizeof(T) == static_cast<size_t>(primitive_util::ByteWidth(kType)),
                  "host type size must match the element storage");
    Literal literal(ShapeUtil::MakeShape(kType, dimensions));
    if (!literal.shape().IsArray() || literal.element_count() != static_cast<int64_t>(std::distance(begin, end))) {
      return Literal();
    }
    uint8_t* out = literal.bytes_.data();
    for (It it = begin; it != end; ++it, out += sizeof(T)) {
      const T value = *it;
      std::memcpy(out, &value, sizeof(T));
    }
    return literal;
  }
};

}  // namespace vkhlo

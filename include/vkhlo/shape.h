// Shape, Layout and ProgramShape: XLA's description of values, and ShapeUtil / LayoutUtil to
// make and inspect them.
//
// A Shape is an array (element type + dimensions + layout), a tuple of shapes, or a token.
// Dimensions are numbered 0..rank-1, listed in increasing order of dimension number
// (MakeShape(F32, {A, B, C}) has dimension 0 of size A).
//
// Layout (xla_overview.md, "Layout"): `minor_to_major` lists the dimensions from the most
// minor (fastest varying in linear memory) to the most major. {1, 0} is row-major for rank 2,
// {0, 1} column-major. Every array shape has one; MakeShape gives the default {rank-1, ..., 0}
// (row-major), the layout vkhlo computes in. The layout only matters where a Literal meets
// linear memory in another order (Literal::physical_data, LiteralUtil::CreateFromPhysicalData).
//
// Shapes are plain values. Making one never fails: a shape with a negative dimension or a
// minor_to_major that is not a permutation of its dimensions is representable, and every
// consumer (Parameter, Literal creation, Relayout, transfers) checks it with
// ShapeUtil::ValidateShape and reports the defect as a Status.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vkhlo/primitive_type.h"
#include "vkhlo/status.h"

namespace vkhlo {

class Layout {
 public:
  Layout() = default;
  explicit Layout(std::vector<int64_t> minor_to_major) : minor_to_major_(std::move(minor_to_major)) {}

  const std::vector<int64_t>& minor_to_major() const { return minor_to_major_; }
  int64_t minor_to_major(int index) const { return minor_to_major_[static_cast<size_t>(index)]; }
  int minor_to_major_size() const { return static_cast<int>(minor_to_major_.size()); }
  std::vector<int64_t>* mutable_minor_to_major() { return &minor_to_major_; }
  void add_minor_to_major(int64_t dimension) { minor_to_major_.push_back(dimension); }

  // "{1,0}".
  std::string ToString() const;

  friend bool operator==(const Layout& a, const Layout& b) = default;

 private:
  std::vector<int64_t> minor_to_major_;
};

class Shape {
 public:
  // An invalid shape (element type PRIMITIVE_TYPE_INVALID).
  Shape() = default;
  // An array shape with the default (row-major) layout.
  Shape(PrimitiveType element_type, std::vector<int64_t> dimensions);
  // A tuple shape.
  explicit Shape(std::vector<Shape> tuple_shapes);

  PrimitiveType element_type() const { return element_type_; }
  void set_element_type(PrimitiveType type) { element_type_ = type; }

  bool IsArray() const { return primitive_util::IsArrayType(element_type_); }
  bool IsTuple() const { return element_type_ == TUPLE; }
  bool IsToken() const { return element_type_ == TOKEN; }
  bool IsInteger() const { return primitive_util::IsIntegralType(element_type_); }

  // Arrays: the dimension sizes.
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t dimensions(int index) const { return dimensions_[static_cast<size_t>(index)]; }
  int dimensions_size() const { return static_cast<int>(dimensions_.size()); }
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }
  void set_dimensions(int index, int64_t size) { dimensions_[static_cast<size_t>(index)] = size; }
  // Appends a dimension: the new most minor one under the default layout (which stays the
  // default), the most major one under any other layout.
  void add_dimensions(int64_t size);
  std::vector<int64_t>* mutable_dimensions() { return &dimensions_; }

  // Tuples: the element shapes.
  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  const Shape& tuple_shapes(int index) const { return tuple_shapes_[static_cast<size_t>(index)]; }
  int tuple_shapes_size() const { return static_cast<int>(tuple_shapes_.size()); }
  std::vector<Shape>* mutable_tuple_shapes() { return &tuple_shapes_; }

  // Arrays: the layout (the default row-major one unless set).
  bool has_layout() const { return IsArray(); }
  const Layout& layout() const { return layout_; }
  Layout* mutable_layout() { return &layout_; }

  // XLA's notation: "f32[2,3]", "(f32[2], s32[])", "token[]"; with `print_layout`,
  // "f32[2,3]{1,0}".
  std::string ToString(bool print_layout = false) const;

  // Equal element types, dimensions, layouts and tuple elements.
  friend bool operator==(const Shape& a, const Shape& b) = default;

 private:
  PrimitiveType element_type_ = PRIMITIVE_TYPE_INVALID;
  std::vector<int64_t> dimensions_;
  std::vector<Shape> tuple_shapes_;
  Layout layout_;
};

// The signature of a computation: parameter shapes (in parameter order) and the result shape.
class ProgramShape {
 public:
  const std::vector<Shape>& parameters() const { return parameters_; }
  const Shape& parameters(int index) const { return parameters_[static_cast<size_t>(index)]; }
  int parameters_size() const { return static_cast<int>(parameters_.size()); }
  const std::vector<std::string>& parameter_names() const { return parameter_names_; }
  const Shape& result() const { return result_; }

  void AddParameter(Shape shape, std::string name);
  Shape* mutable_result() { return &result_; }

  // "(alpha: f32[], x: f32[4]) -> f32[4]".
  std::string ToString() const;

 private:
  std::vector<Shape> parameters_;
  std::vector<std::string> parameter_names_;
  Shape result_;
};

class LayoutUtil {
 public:
  static Layout MakeLayout(std::vector<int64_t> minor_to_major) { return Layout(std::move(minor_to_major)); }
  // {rank-1, ..., 1, 0}: row-major, dimension 0 most major.
  static Layout MakeDescendingLayout(int64_t rank);
  // {0, 1, ..., rank-1}: column-major, dimension 0 most minor.
  static Layout MakeAscendingLayout(int64_t rank);
  static Layout GetDefaultLayoutForRank(int64_t rank) { return MakeDescendingLayout(rank); }
  // Whether `layout` is the default (row-major) layout of its rank.
  static bool IsMonotonicWithDim0Major(const Layout& layout);
  // OK when `layout` is a permutation of 0..rank-1.
  static Status ValidateLayoutForRank(const Layout& layout, int64_t rank);
};

class ShapeUtil {
 public:
  static Shape MakeShape(PrimitiveType element_type, const std::vector<int64_t>& dimensions);
  static Shape MakeScalarShape(PrimitiveType element_type) { return MakeShape(element_type, {}); }
  // An array shape whose layout is `minor_to_major`.
  static Shape MakeShapeWithLayout(PrimitiveType element_type, const std::vector<int64_t>& dimensions,
                                   const std::vector<int64_t>& minor_to_major);
  // XLA's newer name for MakeShapeWithLayout.
  static Shape MakeShapeWithDenseLayout(PrimitiveType element_type, const std::vector<int64_t>& dimensions,
                                        const std::vector<int64_t>& minor_to_major) {
    return MakeShapeWithLayout(element_type, dimensions, minor_to_major);
  }
  static Shape MakeTupleShape(const std::vector<Shape>& shapes);
  static Shape MakeNil() { return MakeTupleShape({}); }  // the empty tuple
  static Shape MakeTokenShape();

  // OK for a well-formed shape: a valid element type, dimensions >= 0 with an element count that
  // fits int64, a layout that is a permutation of the dimensions, well-formed tuple elements.
  static Status ValidateShape(const Shape& shape);

  // Elements of an array shape (product of the dimensions; 1 for a scalar).
  static int64_t ElementsIn(const Shape& shape);
  static bool IsScalar(const Shape& shape) { return shape.IsArray() && shape.rank() == 0; }
  static bool IsEmptyTuple(const Shape& shape) { return shape.IsTuple() && shape.tuple_shapes_size() == 0; }
  // Bytes of an array's elements in a Literal (ElementsIn * ByteWidth).
  static int64_t ByteSizeOfElements(const Shape& shape);
  static int64_t ByteSizeOfPrimitiveType(PrimitiveType type) { return primitive_util::ByteWidth(type); }

  // Equal including layouts.
  static bool Equal(const Shape& a, const Shape& b) { return a == b; }
  // Equal ignoring layouts.
  static bool Compatible(const Shape& a, const Shape& b);
  static bool SameDimensions(const Shape& a, const Shape& b) { return a.dimensions() == b.dimensions(); }

  static std::string HumanString(const Shape& shape) { return shape.ToString(false); }
  static std::string HumanStringWithLayout(const Shape& shape) { return shape.ToString(true); }

  // The same array shape with another element type.
  static Shape ChangeElementType(const Shape& shape, PrimitiveType type);
};

}  // namespace vkhlo

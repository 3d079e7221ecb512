#include "vkhlo/shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace vkhlo {

std::string Layout::ToString() const { return fmt::format("{{{}}}", fmt::join(minor_to_major_, ",")); }

Shape::Shape(PrimitiveType element_type, std::vector<int64_t> dimensions)
    : element_type_(element_type),
      dimensions_(std::move(dimensions)),
      layout_(LayoutUtil::MakeDescendingLayout(static_cast<int64_t>(dimensions_.size()))) {}

Shape::Shape(std::vector<Shape> tuple_shapes) : element_type_(TUPLE), tuple_shapes_(std::move(tuple_shapes)) {}

void Shape::add_dimensions(int64_t size) {
  const bool was_default = layout_ == LayoutUtil::MakeDescendingLayout(rank());
  dimensions_.push_back(size);
  if (was_default) {
    layout_ = LayoutUtil::MakeDescendingLayout(rank());
  } else {
    layout_.add_minor_to_major(rank() - 1);
  }
}

std::string Shape::ToString(bool print_layout) const {
  if (IsTuple()) {
    std::vector<std::string> parts;
    for (const Shape& element : tuple_shapes_) parts.push_back(element.ToString(print_layout));
    return fmt::format("({})", fmt::join(parts, ", "));
  }
  std::string text = fmt::format("{}[{}]", primitive_util::LowercasePrimitiveTypeName(element_type_),
                                 fmt::join(dimensions_, ","));
  if (print_layout && IsArray() && rank() > 0) text += layout_.ToString();
  return text;
}

void ProgramShape::AddParameter(Shape shape, std::string name) {
  parameters_.push_back(std::move(shape));
  parameter_names_.push_back(std::move(name));
}

std::string ProgramShape::ToString() const {
  std::vector<std::string> parts;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    const std::string& name = parameter_names_[i];
    parts.push_back(fmt::format("{}: {}", name.empty() ? fmt::format("p{}", i) : name, parameters_[i].ToString()));
  }
  return fmt::format("({}) -> {}", fmt::join(parts, ", "), result_.ToString());
}

Layout LayoutUtil::MakeDescendingLayout(int64_t rank) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(rank, 0)));
  std::iota(order.rbegin(), order.rend(), 0);
  return Layout(std::move(order));
}

Layout LayoutUtil::MakeAscendingLayout(int64_t rank) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(rank, 0)));
  std::iota(order.begin(), order.end(), 0);
  return Layout(std::move(order));
}

bool LayoutUtil::IsMonotonicWithDim0Major(const Layout& layout) {
  return layout == MakeDescendingLayout(layout.minor_to_major_size());
}

Status LayoutUtil::ValidateLayoutForRank(const Layout& layout, int64_t rank) {
  std::vector<int64_t> sorted = layout.minor_to_major();
  std::sort(sorted.begin(), sorted.end());
  bool ok = static_cast<int64_t>(sorted.size()) == rank;
  for (int64_t i = 0; ok && i < rank; ++i) ok = sorted[static_cast<size_t>(i)] == i;
  if (!ok) {
    return InvalidArgumentError(fmt::format(
        "layout {} is not a permutation of the {} dimensions (minor_to_major must list each of 0..{} once)",
        layout.ToString(), rank, rank - 1));
  }
  return OkStatus();
}

Shape ShapeUtil::MakeShape(PrimitiveType element_type, const std::vector<int64_t>& dimensions) {
  return Shape(element_type, dimensions);
}

Shape ShapeUtil::MakeShapeWithLayout(PrimitiveType element_type, const std::vector<int64_t>& dimensions,
                                     const std::vector<int64_t>& minor_to_major) {
  Shape shape(element_type, dimensions);
  *shape.mutable_layout() = Layout(minor_to_major);
  return shape;
}

Shape ShapeUtil::MakeTupleShape(const std::vector<Shape>& shapes) { return Shape(shapes); }

Shape ShapeUtil::MakeTokenShape() {
  Shape shape;
  shape.set_element_type(TOKEN);
  return shape;
}

Status ShapeUtil::ValidateShape(const Shape& shape) {
  if (shape.IsTuple()) {
    for (int i = 0; i < shape.tuple_shapes_size(); ++i) {
      if (Status element = ValidateShape(shape.tuple_shapes(i)); !element.ok()) {
        return element.WithContext(fmt::format("tuple element {}", i));
      }
    }
    return OkStatus();
  }
  if (shape.IsToken()) return OkStatus();
  if (!shape.IsArray()) {
    return InvalidArgumentError(fmt::format("shape has an invalid element type ({})", static_cast<int>(shape.element_type())));
  }
  int64_t count = 1;
  for (int64_t d : shape.dimensions()) {
    if (d < 0) return InvalidArgumentError(fmt::format("shape {} has a negative dimension", shape.ToString()));
    if (d != 0 && count > INT64_MAX / d) {
      return InvalidArgumentError(fmt::format("shape {} has more elements than fit in int64", shape.ToString()));
    }
    count *= d;
  }
  return LayoutUtil::ValidateLayoutForRank(shape.layout(), shape.rank())
      .WithContext(fmt::format("shape {}", shape.ToString()));
}

int64_t ShapeUtil::ElementsIn(const Shape& shape) {
  int64_t count = 1;
  for (int64_t d : shape.dimensions()) count *= d;
  return count;
}

int64_t ShapeUtil::ByteSizeOfElements(const Shape& shape) {
  return ElementsIn(shape) * primitive_util::ByteWidth(shape.element_type());
}

bool ShapeUtil::Compatible(const Shape& a, const Shape& b) {
  if (a.element_type() != b.element_type()) return false;
  if (a.IsTuple()) {
    if (a.tuple_shapes_size() != b.tuple_shapes_size()) return false;
    for (int i = 0; i < a.tuple_shapes_size(); ++i) {
      if (!Compatible(a.tuple_shapes(i), b.tuple_shapes(i))) return false;
    }
    return true;
  }
  return a.dimensions() == b.dimensions();
}

Shape ShapeUtil::ChangeElementType(const Shape& shape, PrimitiveType type) {
  Shape result = shape;
  result.set_element_type(type);
  return result;
}

}  // namespace vkhlo

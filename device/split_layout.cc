#include "device/split_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace vkhlo::device {

SplitLayout ChooseSplitLayout(const DeviceCapabilities& caps, uint64_t alignment) {
  const DeviceLimits& l = caps.limits;
  SplitLayout layout;
  for (uint64_t cap : {l.max_memory_allocation_size, l.max_buffer_size}) {
    if (cap != 0) layout.limit = layout.limit == 0 ? cap : std::min(layout.limit, cap);
  }
  if (layout.limit == 0) return layout;
  const uint64_t descriptor = std::lcm<uint64_t>(16, std::max<uint64_t>(1, l.min_storage_buffer_offset_alignment));
  const uint64_t window = std::max(descriptor, l.max_storage_buffer_range / descriptor * descriptor);
  const uint64_t piece_unit = std::lcm(window, std::max<uint64_t>(1, alignment));
  if (layout.limit >= piece_unit) {
    layout.window_bytes = window;
    layout.piece_bytes = layout.limit / piece_unit * piece_unit;
    return layout;
  }
  const uint64_t unit = std::lcm(descriptor, std::max<uint64_t>(1, alignment));
  layout.piece_bytes = layout.window_bytes = std::max(unit, layout.limit / unit * unit);
  return layout;
}

std::vector<BufferView> PieceRanges(const BufferView& view) {
  if (view.pieces == nullptr) return {view};
  std::vector<BufferView> ranges;
  const PieceTable& t = *view.pieces;
  for (uint64_t at = view.offset, end = view.offset + view.size; at < end;) {
    const uint64_t i = std::min<uint64_t>(at / t.piece_bytes, t.views.size() - 1);
    const BufferView& piece = t.views[i];
    const uint64_t within = at - i * t.piece_bytes;
    const uint64_t bytes = std::min(end - at, piece.size > within ? piece.size - within : end - at);
    ranges.push_back(BufferView{piece.buffer, piece.offset + within, bytes, nullptr});
    at += bytes;
  }
  return ranges;
}

StatusOr<BufferView> WithinOnePiece(const BufferView& view, std::string_view what) {
  if (view.pieces == nullptr) return view;
  std::vector<BufferView> ranges = PieceRanges(view);
  if (ranges.size() == 1) return ranges[0];
  return InvalidArgumentError(fmt::format(
      "{}: bytes [{}, {}) of a buffer split across {} allocations of {} bytes (beyond maxMemoryAllocationSize) "
      "span {} of them; this use needs one range",
      what, view.offset, view.offset + view.size, view.pieces->views.size(), view.pieces->piece_bytes,
      ranges.size()));
}

}  // namespace vkhlo::device

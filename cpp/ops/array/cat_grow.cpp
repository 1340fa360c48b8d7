// fxwasm.cat_grow(tensors, dim): torch.cat([past, x], dim) for a cache a graph grows and hands back — the
// KV cache of a decoding step (`k = torch.cat([past_k, k], dim=2)`, returned). passes/grow_caches.h puts
// it in the runtime's copy of such a graph. Its value is torch.cat's; what differs is the memory:
//  - past ends where its block's filled part ends, and the block has room (Storage::Growth): x is written
//    after it and the result is a longer view of the same block — only x's bytes move;
//  - past is such a block, full or an older view of it: a new block with room for half as many positions
//    again, so the next steps append in place (a cache grows by whole copies only log(P) times);
//  - otherwise (the first step: a cache from the prefill or from JS): torch.cat's contiguous result, laid
//    out for appending with no room left, so a plain run costs what torch.cat costs.
// Blocks are only ever written past their filled end, so every view of one keeps its values; a run handed
// the older view of a block that has grown since gets a copy. A cache only comes back without a copy when
// the caller keeps it in the runtime (run(..., {resident: true}) in JS).
#include <algorithm>

#include "ops/array/shape_ops.h"
#include "ops/array/view_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "support/error.h"

namespace fx {
namespace {

Shape with_dim(Shape shape, int64_t d, int64_t size) {
  shape[d] = size;
  return shape;
}

// Whether past and x can be joined along d without torch.cat's general path: same dtype and rank, real
// data, equal sizes but along d, past starting its block and laid out as Storage::Growth describes.
bool joins(const Tensor& past, const Tensor& x, int64_t d) {
  if (past.is_meta() || x.is_meta() || past.dtype() != x.dtype() || past.dim() != x.dim() || past.offset() != 0)
    return false;
  for (int64_t k = 0; k < past.dim(); ++k)
    if (k != d && past.shape()[k] != x.shape()[k]) return false;
  const Storage::Growth& g = past.storage()->growth();
  if (g.dim != d || past.shape()[d] > g.filled) return false;
  const Shape room = with_dim(past.shape(), d, g.capacity);
  return past.strides() == contiguous_strides(room) &&
         past.storage()->nbytes() >= static_cast<size_t>(checked_numel(room)) * dtype_size(past.dtype());
}

// A new block laid out for appending along d with room for `capacity` positions; the view of its first
// `used` positions.
Tensor growable(const Tensor& like, int64_t d, int64_t used, int64_t capacity) {
  const Shape room = with_dim(like.shape(), d, capacity);
  Tensor block = Tensor::empty(room, like.dtype());
  block.storage()->growth() = {d, capacity, used};
  return Tensor(block.storage(), like.dtype(), with_dim(like.shape(), d, used), block.strides(), 0);
}

Object cat_grow_op(const OpCall& call) {
  static const Schema schema("cat_grow(tensors, dim=0)");
  Args a = schema.parse(call);
  const std::vector<Tensor> ts = tensor_list(a[0], "cat");
  // Other lists, and pieces of different ranks (torch.cat skips a 1-D empty tensor whatever the others'
  // shapes): torch.cat as it is.
  if (ts.size() != 2 || ts[0].dim() == 0 || ts[0].dim() != ts[1].dim()) return cat_tensors(ts, a.integer(1));
  const Tensor& past = ts[0];
  const Tensor& x = ts[1];
  const int64_t d = checked_dim(a.integer(1), past.dim());
  if (joins(past, x, d)) {
    Storage::Growth& g = past.storage()->growth();
    const int64_t at = past.shape()[d], total = at + x.shape()[d];
    Tensor out;
    if (at == g.filled && total <= g.capacity) {  // room after the filled part: append in place
      out = Tensor(past.storage(), past.dtype(), with_dim(past.shape(), d, total), past.strides(), 0);
      g.filled = total;
    } else {  // full, or an older view: a new block with room
      out = growable(past, d, total, total + std::max<int64_t>(16, total / 2));
      copy_into(slice_view(out, d, 0, at, 1), past);
    }
    copy_into(slice_view(out, d, at, total, 1), x);
    return out;
  }
  Tensor out = cat_tensors(ts, d);  // torch's checks and messages, and the result's value
  if (!out.is_meta())
    out.storage()->growth() = {d, out.shape()[d], out.shape()[d]};  // the first step: no room yet
  return out;
}

const OpRegistrar reg_cat_grow{OpDef{"fxwasm.cat_grow", {}, {}, cat_grow_op}};

}  // namespace
}  // namespace fx

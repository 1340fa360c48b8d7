// The one N-d walk of the elementwise kernels (kernels/elementwise_scalar.h): rows of the packed output,
// operands gathered into packed chunks where their row is strided or broadcast.
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/elementwise_scalar.h"
#include "kernels/strided.h"

namespace fx::kernels {
namespace {

constexpr int64_t kChunk = 256;  // elements per gathered chunk (at most 8 bytes each: 2 KB per buffer)

// n elements of `size` bytes, `stride` elements apart (0: one value repeated), packed into `buf`.
template <size_t kSize>
void gather_sized(const unsigned char* src, int64_t stride, int64_t n, unsigned char* buf) {
  const int64_t step = stride * static_cast<int64_t>(kSize);
  for (int64_t i = 0; i < n; ++i) std::memcpy(buf + i * kSize, src + i * step, kSize);
}

const void* packed(const void* base, int64_t offset, int64_t stride, int64_t n, size_t size, unsigned char* buf) {
  const unsigned char* src = static_cast<const unsigned char*>(base) + offset * static_cast<int64_t>(size);
  if (stride == 1) return src;
  switch (size) {
    case 1: gather_sized<1>(src, stride, n, buf); break;
    case 2: gather_sized<2>(src, stride, n, buf); break;
    case 4: gather_sized<4>(src, stride, n, buf); break;
    default: gather_sized<8>(src, stride, n, buf); break;
  }
  return buf;
}

// Packed output rows: y's innermost stride is 1 after merging (the output is packed row-major).
std::vector<int64_t> packed_strides(int ndim, const int64_t* shape) {
  std::vector<int64_t> s(static_cast<size_t>(ndim));
  int64_t m = 1;
  for (int d = ndim; d-- > 0;) {
    s[static_cast<size_t>(d)] = m;
    m *= shape[d];
  }
  return s;
}

}  // namespace

void binary_walk(int ndim, const int64_t* shape, const void* a, const int64_t* a_strides, size_t a_size,
                 const void* b, const int64_t* b_strides, size_t b_size, void* y, size_t y_size, BinaryRow row,
                 void* ctx) {
  const std::vector<int64_t> ys = packed_strides(ndim, shape);
  StridedLayout<3> L(ndim, shape, {a_strides, b_strides, ys.data()});
  alignas(16) unsigned char abuf[kChunk * 8], bbuf[kChunk * 8];
  for_each_row(L, [&](const std::array<int64_t, 3>& off, int64_t n, const std::array<int64_t, 3>& st) {
    unsigned char* yp = static_cast<unsigned char*>(y) + off[2] * static_cast<int64_t>(y_size);
    if (st[0] == 1 && st[1] == 1) {
      row(ctx, n, static_cast<const unsigned char*>(a) + off[0] * static_cast<int64_t>(a_size),
          static_cast<const unsigned char*>(b) + off[1] * static_cast<int64_t>(b_size), yp);
      return;
    }
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t m = std::min(kChunk, n - c);
      row(ctx, m, packed(a, off[0] + c * st[0], st[0], m, a_size, abuf),
          packed(b, off[1] + c * st[1], st[1], m, b_size, bbuf), yp + c * static_cast<int64_t>(y_size));
    }
  });
}

void unary_walk(int ndim, const int64_t* shape, const void* x, const int64_t* x_strides, size_t x_size, void* y,
                size_t y_size, UnaryRow row, void* ctx) {
  const std::vector<int64_t> ys = packed_strides(ndim, shape);
  StridedLayout<2> L(ndim, shape, {x_strides, ys.data()});
  alignas(16) unsigned char xbuf[kChunk * 8];
  for_each_row(L, [&](const std::array<int64_t, 2>& off, int64_t n, const std::array<int64_t, 2>& st) {
    unsigned char* yp = static_cast<unsigned char*>(y) + off[1] * static_cast<int64_t>(y_size);
    if (st[0] == 1) {
      row(ctx, n, static_cast<const unsigned char*>(x) + off[0] * static_cast<int64_t>(x_size), yp);
      return;
    }
    for (int64_t c = 0; c < n; c += kChunk) {
      const int64_t m = std::min(kChunk, n - c);
      row(ctx, m, packed(x, off[0] + c * st[0], st[0], m, x_size, xbuf), yp + c * static_cast<int64_t>(y_size));
    }
  });
}

}  // namespace fx::kernels

// Complex tensors seen as pairs of real ones (ops/math/complex_values.cpp), for the real ops that take
// complex inputs (abs, the FFTs).
#pragma once
#include "tensor/tensor.h"

namespace fx {

// The float view [..., 2] of a complex tensor's storage (torch.view_as_real); FxError for a real one.
Tensor view_as_real(const Tensor& x);
// The complex view of a float32/float64 [..., 2] tensor (torch.view_as_complex, with its checks).
Tensor view_as_complex(const Tensor& x);
// A complex tensor from the broadcast real and imaginary parts (float32 → complex64, float64 → complex128).
Tensor complex_from_parts(const Tensor& re, const Tensor& im, const char* op);
// |x| and arg(x) of a complex tensor, in its real dtype.
Tensor complex_abs(const Tensor& x);
Tensor complex_angle(const Tensor& x);

}  // namespace fx
